//! L3: devices. A [`Backend`] owns device buffers, compiles [`Kernel`]s and dispatches them.
//! A backend never sees a Jaxpr or a primitive: only the Kernel IR.
//!
//! - `cpu`: the reference interpreter of the Kernel IR (the oracle for the others).
//! - `wasm`: WebAssembly kernels emitted with walrus, run against the main module's memory.
//! - `webgpu`: WGSL compute shaders through wgpu.

pub mod buffer;
pub mod caps;
pub mod cpu;
pub mod fft;
mod fft_radix2;
mod golub_kahan;
pub mod jacobi;
pub mod registry;
pub mod routines;
pub mod transfers;
mod tridiagonal;
pub mod wasm;
pub mod webgpu;

use std::future::Future;
use std::pin::Pin;

use crate::core::Device;
use crate::kernel::device_program::{DeviceProgram, LoopBuffers};
use crate::kernel::{DeviceLimits, Kernel, Routine};
use crate::util::lru::CacheStats;
use crate::util::{Error, Result};

pub use buffer::DeviceBuffer;

/// A buffer handle, meaningful to the backend that made it.
pub type BufferId = u32;
/// A compiled kernel, valid until the backend's next `compile` (its cache may evict it).
pub type ExeId = u32;
/// The bytes of a buffer, delivered when the device has finished writing them.
pub type ReadFuture = Pin<Box<dyn Future<Output = Result<Vec<u8>>>>>;
/// The bytes of several buffers read together (`Backend::read_group`), in request order.
pub type GroupFuture = Pin<Box<dyn Future<Output = Result<Vec<HostBytes>>>>>;

/// Bytes read back to the host: in the wasm heap, or (webgpu on the web) a JavaScript
/// `ArrayBuffer` copied straight out of the mapped staging buffer, which becomes the user's
/// typed array without another copy.
#[derive(Debug)]
pub enum HostBytes {
    Heap(Vec<u8>),
    #[cfg(target_arch = "wasm32")]
    Js(js_sys::ArrayBuffer),
}

impl HostBytes {
    /// The bytes in the wasm heap (a copy for `Js`).
    pub fn into_vec(self) -> Vec<u8> {
        match self {
            HostBytes::Heap(v) => v,
            #[cfg(target_arch = "wasm32")]
            HostBytes::Js(b) => js_sys::Uint8Array::new(&b).to_vec(),
        }
    }
}

/// What a backend reports about itself (live buffers, cache, work done).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BackendStats {
    pub live_buffers: usize,
    pub live_bytes: usize,
    pub kernel_cache: CacheStats,
    pub dispatches: u64,
    /// Command submissions (devices that batch dispatches; 0 elsewhere).
    pub submits: u64,
    /// Copies from one device buffer into another that the device encoded (webgpu: operands
    /// into and results out of packed buffers, carries of pre-encoded scans, uploads behind
    /// pending work; not readbacks; 0 elsewhere).
    pub buffer_copies: u64,
    /// Dispatches of tiled matrix-product kernels (webgpu; 0 elsewhere).
    pub tiled_dispatches: u64,
    /// Shaders compiled into pipelines since the device started (webgpu: kernels, routines,
    /// scan loops and program stages alike; 0 elsewhere).
    pub shader_compiles: u64,
    /// Free buffers kept for reuse, and their bytes (not live arrays).
    pub pool_buffers: usize,
    pub pool_bytes: usize,
    /// Allocations served by a pooled buffer, and those that made a new one (wasm, webgpu).
    pub pool_hits: u64,
    pub pool_misses: u64,
    /// Bytes of kernel code generated since the last `clear_caches` (wasm module bytes; 0 on
    /// devices that do not count them).
    pub code_bytes: u64,
    /// The most locals of one generated kernel function since the last `clear_caches` (wasm).
    pub max_code_locals: usize,
    /// Kernels compiled by running the module of a kernel that differed only in its size
    /// (wasm: no emission, compilation or instantiation; 0 elsewhere).
    pub size_reuses: u64,
    /// Staging buffers mapped to read results back (webgpu: one per read group, however many
    /// arrays it reads, and one per `blockUntilReady`; 0 elsewhere).
    pub readback_maps: u64,
    /// Free mappable staging buffers kept for reuse, and their bytes (webgpu).
    pub staging_buffers: usize,
    pub staging_bytes: usize,
    /// The device was lost (webgpu; its arrays throw until `init()` opens a new one).
    pub lost: bool,
}

