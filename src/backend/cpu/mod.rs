//! The `cpu` device: a reference interpreter of the Kernel IR. It favours clarity over speed;
//! it is the oracle the wasm and webgpu backends are tested against.

mod interpret;
mod routines;
mod scalar;
mod sort;
mod special;
mod threefry;

pub use interpret::run_kernel;
pub use routines::run_routine;
pub use scalar::Scalar;
pub use threefry::threefry2x32;

use std::collections::HashMap;

use super::routines::RoutineCache;
use super::{ready, Backend, BackendStats, BufferId, ExeId, ReadFuture};
use crate::core::Device;
use crate::kernel::{verify, Kernel, Routine};
use crate::util::lru::Lru;
use crate::util::{Error, Result};

const KERNEL_CACHE_CAPACITY: usize = 256;

pub struct CpuBackend {
    buffers: HashMap<BufferId, Vec<u8>>,
    next_buffer: BufferId,
    kernels: Lru<ExeId, Kernel>,
    kernel_ids: Lru<Kernel, ExeId>,
    next_exe: ExeId,
    dispatches: u64,
    routines: RoutineCache<()>,
}

impl CpuBackend {
    pub fn new() -> Self {
        CpuBackend {
            buffers: HashMap::new(),
            next_buffer: 1,
            kernels: Lru::new(KERNEL_CACHE_CAPACITY),
            kernel_ids: Lru::new(KERNEL_CACHE_CAPACITY),
            next_exe: 1,
            dispatches: 0,
            routines: RoutineCache::default(),
        }
    }

    fn buffer(&self, id: BufferId) -> Result<&Vec<u8>> {
        self.buffers
            .get(&id)
            .ok_or_else(|| Error::new("cpu", format!("internal error: unknown buffer {id}")))
    }
}

impl Default for CpuBackend {
    fn default() -> Self {
        Self::new()
    }
}

impl Backend for CpuBackend {
    fn device(&self) -> Device {
        Device::Cpu
    }

    fn max_buffer_bytes(&self) -> u64 {
        super::wasm::MAX_BUFFER_BYTES
    }

    fn alloc(&mut self, bytes: usize) -> Result<BufferId> {
        let id = self.next_buffer;
        self.next_buffer += 1;
        let mut buffer = Vec::new();
        buffer
            .try_reserve_exact(bytes)
            .map_err(|_| Error::new("cpu", "the allocator refused"))?;
        buffer.resize(bytes, 0);
        self.buffers.insert(id, buffer);
        Ok(id)
    }

    fn write(&mut self, buffer: BufferId, data: &[u8]) -> Result<()> {
        let target = self
            .buffers
            .get_mut(&buffer)
            .ok_or_else(|| Error::new("cpu", format!("internal error: unknown buffer {buffer}")))?;
        target[..data.len()].copy_from_slice(data);
        Ok(())
    }

    fn free(&mut self, buffer: BufferId) {
        self.buffers.remove(&buffer);
    }

    fn read_sync(&mut self, buffer: BufferId) -> Result<Vec<u8>> {
        self.buffer(buffer).cloned()
    }

    fn read(&mut self, buffer: BufferId) -> Result<ReadFuture> {
        Ok(ready(self.read_sync(buffer)))
    }

    fn compile(&mut self, kernel: &Kernel) -> Result<ExeId> {
        // An id is only handed out while its compiled form is still cached (the two caches'
        // recency differs once callers dispatch kept ids without compiling).
        if let Some(&id) = self.kernel_ids.get(kernel) {
            if self.kernels.contains_key(&id) {
                return Ok(id);
            }
        }
        verify::verify(kernel)?;
        let id = self.next_exe;
        self.next_exe += 1;
        self.kernel_ids.insert(kernel.clone(), id);
        self.kernels.insert(id, kernel.clone());
        Ok(id)
    }

    fn exe_generation(&self) -> u64 {
        self.kernels.generation()
    }

    fn reserve_exes(&mut self, kernels: usize, routines: usize) {
        let kernels = (kernels + KERNEL_CACHE_CAPACITY).min(super::MAX_RESERVED_EXES);
        self.kernels.reserve(kernels);
        self.kernel_ids.reserve(kernels);
        self.routines
            .reserve((routines + 64).min(super::MAX_RESERVED_EXES));
    }

    fn dispatch(&mut self, exe: ExeId, inputs: &[BufferId], output: BufferId) -> Result<()> {
        let kernel =
            self.kernels.get(&exe).cloned().ok_or_else(|| {
                Error::new("cpu", format!("internal error: unknown kernel {exe}"))
            })?;
        let ins = inputs
            .iter()
            .map(|&id| self.buffer(id).map(|b| b.as_slice()));
        let ins: Vec<&[u8]> = ins.collect::<Result<_>>()?;
        let out = run_kernel(&kernel, &ins)?;
        self.dispatches += 1;
        self.write(output, &out)
    }

    fn compile_routine(&mut self, routine: &Routine) -> Result<ExeId> {
        self.routines.get_or_compile(routine, |_| Ok(()))
    }

    fn dispatch_routine(
        &mut self,
        exe: ExeId,
        inputs: &[BufferId],
        outputs: &[BufferId],
    ) -> Result<()> {
        routines::dispatch(self, exe, inputs, outputs)
    }

    fn clear_caches(&mut self) {
        self.kernels.clear();
        self.kernel_ids.clear();
        self.routines.clear();
    }

    fn stats(&self) -> BackendStats {
        BackendStats {
            live_buffers: self.buffers.len(),
            live_bytes: self.buffers.values().map(Vec::len).sum(),
            kernel_cache: self.kernel_ids.stats(),
            dispatches: self.dispatches,
            ..Default::default()
        }
    }
}
