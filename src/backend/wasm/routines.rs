//! Routines on the wasm device: each routine shape is emitted once (`emit::routines`) and
//! instantiated against the data memory; a dispatch passes the batch size and the byte
//! addresses of the outputs, then the inputs. A batch of enough work (`strategy.rs`) is split
//! across worker threads (`threads.rs`) as chunks of whole problems. Host routines (`host.rs`)
//! have no module: a dispatch runs them here on the buffers, on the calling thread (they are
//! compiled Rust of the main module, whose memory workers cannot share).

use super::module::KernelModule;
use super::{emit, host, strategy, threads, WasmBackend};
use crate::backend::routines::check_arity;
use crate::backend::{BufferId, ExeId};
use crate::kernel::Routine;
use crate::util::{Error, Result};

pub(super) fn compile(backend: &mut WasmBackend, routine: &Routine) -> Result<ExeId> {
    backend.routines.get_or_compile(routine, |r| {
        if host::import_name(r.kind).is_some() {
            return Ok(None);
        }
        let bytes = emit::routines::emit_routine(r)?;
        let mut module = KernelModule::new(&bytes, r.batch)?;
        if strategy::routine_splits(r) {
            let strides = emit::routines::batch_strides(r);
            module = module.splitting(1, threads::routine_work(r), strides, &bytes);
        }
        Ok(Some(module))
    })
}

pub(super) fn dispatch(
    backend: &mut WasmBackend,
    exe: ExeId,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let (routine, module) = backend.routines.get(exe)?;
    let routine = *routine;
    check_arity(&routine, inputs.len(), outputs.len())?;
    if module.is_none() {
        return run_host(backend, &routine, inputs, outputs);
    }
    let mut addresses = Vec::with_capacity(inputs.len() + outputs.len());
    for &id in outputs.iter().chain(inputs) {
        addresses.push(backend.buffer(id)?.address());
    }
    if let (_, Some(module)) = backend.routines.get(exe)? {
        if threads::run_split(module, &addresses)? {
            backend.split_dispatches += 1;
        } else {
            module.call(&addresses)?;
        }
    }
    backend.dispatches += 1;
    Ok(())
}

/// Runs a host routine on its buffers, after checking their sizes.
fn run_host(
    backend: &mut WasmBackend,
    routine: &Routine,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let sized = |id: BufferId, (dtype, count): (crate::core::DType, usize)| -> Result<u32> {
        let b = backend.buffer(id)?;
        if b.len() < dtype.byte_size() * count {
            return Err(Error::new(
                routine.name(),
                "internal error: a buffer smaller than the routine's operand",
            ));
        }
        Ok(b.address())
    };
    let mut outs = Vec::with_capacity(outputs.len());
    for (&id, shape) in outputs.iter().zip(routine.outputs()) {
        outs.push(sized(id, shape)?);
    }
    let mut ins = Vec::with_capacity(inputs.len());
    for (&id, shape) in inputs.iter().zip(routine.inputs()) {
        ins.push(sized(id, shape)?);
    }
    if outs.iter().any(|o| ins.contains(o)) {
        return Err(Error::new(
            routine.name(),
            "internal error: an output is also an input",
        ));
    }
    host::run_on_data(routine, &outs, &ins);
    backend.dispatches += 1;
    Ok(())
}