/// What a backend reports about its compiled scan loops.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoopStats {
    /// `run_loop` calls (each also counts in `dispatches` what it dispatched).
    pub runs: u64,
    pub cache: CacheStats,
}

/// The most compiled kernels (and, separately, routines) a backend's caches grow to for one
/// program (`Backend::reserve_exes`); past it they evict as usual.
pub const MAX_RESERVED_EXES: usize = 8192;

pub trait Backend {
    fn device(&self) -> Device;
    /// A buffer of `bytes` bytes with unspecified contents.
    fn alloc(&mut self, bytes: usize) -> Result<BufferId>;
    fn write(&mut self, buffer: BufferId, data: &[u8]) -> Result<()>;
    fn free(&mut self, buffer: BufferId);
    /// An error when `buffer` can no longer be used (webgpu: it was on a device since lost and
    /// replaced); a lost device itself answers with its error before this is asked.
    fn check_buffer(&self, _buffer: BufferId) -> Result<()> {
        Ok(())
    }
    /// Reads a buffer synchronously, or explains why this platform cannot.
    fn read_sync(&mut self, buffer: BufferId) -> Result<Vec<u8>>;
    /// Writes the bytes of a JS array into a buffer (the wasm device copies them straight into
    /// its data memory, not through this module's heap).
    #[cfg(target_arch = "wasm32")]
    fn write_js(&mut self, buffer: BufferId, data: &js_sys::Uint8Array) -> Result<()> {
        self.write(buffer, &data.to_vec())
    }
    /// Reads a buffer synchronously as bytes for JS (the wasm device copies them straight out
    /// of its data memory into a JS `ArrayBuffer`).
    #[cfg(target_arch = "wasm32")]
    fn read_sync_host(&mut self, buffer: BufferId) -> Result<HostBytes> {
        self.read_sync(buffer).map(HostBytes::Heap)
    }
    /// Starts reading a buffer; the future owns what it needs, so no backend state is
    /// borrowed while it is pending.
    fn read(&mut self, buffer: BufferId) -> Result<ReadFuture>;
    /// Where `buffer`'s bytes start in the wasm data memory (`wasm::data`), which TypeScript
    /// reads from itself; None on devices whose buffers live elsewhere.
    fn data_address(&self, _buffer: BufferId) -> Option<u32> {
        None
    }
    /// Starts reading several buffers together; resolves to their bytes in order. Devices
    /// with a costly round trip per read (webgpu: one staging copy per buffer into ONE staging
    /// buffer, mapped once) override it; the default reads them one by one.
    fn read_group(&mut self, buffers: &[BufferId]) -> Result<GroupFuture> {
        let reads = buffers
            .iter()
            .map(|&b| self.read(b))
            .collect::<Result<Vec<_>>>()?;
        Ok(Box::pin(async move {
            let mut out = Vec::with_capacity(reads.len());
            for read in reads {
                out.push(HostBytes::Heap(read.await?));
            }
            Ok(out)
        }))
    }
    /// Resolves once the work that writes `buffer` has finished (`blockUntilReady`); the
    /// bytes it resolves to are meaningless. Synchronous backends are always ready.
    fn sync(&mut self, _buffer: BufferId) -> Result<ReadFuture> {
        Ok(ready(Ok(Vec::new())))
    }
    fn compile(&mut self, kernel: &Kernel) -> Result<ExeId>;
    /// Changes whenever an id returned by `compile` may stop being valid (the compiled-kernel
    /// cache evicted or was cleared); it also differs between backend instances. Callers that
    /// keep ids (jit Programs, `transform::runnable`) compile again when it changed.
    fn exe_generation(&self) -> u64;
    fn dispatch(&mut self, exe: ExeId, inputs: &[BufferId], output: BufferId) -> Result<()>;
    /// Sizes the compile caches for a program of `kernels` kernels and `routines` routines
    /// about to run step by step, so that its compiled forms never evict each other (a program
    /// over the default capacity would otherwise recompile on every call). The caches stay
    /// bounded: [`MAX_RESERVED_EXES`] at most.
    fn reserve_exes(&mut self, _kernels: usize, _routines: usize) {}
    fn stats(&self) -> BackendStats;
    /// Compiles a routine (`kernel/routine.rs`); routine ids are separate from kernel ids.
    fn compile_routine(&mut self, routine: &Routine) -> Result<ExeId> {
        Err(Error::new(
            routine.name(),
            format!("not supported on the {} device", self.device().name()),
        ))
    }
    /// Runs a compiled routine: inputs and outputs are dense buffers in the routine's order.
    fn dispatch_routine(
        &mut self,
        exe: ExeId,
        inputs: &[BufferId],
        outputs: &[BufferId],
    ) -> Result<()> {
        let _ = (exe, inputs, outputs);
        Err(Error::new(
            "routine",
            format!("not supported on the {} device", self.device().name()),
        ))
    }
    /// Empties this device's caches (`clearCaches()`): compiled kernels and routines, pooled
    /// free buffers and anything else kept for reuse. Live buffers are untouched.
    fn clear_caches(&mut self);
    /// Compiles a scan loop (`kernel/device_program.rs`) and returns its id (a namespace of its
    /// own) with a detail for `setScanPathCallback` (e.g. "wasm loop module"). An error means
    /// this device has no compiled path for the loop: the scan runs as a host loop and the
    /// message becomes the path's detail.
    fn compile_loop(&mut self, plan: &DeviceProgram) -> Result<(ExeId, String)> {
        let _ = plan;
        Err(Error::new(
            "scan",
            format!("no compiled loops on the {} device", self.device().name()),
        ))
    }
    /// Runs a compiled loop on `buffers` (see `LoopBuffers` for what each one holds).
    fn run_loop(
        &mut self,
        exe: ExeId,
        plan: &DeviceProgram,
        buffers: LoopBuffers<'_, BufferId>,
    ) -> Result<()> {
        let _ = (exe, plan, buffers);
        Err(Error::new(
            "scan",
            format!("no compiled loops on the {} device", self.device().name()),
        ))
    }
    /// Whether the run of the loop compiled as `exe` uses the scratch buffers of its carry and
    /// temp slots (`LoopBuffers::slots`); when it does not, the caller passes another buffer
    /// of the run in their place and allocates none.
    fn loop_uses_scratch(&mut self, exe: ExeId) -> bool {
        let _ = exe;
        true
    }
    fn loop_stats(&self) -> LoopStats {
        LoopStats::default()
    }
    /// Compiles a whole jitted program, given as a one-step loop (`lower::whole`: its consts
    /// are the program's inputs, its y rows the outputs), into ONE call where this device gains
    /// by it. None (the default): the program runs kernel by kernel.
    fn compile_program(&mut self, plan: &DeviceProgram) -> Result<Option<ExeId>> {
        let _ = plan;
        Ok(None)
    }
    /// Runs a program compiled by `compile_program` on its input buffers (dense, in the
    /// program's input order), writing its output buffers.
    fn run_program(
        &mut self,
        exe: ExeId,
        plan: &DeviceProgram,
        inputs: &[BufferId],
        outputs: &[BufferId],
    ) -> Result<()> {
        let _ = (exe, plan, inputs, outputs);
        Err(Error::new(
            "jit",
            format!(
                "no compiled programs on the {} device",
                self.device().name()
            ),
        ))
    }
    /// What one kernel may bind on this device.
    fn limits(&self) -> DeviceLimits {
        DeviceLimits::UNBOUNDED
    }
    /// The most bytes one buffer of this device may have (`registry::alloc` checks it before
    /// allocating). At most `core::shape::MAX_BYTES`.
    fn max_buffer_bytes(&self) -> u64 {
        crate::core::shape::MAX_BYTES
    }
    /// Whether float16 arrays can live on this device (webgpu: where the adapter has
    /// `shader-f16`).
    fn has_float16(&self) -> bool {
        true
    }
}

/// A future that is already resolved, for backends whose reads are synchronous.
pub fn ready(result: Result<Vec<u8>>) -> ReadFuture {
    Box::pin(std::future::ready(result))
}

/// [`ready`] for a group of reads.
pub fn ready_group(result: Result<Vec<HostBytes>>) -> GroupFuture {
    Box::pin(std::future::ready(result))
}
