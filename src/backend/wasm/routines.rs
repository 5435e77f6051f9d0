//! Routines on the wasm device: each routine shape is emitted once (`emit::routines`) and
//! instantiated against this module's memory; a dispatch passes the batch size and the byte
//! addresses of the outputs, then the inputs.

use super::module::KernelModule;
use super::{emit, WasmBackend};
use crate::backend::routines::check_arity;
use crate::backend::{BufferId, ExeId};
use crate::kernel::Routine;
use crate::util::Result;

pub(super) fn compile(backend: &mut WasmBackend, routine: &Routine) -> Result<ExeId> {
    backend.routines.get_or_compile(routine, |r| {
        KernelModule::new(&emit::routines::emit_routine(r)?, r.batch)
    })
}

pub(super) fn dispatch(
    backend: &mut WasmBackend,
    exe: ExeId,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let mut addresses = Vec::with_capacity(inputs.len() + outputs.len());
    for &id in outputs.iter().chain(inputs) {
        addresses.push(backend.buffer(id)?.address());
    }
    let (routine, module) = backend.routines.get(exe)?;
    check_arity(routine, inputs.len(), outputs.len())?;
    module.call(&addresses)?;
    backend.dispatches += 1;
    Ok(())
}
