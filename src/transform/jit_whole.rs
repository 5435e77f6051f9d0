//! A jitted Program run as ONE call of the device (`Backend::compile_program`/`run_program`)
//! where the device offers it: the Program as a one-step loop body (`lower::whole`), compiled
//! once per device (the loop and the id are kept beside the Program, `runnable`). Otherwise, and whenever an input lives
//! on another device, [`try_run`] says no and `jit::execute` runs the Program kernel by
//! kernel.

use super::runnable::Runnable;
use super::value::ArrayValue;
use crate::backend::{registry, BufferId};
use crate::core::view::ShapeTracker;
use crate::core::Device;
use crate::lower::Arg;
use crate::util::Result;

const NAME: &str = "jit";

/// Runs the Program of `runnable` on its `inputs` (placed on `device`) as one call of
/// `device`'s backend: its outputs, or None where that path does not apply.
pub fn try_run(
    runnable: &Runnable,
    inputs: &[ArrayValue],
    device: Device,
) -> Result<Option<Vec<ArrayValue>>> {
    let program = &runnable.program;
    let Some(plan) = runnable.whole.plan(program) else {
        return Ok(None);
    };
    if inputs.iter().any(|v| v.device != device) {
        return Ok(None);
    }
    let exe = match runnable.whole.get(device) {
        Some(exe) => exe,
        None => {
            // A device that cannot compile it (an unsupported dtype, too large) runs it step
            // by step, where any error is reported as usual.
            let dtypes_ok = plan
                .body
                .slots
                .iter()
                .all(|s| registry::check_dtype(NAME, device, s.dtype).is_ok());
            let exe = if dtypes_ok {
                registry::with_backend(NAME, device, |b| Ok(b.compile_program(&plan)))?
                    .ok()
                    .flatten()
            } else {
                None
            };
            runnable.whole.set(device, exe);
            exe
        }
    };
    let Some(exe) = exe else {
        return Ok(None);
    };
    // Inputs read through views (a broadcast, a slice) are copied dense first: one copy
    // kernel each, where the step-by-step path would fuse the view into its kernels.
    let dense = inputs
        .iter()
        .map(|v| v.materialize(NAME))
        .collect::<Result<Vec<_>>>()?;
    let avals: Vec<_> = program
        .outputs
        .iter()
        .map(|a| match a {
            Arg::Slot(s) => program.avals[*s].clone(),
            Arg::Literal(_, aval) => aval.clone(),
        })
        .collect();
    let buffers = avals
        .iter()
        .map(|a| registry::alloc(NAME, device, a.byte_size()))
        .collect::<Result<Vec<_>>>()?;
    let ins: Vec<BufferId> = dense.iter().map(|v| v.buffer.id).collect();
    let outs: Vec<BufferId> = buffers.iter().map(|b| b.id).collect();
    registry::with_backend(NAME, device, |b| b.run_program(exe, &plan, &ins, &outs))?;
    let committed = inputs.iter().any(|v| v.committed);
    Ok(Some(
        buffers
            .into_iter()
            .zip(avals)
            .map(|(buffer, aval)| ArrayValue {
                view: ShapeTracker::contiguous(&aval.shape),
                aval,
                device,
                buffer,
                committed,
            })
            .collect(),
    ))
}
