//! The `wasm` device: kernels emitted as WebAssembly modules (see `emit`) and instantiated
//! against the data memory (`data.rs`), a separate memory that holds every buffer, so a kernel
//! reads and writes buffers in place; this module keeps the allocator's bookkeeping
//! (`memory.rs`) and copies bytes in and out only for uploads, reads and host routines.
//! Natively (for `cargo test`) kernels are emitted and validated but cannot run; the data
//! memory is a byte vector and host routines (`host.rs`, compiled Rust) run everywhere.

mod code_stats;
pub mod data;
pub mod emit;
pub mod host;
mod host_sort;
mod loops;
mod memory;
mod module;
mod program;
mod routines;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod sizeless_tests;
mod strategy;
pub mod threads;

use std::collections::HashMap;

use super::routines::RoutineCache;
use super::{ready, Backend, BackendStats, BufferId, ExeId, LoopStats, ReadFuture};
use crate::core::Device;
use crate::kernel::device_program::{DeviceProgram, LoopBuffers};
use crate::kernel::{Kernel, Routine};
use crate::util::lru::Lru;
use crate::util::{Error, Result};
use memory::{HostBuffer, Pool};
use module::KernelModule;

const KERNEL_CACHE_CAPACITY: usize = 512;

/// The most bytes of one buffer on the `wasm` (and `cpu`) device: 2 GiB less 16 bytes, the
/// largest allocation Rust makes on wasm32 (`isize::MAX`, 16-byte aligned), and about half of
/// the 4 GiB a wasm32 memory can grow to.
pub const MAX_BUFFER_BYTES: u64 = (1 << 31) - 16;

/// The most bytes the linear memory of a wasm32 module can grow to (65536 pages of 64 KiB).
pub const MEMORY_LIMIT_BYTES: u64 = 1 << 32;

pub struct WasmBackend {
    buffers: HashMap<BufferId, HostBuffer>,
    pool: Pool,
    next_buffer: BufferId,
    kernel_ids: Lru<Kernel, ExeId>,
    modules: Lru<ExeId, KernelModule>,
    /// The modules of kernels whose code is the same at every size (`emit::size_free`), by
    /// the kernel with size 0: a kernel that differs from one compiled before only in its size
    /// runs that module, with no emission, compilation or instantiation.
    sizeless: Lru<Kernel, KernelModule>,
    /// Kernels compiled by running a module of [`WasmBackend::sizeless`].
    size_reuses: u64,
    next_exe: ExeId,
    dispatches: u64,
    /// Dispatches split across worker threads.
    split_dispatches: u64,
    /// Bytes of the kernel modules emitted, and the most locals of one kernel function, since
    /// the last `clear_caches` ([`code_stats`]).
    code_bytes: u64,
    max_locals: usize,
    /// Emitted routines' modules; None for host routines (`host.rs`).
    routines: RoutineCache<Option<KernelModule>>,
    loops: loops::LoopCache,
    programs: program::ProgramCache,
}

impl WasmBackend {
    pub fn new() -> Self {
        WasmBackend {
            buffers: HashMap::new(),
            pool: Pool::default(),
            next_buffer: 1,
            kernel_ids: Lru::new(KERNEL_CACHE_CAPACITY),
            modules: Lru::new(KERNEL_CACHE_CAPACITY),
            sizeless: Lru::new(KERNEL_CACHE_CAPACITY),
            size_reuses: 0,
            next_exe: 1,
            dispatches: 0,
            split_dispatches: 0,
            code_bytes: 0,
            max_locals: 0,
            routines: RoutineCache::default(),
            loops: loops::LoopCache::default(),
            programs: program::ProgramCache::default(),
        }
    }

    /// Kernels compiled by reusing the module of a kernel that differs only in its size.
    pub fn size_reuses(&self) -> u64 {
        self.size_reuses
    }

