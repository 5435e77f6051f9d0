//! Routines on the webgpu device: a compute pipeline per routine shape (`wgsl_routines`),
//! dispatched with one invocation per matrix of the batch. Everything stays on the GPU.

use super::exe::grid;
use super::wgsl::WORKGROUP_SIZE;
use super::{wgsl_routines, WebGpuBackend, MAX_BATCH};
use crate::backend::routines::check_arity;
use crate::backend::{BufferId, ExeId};
use crate::kernel::Routine;
use crate::util::{Error, Result};

pub(super) fn compile(backend: &mut WebGpuBackend, routine: &Routine) -> Result<ExeId> {
    let bindings = (routine.inputs().len() + routine.outputs().len()) as u32;
    if bindings > backend.max_storage_buffers {
        return Err(Error::new(
            routine.name(),
            format!(
                "needs {bindings} storage buffers, the device allows {}",
                backend.max_storage_buffers
            ),
        ));
    }
    let device = backend.device.clone();
    let compiles = backend.shader_compiles.clone();
    backend.routines.get_or_compile(routine, |r| {
        let source = wgsl_routines::emit_routine(r)?;
        Ok(super::exe::compile_shader(&device, &compiles, source, None))
    })
}

pub(super) fn dispatch(
    backend: &mut WebGpuBackend,
    exe: ExeId,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let (routine, pipeline) = backend.routines.get(exe)?;
    check_arity(routine, inputs.len(), outputs.len())?;
    let groups = (routine.batch as u32).div_ceil(WORKGROUP_SIZE).max(1);
    let pipeline = pipeline.clone();
    // Into the batch, ordered after the kernels that wrote the inputs.
    backend.encode_bound(&pipeline, None, grid(groups), inputs, outputs)?;
    backend.dispatches += 1;
    if backend.pending >= MAX_BATCH {
        backend.flush();
    }
    Ok(())
}
