//! The one place that chooses how a device program runs on webgpu, in order of preference.
//! Every cap these choices read is in `backend::caps`.
//!
//! A compiled scan (`Backend::compile_loop`): first the plan is rewritten where the looping
//! shaders need it (a float16 body runs widened to float32, `widen_half`), then the first
//! form that takes it: the serial shader (`serial`: tiny float32 bodies), the looping shader
//! (`looping`: one workgroup, when the body's kernels and state fit it and, on an adapter
//! with a loop limit, its loops fit that), else every step pre-encoded into one pass
//! (`encoded`). The form is chosen per length (the caps count steps); the serial and looping
//! shaders read the length from parameters (`length_params`), so lengths share pipelines.
//!
//! A whole jitted program (`Backend::compile_program`, a one-step loop): the looping shader
//! in one workgroup (`whole`, within the `WEBGPU_WORKGROUP_*` caps), else row-partitioned
//! stages (`stages`, within the `WEBGPU_STAGE_*` caps), else runs of stages and ordinary
//! dispatches (`mixed`: the steps over a cap, or not 32-bit, dispatched on their own, the rest
//! staged; float16 programs go straight there, widened), else None: it runs kernel by kernel.

use std::rc::Rc;

use super::compiled::{self, keep, CompiledProgram};
use super::layout::layout_bound;
use super::length_params;
use super::widen_half;
use crate::backend::webgpu::WebGpuBackend;
use crate::backend::{BufferId, ExeId};
use crate::core::DType;
use crate::kernel::device_program::{DeviceProgram, LoopBody, LoopBuffers};
use crate::util::Result;

/// `Backend::compile_loop`: the compiled loop of `plan` (of its rewrite, where it has one)
/// and its path detail.
pub(in crate::backend::webgpu) fn compile_loop(
    gpu: &mut WebGpuBackend,
    plan: &DeviceProgram,
) -> Result<(ExeId, String)> {
    match widened(gpu, plan)? {
        None => compiled::compile(gpu, plan),
        Some(wide) => {
            let (id, detail) = compiled::compile(gpu, &wide)?;
            Ok((
                id,
                format!("{detail}; float16 operands widened to float32 around it"),
            ))
        }
    }
}

/// `Backend::run_loop`: runs the loop compiled as `exe` for `plan`.
pub(in crate::backend::webgpu) fn run_loop(
    gpu: &mut WebGpuBackend,
    exe: ExeId,
    plan: &DeviceProgram,
    buffers: LoopBuffers<'_, BufferId>,
) -> Result<()> {
    match widened(gpu, plan)? {
        None => compiled::run(gpu, exe, plan, buffers),
        Some(wide) => widen_half::run_widened(gpu, exe, plan, &wide, buffers),
    }
}

/// The rewrite of `plan` for the looping shaders (`widen_half::widened`), made once per body:
/// the body rewritten last is kept with its rewrite.
fn widened(gpu: &mut WebGpuBackend, plan: &DeviceProgram) -> Result<Option<DeviceProgram>> {
    let with = |body: &Rc<LoopBody>| DeviceProgram {
        body: body.clone(),
        ..plan.clone()
    };
    if let Some((body, wide)) = &gpu.loops.widened {
        if Rc::ptr_eq(body, &plan.body) {
            return Ok(Some(with(wide)));
        }
    }
    let wide = widen_half::widened(gpu, plan)?;
    if let Some(w) = &wide {
        gpu.loops.widened = Some((plan.body.clone(), w.body.clone()));
    }
    Ok(wide)
}

/// The form of a scan's loop (serial, looping or pre-encoded), compiled and kept.
pub(super) fn choose_loop(
    gpu: &mut WebGpuBackend,
    plan: &DeviceProgram,
) -> Result<(ExeId, Rc<CompiledProgram>)> {
    let workgroup_words = if gpu.loops.workgroup {
        gpu.device.limits().max_compute_workgroup_storage_size / 4
    } else {
        0
    };
    let serial = super::serial::build(gpu, plan)?;
    let bindable = gpu.bindable();
    let exe = Rc::new(
        match (serial, layout_bound(plan, workgroup_words, bindable)) {
            (Some((layout, dispatch, lanes)), _) => CompiledProgram::Serial {
                layout,
                dispatch,
                lanes,
            },
            (_, Ok(laid))
                if gpu.loop_fits(laid.words as u64)
                    && gpu.loops_fit(|| laid.shader.loop_iterations()) =>
            {
                // The length a parameter (`length_params`): the probe laid out alike.
                let probe = layout_bound(&length_params::probe(plan), workgroup_words, bindable)
                    .ok()
                    .map(|l| l.shader.emit())
                    .transpose()?;
                let source = length_params::by_length(laid.shader.emit()?, probe.as_deref());
                let dispatch = gpu.shared_dispatch(source, 1)?;
                CompiledProgram::Looping {
                    layout: laid,
                    dispatch,
                }
            }
            _ => CompiledProgram::Encoded(gpu.build_encoded(plan)?),
        },
    );
    Ok((keep(gpu, plan, exe.clone()), exe))
}

/// `Backend::compile_program`: the compiled single dispatch of `plan`, else its staged
/// dispatches, else its mixed parts, or None. A float16 program goes to the mixed path, which
/// widens it (the packed forms hold 32-bit words).
pub(in crate::backend::webgpu) fn compile_program(
    gpu: &mut WebGpuBackend,
    plan: &DeviceProgram,
) -> Result<Option<ExeId>> {
    if plan.body.slots.iter().any(|s| s.dtype == DType::Float16) {
        return super::mixed::compile(gpu, plan);
    }
    if let Some(id) = super::whole::compile_single(gpu, plan)? {
        return Ok(Some(id));
    }
    match super::stages::compile(gpu, plan)? {
        Some(id) => Ok(Some(id)),
        None => super::mixed::compile(gpu, plan),
    }
}