    /// `kernel`'s module, emitted and instantiated, or (a kernel whose code does not depend on
    /// its size, not split across threads) the module of one that differed only in its size.
    fn kernel_module(&mut self, kernel: &Kernel) -> Result<KernelModule> {
        let out_bytes = kernel.size * kernel.output_dtype().byte_size();
        let work = threads::work(kernel);
        let splits = strategy::kernel_splits(work);
        let sizeless = emit::size_free(kernel).then(|| Kernel {
            size: 0,
            ..kernel.clone()
        });
        if let Some(key) = sizeless.as_ref().filter(|_| !splits) {
            if let Some(base) = self.sizeless.get(key) {
                self.size_reuses += 1;
                return Ok(base.resized(kernel.size).writing(out_bytes));
            }
        }
        let bytes = emit::emit_kernel(kernel)?;
        self.code_bytes += bytes.len() as u64;
        self.max_locals = self.max_locals.max(code_stats::max_locals(&bytes));
        let mut module = KernelModule::new(&bytes, kernel.size)?.writing(out_bytes);
        if let Some(key) = sizeless {
            self.sizeless.insert(key, module.resized(0));
        }
        if splits {
            module = module.splitting(emit::split_align(kernel), work, Vec::new(), &bytes);
        }
        Ok(module)
    }

    /// Dispatches (kernels and routines) split across worker threads so far.
    pub fn split_dispatches(&self) -> u64 {
        self.split_dispatches
    }

    fn buffer(&self, id: BufferId) -> Result<&HostBuffer> {
        self.buffers
            .get(&id)
            .ok_or_else(|| Error::new("wasm", format!("internal error: unknown buffer {id}")))
    }

    /// `table` (the buffer addresses a loop or program module reads) in a new buffer of the
    /// data memory; the caller frees it after the call.
    fn upload_table(&mut self, table: &[u32]) -> Result<BufferId> {
        let bytes: Vec<u8> = table.iter().flat_map(|w| w.to_le_bytes()).collect();
        let id = self.alloc(bytes.len().max(4))?;
        self.write(id, &bytes)?;
        Ok(id)
    }
}

impl Default for WasmBackend {
    fn default() -> Self {
        Self::new()
    }
}

impl Backend for WasmBackend {
    fn device(&self) -> Device {
        Device::Wasm
    }

    fn max_buffer_bytes(&self) -> u64 {
        MAX_BUFFER_BYTES
    }

    fn alloc(&mut self, bytes: usize) -> Result<BufferId> {
        let id = self.next_buffer;
        self.next_buffer += 1;
        self.buffers.insert(id, self.pool.take(bytes)?);
        Ok(id)
    }

    fn write(&mut self, buffer: BufferId, data: &[u8]) -> Result<()> {
        let target = self.buffers.get(&buffer).ok_or_else(|| {
            Error::new("wasm", format!("internal error: unknown buffer {buffer}"))
        })?;
        if data.len() > target.len() {
            return Err(Error::new(
                "wasm",
                format!(
                    "internal error: {} bytes written into a buffer of {}",
                    data.len(),
                    target.len()
                ),
            ));
        }
        data::write(target.address(), data);
        Ok(())
    }

    fn free(&mut self, buffer: BufferId) {
        if let Some(b) = self.buffers.remove(&buffer) {
            self.pool.give(b);
        }
    }

    fn read_sync(&mut self, buffer: BufferId) -> Result<Vec<u8>> {
        let b = self.buffer(buffer)?;
        Ok(data::read(b.address(), b.len()))
    }

    #[cfg(target_arch = "wasm32")]
    fn write_js(&mut self, buffer: BufferId, data: &js_sys::Uint8Array) -> Result<()> {
        let target = self.buffer(buffer)?;
        if data.length() as usize > target.len() {
            return Err(Error::new(
                "wasm",
                format!(
                    "internal error: {} bytes written into a buffer of {}",
                    data.length(),
                    target.len()
                ),
            ));
        }
        data::write_js(target.address(), data);
        Ok(())
    }

    #[cfg(target_arch = "wasm32")]
    fn read_sync_host(&mut self, buffer: BufferId) -> Result<super::HostBytes> {
        let b = self.buffer(buffer)?;
        Ok(super::HostBytes::Js(
            data::read_js(b.address(), b.len()).buffer(),
        ))
    }

    fn read(&mut self, buffer: BufferId) -> Result<ReadFuture> {
        Ok(ready(self.read_sync(buffer)))
    }

