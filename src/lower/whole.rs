//! A whole jitted [`Program`] as a one-step loop body (`kernel/device_program.rs`): the Program's
//! inputs are the loop's consts, its outputs the y rows of its single step, every other slot a
//! temp. A device that runs such a body as ONE call (`Backend::compile_program`; wasm: one
//! loop module; webgpu: the looping shader, one workgroup with barriers between dependent
//! kernels) saves a call per kernel; for programs of many small kernels (an `associativeScan`
//! under `jit`: ~10 per round) the calls are most of the time. The executor keeps the loop and
//! each device's answer beside the Program (`transform::runnable`).

use std::rc::Rc;

use super::program::{Program, Step};
use super::scan_plan::{loop_steps, own_outputs};
use crate::backend::caps::{WHOLE_MAX_STEPS, WHOLE_MIN_STEPS};
use crate::core::Primitive;
use crate::kernel::device_program::{DeviceProgram, LoopBody, SlotInfo, SlotRole};
use crate::kernel::DeviceLimits;

/// The one-step loop of `program`, or None when it has a scan, a step that is neither a kernel
/// nor a routine on slots (`scan_plan::loop_steps`), or fewer than [`WHOLE_MIN_STEPS`] or more
/// than [`WHOLE_MAX_STEPS`] steps.
pub fn one_step_loop(program: &Program) -> Option<DeviceProgram> {
    if !(WHOLE_MIN_STEPS..=WHOLE_MAX_STEPS).contains(&program.steps.len()) {
        return None;
    }
    // A scan keeps its own path (reported to `setScanPathCallback`, checked against its
    // `acceptPath`), so a program with one runs step by step.
    let scans = program.steps.iter().any(|s| {
        matches!(
            s,
            Step::Fallback {
                primitive: Primitive::Scan(_),
                ..
            }
        )
    });
    if scans {
        return None;
    }
    let mut slots: Vec<SlotInfo> = program
        .avals
        .iter()
        .enumerate()
        .map(|(s, aval)| SlotInfo {
            role: if s < program.inputs {
                SlotRole::Const(s)
            } else {
                SlotRole::Temp
            },
            dtype: aval.dtype,
            elements: aval.size(),
        })
        .collect();
    let mut steps = loop_steps(
        program,
        &mut slots,
        DeviceLimits::UNBOUNDED,
        &mut super::lower,
    )
    .ok()?;
    let out_avals: Vec<_> = program
        .outputs
        .iter()
        .map(|a| match a {
            super::Arg::Slot(s) => program.avals[*s].clone(),
            super::Arg::Literal(_, aval) => aval.clone(),
        })
        .collect();
    let lead = |a: &crate::core::Aval| a.shape.first().copied().unwrap_or(1).max(1);
    own_outputs(
        program.inputs,
        &mut slots,
        &mut steps,
        &program.outputs,
        &out_avals,
        SlotRole::YRow,
    );
    // Slots own_outputs added are output copies (role YRow(j)).
    let rows = slots
        .iter()
        .enumerate()
        .map(|(s, info)| match info.role {
            SlotRole::YRow(j) => lead(&out_avals[j]),
            _ => program.avals.get(s).map_or(1, lead),
        })
        .collect();
    Some(DeviceProgram {
        body: Rc::new(LoopBody {
            slots,
            steps,
            num_consts: program.inputs,
            num_carry: 0,
            num_xs: 0,
            num_ys: program.outputs.len(),
            rows,
        }),
        length: 1,
        reverse: false,
    })
}
