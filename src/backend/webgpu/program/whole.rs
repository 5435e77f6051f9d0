//! Whole jitted programs as ONE dispatch on webgpu (`Backend::compile_program`/`run_program`):
//! a Program of many small kernels, given as a one-step loop body (`lower::whole`), runs as
//! the looping scan shader with one step (`looping`, laid out by `layout`): one
//! workgroup runs the kernels one dependency level after another, independent ones side by
//! side, with barriers between levels. Each dispatch costs tens of microseconds in WebGPU
//! implementations, so for small kernels (an `associativeScan` round: slices, batched 2×2
//! matmuls, adds, concatenates) one workgroup doing all of them is much faster than a
//! dispatch each.
//!
//! The shader must stay cheap to compile everywhere, software adapters included: SwiftShader
//! (Chromium) compiles a shader in time that grows much faster than linearly in its workgroup
//! barriers, so a program of a few hundred KB of WGSL in dozens of dependent levels takes
//! minutes, or loses the GPU process (compile times in `bench/RESULTS.md`, "Measurements
//! behind design choices"). So programs over the one-workgroup caps of `backend::caps`
//! (`WEBGPU_WORKGROUP_*`: barriers, kernels, bytes of WGSL, a large kernel or a long
//! reduction, which one workgroup would run serially, element-terms in all), or with loops
//! past the adapter's loop limit (`loop_budget`), run as row-partitioned stages instead
//! (`stages`: a dispatch of many workgroups per stage, e.g. one per `associativeScan`
//! round), or else keep their per-kernel dispatches.

use std::rc::Rc;

use super::compiled::{keep, run_single, CompiledProgram};
use super::layout::{layout_with, Layout};
use super::schedule::{emission, schedule};
use super::strategy::compile_program;
use crate::backend::caps::{
    WEBGPU_WORKGROUP_MAX_BARRIERS, WEBGPU_WORKGROUP_MAX_BARRIERS_CPU, WEBGPU_WORKGROUP_MAX_KERNELS,
    WEBGPU_WORKGROUP_MAX_KERNEL_ELEMENTS, WEBGPU_WORKGROUP_MAX_REDUCTION,
    WEBGPU_WORKGROUP_MAX_SOURCE_BYTES, WEBGPU_WORKGROUP_MAX_TERMS,
};
use crate::backend::webgpu::WebGpuBackend;
use crate::backend::{BufferId, ExeId};
use crate::kernel::device_program::{DeviceProgram, LoopBuffers, LoopStep, SlotRole};
use crate::util::{Error, Result};

/// Whether one workgroup suits every step of `plan` (before laying it out).
fn suits(plan: &DeviceProgram) -> bool {
    let body = &plan.body;
    let mut terms = 0usize;
    for step in &body.steps {
        let LoopStep::Kernel { kernel, .. } = step else {
            return false;
        };
        let reduction = kernel.reduction.map_or(1, |r| r.size.max(1));
        if kernel.size > WEBGPU_WORKGROUP_MAX_KERNEL_ELEMENTS
            || reduction > WEBGPU_WORKGROUP_MAX_REDUCTION
        {
            return false;
        }
        terms += kernel.size * reduction;
    }
    plan.length == 1
        && body.num_ys > 0
        && body.steps.len() <= WEBGPU_WORKGROUP_MAX_KERNELS
        && terms <= WEBGPU_WORKGROUP_MAX_TERMS
}

/// The barriers of `layout`'s one step (between its dependency levels).
pub fn barriers(layout: &Layout) -> usize {
    let ops = &layout.shader.ops;
    let sched = schedule(ops, layout.shader.workgroup_size());
    emission(ops, &sched).iter().map(|(_, b)| b.len()).sum()
}

/// The compiled single dispatch of `plan`, or None.
pub(super) fn compile_single(
    gpu: &mut WebGpuBackend,
    plan: &DeviceProgram,
) -> Result<Option<ExeId>> {
    if !suits(plan) {
        return Ok(None);
    }
    if let Some(id) = gpu.loops.ids.get(plan).copied() {
        if let Some(CompiledProgram::Looping { .. }) = gpu.loops.exes.get(&id).map(|c| &**c) {
            return Ok(Some(id));
        }
    }
    let words = if gpu.loops.workgroup {
        gpu.device.limits().max_compute_workgroup_storage_size / 4
    } else {
        0
    };
    let layout = match layout_with(plan, words, WEBGPU_WORKGROUP_MAX_KERNEL_ELEMENTS) {
        Ok(l) if gpu.loop_fits(l.words as u64) && gpu.loops_fit(|| l.shader.loop_iterations()) => l,
        _ => return Ok(None),
    };
    let cap = if gpu.fast {
        WEBGPU_WORKGROUP_MAX_BARRIERS
    } else {
        WEBGPU_WORKGROUP_MAX_BARRIERS_CPU
    };
    if barriers(&layout) > cap {
        return Ok(None);
    }
    // Emitted once: measured against the cap, then compiled from the same text.
    let source = layout.shader.emit()?;
    if source.len() > WEBGPU_WORKGROUP_MAX_SOURCE_BYTES {
        return Ok(None);
    }
    // Programs of other sizes share the pipeline (`stage_templates`).
    let shared = gpu.loops.templates.share(&[source]).pop();
    let dispatch = match shared {
        Some(shared) => gpu.shared_dispatch(shared, 1)?,
        None => return Ok(None),
    };
    Ok(Some(keep(
        gpu,
        plan,
        Rc::new(CompiledProgram::Looping { layout, dispatch }),
    )))
}

/// `Backend::run_program`: runs the program compiled as `exe` (recompiled from `plan` when the
/// cache dropped it) on its `inputs`, writing its `outputs`.
pub(in crate::backend::webgpu) fn run(
    gpu: &mut WebGpuBackend,
    exe: ExeId,
    plan: &DeviceProgram,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let compiled =
        match gpu.loops.exes.get(&exe).cloned() {
            Some(c)
                if matches!(
                    *c,
                    CompiledProgram::Looping { .. }
                        | CompiledProgram::Staged(_)
                        | CompiledProgram::Mixed(_)
                ) =>
            {
                c
            }
            _ => {
                let id = compile_program(gpu, plan)?.ok_or_else(|| {
                    Error::new("jit", "internal error: a whole program no longer compiles")
                })?;
                gpu.loops.exes.get(&id).cloned().ok_or_else(|| {
                    Error::new("jit", "internal error: a compiled program is missing")
                })?
            }
        };
    let body = &plan.body;
    if inputs.len() != body.num_consts || outputs.len() != body.num_ys {
        return Err(Error::new(
            "jit",
            "internal error: a whole program's buffers do not match it",
        ));
    }
    if let CompiledProgram::Mixed(mixed) = &*compiled {
        return super::mixed::run(gpu, mixed, inputs, outputs);
    }
    // Temps live in the packed buffer: their entries are never read (any id will do).
    let any = outputs[0];
    let slots: Vec<BufferId> = body
        .slots
        .iter()
        .map(|s| match s.role {
            SlotRole::Const(j) => inputs[j],
            SlotRole::YRow(j) => outputs[j],
            _ => any,
        })
        .collect();
    let (layout, dispatch) = match &*compiled {
        CompiledProgram::Looping { layout, dispatch } => (layout, dispatch),
        CompiledProgram::Staged(staged) => return super::stages::run(gpu, staged, &slots),
        _ => return Err(Error::new("jit", "internal error: not a whole program")),
    };
    run_single(
        gpu,
        layout,
        dispatch,
        LoopBuffers {
            slots: &slots,
            init: &[],
            finals: &[],
        },
    )
}
