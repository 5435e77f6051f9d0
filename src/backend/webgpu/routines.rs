//! Routines on the webgpu device: a compute pipeline per routine shape (`wgsl_routines`),
//! dispatched with one invocation per matrix of the batch, or one workgroup per matrix for
//! larger factorizations and solves (`wgsl_routines_group`); the sort and the FFT are multi-pass
//! routines (`sort.rs`, `fft.rs` over `passes.rs`). Everything stays on the GPU.

use super::exe::grid;
use super::passes::Passes;
use super::wgsl::WORKGROUP_SIZE;
use super::{fft, sort, wgsl_routines, wgsl_routines_group, WebGpuBackend, MAX_BATCH};
use crate::backend::routines::check_arity;
use crate::backend::{BufferId, ExeId};
use crate::kernel::{Routine, RoutineKind};
use crate::util::{Error, Result};

/// What compiling a routine needs of the device.
pub(super) struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    /// The device's count of compiled pipelines (`BackendStats::shader_compiles`).
    pub compiles: std::rc::Rc<std::cell::Cell<u64>>,
}

/// A compiled routine.
pub(super) enum Compiled {
    /// One shader: an invocation, or a workgroup, per problem of the batch.
    Single(wgpu::ComputePipeline),
    Passes(Passes),
}

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
    let loops = || match wgsl_routines_group::group_size(routine) {
        Some(w) => {
            super::loop_budget::group_routine_loops(routine, w as usize).unwrap_or(usize::MAX)
        }
        None => super::loop_budget::routine_loops(routine),
    };
    if !backend.loops_fit(loops) {
        return Err(Error::new(
            routine.name(),
            format!(
                "a {}×{} problem runs {} shader loop iterations, past this adapter's limit \
                 of {} per invocation (Mesa llvmpipe); use the \"cpu\" or \"wasm\" device",
                routine.m,
                routine.n,
                loops(),
                backend.loop_limit.unwrap_or(usize::MAX)
            ),
        ));
    }
    let gpu = Gpu {
        device: backend.device.clone(),
        queue: backend.queue.clone(),
        compiles: backend.shader_compiles.clone(),
    };
    backend.routines.get_or_compile(routine, |r| {
        match r.kind {
            RoutineKind::Sort => return Ok(Compiled::Passes(sort::compile(&gpu, r)?)),
            RoutineKind::Fft { .. } => return Ok(Compiled::Passes(fft::compile(&gpu, r)?)),
            _ => {}
        }
        let source = wgsl_routines::emit_routine(r)?;
        Ok(Compiled::Single(super::exe::compile_shader(
            &gpu.device,
            &gpu.compiles,
            source,
            None,
        )))
    })
}

pub(super) fn dispatch(
    backend: &mut WebGpuBackend,
    exe: ExeId,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let (routine, compiled) = backend.routines.get(exe)?;
    check_arity(routine, inputs.len(), outputs.len())?;
    let groups = match wgsl_routines_group::group_size(routine) {
        Some(_) => {
            let blocks = wgsl_routines_group::groups_per_matrix(routine);
            ((routine.batch * blocks) as u32).max(1)
        }
        None => (routine.batch as u32).div_ceil(WORKGROUP_SIZE).max(1),
    };
    let pipeline = match compiled {
        Compiled::Single(p) => p.clone(),
        Compiled::Passes(_) => return dispatch_passes(backend, exe, inputs, outputs),
    };
    // Into the batch, ordered after the kernels that wrote the inputs.
    backend.encode_bound(&pipeline, None, grid(groups), inputs, outputs)?;
    backend.dispatches += 1;
    if backend.pending >= MAX_BATCH {
        backend.flush();
    }
    Ok(())
}

fn dispatch_passes(
    backend: &mut WebGpuBackend,
    exe: ExeId,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let buffers: Vec<BufferId> = inputs.iter().chain(outputs).copied().collect();
    // The compiled passes leave the cache only while they are encoded.
    let mut cache = std::mem::take(&mut backend.routines);
    let result = match cache.get(exe) {
        Ok((_, Compiled::Passes(p))) => p.encode(backend, &buffers),
        Ok(_) => Err(Error::new(
            "webgpu",
            "internal error: not a multi-pass routine",
        )),
        Err(e) => Err(e),
    };
    backend.routines = cache;
    result?;
    backend.dispatches += 1;
    Ok(())
}