    fn data_address(&self, buffer: BufferId) -> Option<u32> {
        self.buffers.get(&buffer).map(|b| b.address())
    }

    fn compile(&mut self, kernel: &Kernel) -> Result<ExeId> {
        // An id is only handed out while its compiled form is still cached (the two caches'
        // recency differs once callers dispatch kept ids without compiling).
        if let Some(&id) = self.kernel_ids.get(kernel) {
            if self.modules.contains_key(&id) {
                return Ok(id);
            }
        }
        let module = self.kernel_module(kernel)?;
        let id = self.next_exe;
        self.next_exe += 1;
        self.kernel_ids.insert(kernel.clone(), id);
        self.modules.insert(id, module);
        Ok(id)
    }

    fn exe_generation(&self) -> u64 {
        self.modules.generation()
    }

    fn reserve_exes(&mut self, kernels: usize, routines: usize) {
        let kernels = (kernels + KERNEL_CACHE_CAPACITY).min(super::MAX_RESERVED_EXES);
        self.kernel_ids.reserve(kernels);
        self.modules.reserve(kernels);
        self.sizeless.reserve(kernels);
        self.routines
            .reserve((routines + 64).min(super::MAX_RESERVED_EXES));
    }

    fn dispatch(&mut self, exe: ExeId, inputs: &[BufferId], output: BufferId) -> Result<()> {
        let out = self.buffer(output)?;
        let mut addresses = vec![out.address()];
        let out_len = out.len();
        for &id in inputs {
            addresses.push(self.buffer(id)?.address());
        }
        let module = self
            .modules
            .get(&exe)
            .ok_or_else(|| Error::new("wasm", format!("internal error: unknown kernel {exe}")))?;
        if module.output_bytes() > out_len {
            // Never write past a buffer (a planning bug, caught before it corrupts memory).
            return Err(Error::new(
                "wasm",
                format!(
                    "internal error: a kernel writing {} bytes into a buffer of {out_len}",
                    module.output_bytes()
                ),
            ));
        }
        if threads::run_split(module, &addresses)? {
            self.split_dispatches += 1;
        } else {
            module.call_range((0, module.size() as u32), &addresses)?;
        }
        self.dispatches += 1;
        Ok(())
    }

    fn compile_routine(&mut self, routine: &Routine) -> Result<ExeId> {
        routines::compile(self, routine)
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
        self.modules.clear();
        self.kernel_ids.clear();
        self.sizeless.clear();
        self.routines.clear();
        self.loops.clear();
        self.programs.clear();
        self.pool.clear();
        self.code_bytes = 0;
        self.max_locals = 0;
    }

    fn compile_loop(&mut self, plan: &DeviceProgram) -> Result<(ExeId, String)> {
        strategy::compile_loop(self, plan)
    }

    fn run_loop(
        &mut self,
        exe: ExeId,
        plan: &DeviceProgram,
        buffers: LoopBuffers<'_, BufferId>,
    ) -> Result<()> {
        loops::run(self, exe, plan, buffers)
    }

    fn loop_stats(&self) -> LoopStats {
        self.loops.stats()
    }

    fn compile_program(&mut self, plan: &DeviceProgram) -> Result<Option<ExeId>> {
        strategy::compile_program(self, plan)
    }

    fn run_program(
        &mut self,
        exe: ExeId,
        plan: &DeviceProgram,
        inputs: &[BufferId],
        outputs: &[BufferId],
    ) -> Result<()> {
        let exe = strategy::program_to_run(self, exe, plan)?;
        program::run(self, exe, plan, inputs, outputs)
    }

    fn stats(&self) -> BackendStats {
        BackendStats {
            live_buffers: self.buffers.len(),
            live_bytes: self.buffers.values().map(HostBuffer::len).sum(),
            kernel_cache: self.kernel_ids.stats(),
            dispatches: self.dispatches,
            pool_buffers: self.pool.buffers(),
            pool_bytes: self.pool.bytes(),
            pool_hits: self.pool.hits,
            pool_misses: self.pool.misses,
            code_bytes: self.code_bytes,
            max_code_locals: self.max_locals,
            size_reuses: self.size_reuses,
            ..Default::default()
        }
    }
}
