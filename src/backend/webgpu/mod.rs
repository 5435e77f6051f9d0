//! The `webgpu` device through wgpu: the browser's WebGPU (and Deno's) on wasm32, Vulkan
//! natively for `cargo test`. Buffers are storage buffers from a pool of size classes
//! (`pool`); kernels are WGSL compute pipelines (see `wgsl`), cached by kernel structure.
//!
//! Command batching: dispatches are encoded into one command encoder and submitted together
//! when [`MAX_BATCH`] are pending or when something must see their results (a read, a
//! `blockUntilReady`). Consecutive dispatches share one compute pass (a pass per dispatch
//! costs the host about as much again per op in wgpu); anything else encoded (a copy) ends
//! it. A buffer freed while the batch may still use it goes back to the pool at once: later
//! dispatches and copies in the same queue are ordered after the work that used it, so a
//! kernel may write it. Only `queue.write_buffer` is not (it runs at the start of the next
//! submit), so allocations prefer other pooled buffers, and a host write into such a buffer
//! is a copy from a staging buffer encoded into the batch.
//! Reads copy into ranges of one mappable staging buffer per read group, encoded into the same
//! batch (`readback`).
//!
//! Exactness (a decision): elementwise kernels stay bit-exact against the `cpu` interpreter on
//! every driver (float `+ − ×` through `ox_keep`, ÷ and √ corrected in software; see
//! `wgsl_alu`) — that costs ALU work, not memory traffic, so memory-bound kernels keep their
//! bandwidth. Fast kernels whose summation order must differ from the interpreter's use native
//! float arithmetic and are tested with stated tolerances: tiled matrix products (`fma`,
//! relative 1e-6 of Σ|a·b|) and workgroup-tree reductions (compensated sums, relative 1e-6 of
//! Σ|x|; products n·2⁻²⁴; integer sums, max and min stay exact). The elements they combine are
//! still computed by the exact emitter.

mod exe;
pub mod fft;
mod knobs;
pub mod loop_budget;
mod lost;
mod open;
mod passes;
mod pool;
pub mod program;
mod readback;
mod routines;
pub mod sort;
pub mod subgroups;
pub mod wgsl;
mod wgsl_alu;
mod wgsl_exp;
mod wgsl_half;
mod wgsl_jacobi_group;
mod wgsl_lib;
pub mod wgsl_matmul;
mod wgsl_matmul_subgroup;
pub mod wgsl_reduce;
pub mod wgsl_routines;
pub mod wgsl_routines_group;
mod wgsl_trig;
pub mod wgsl_wide;

use std::collections::{HashMap, HashSet};

use super::routines::RoutineCache;
use super::{Backend, BackendStats, BufferId, ExeId, GroupFuture, LoopStats, ReadFuture};
use crate::core::Device;
use crate::kernel::device_program::{DeviceProgram, LoopBuffers};
use crate::kernel::{DeviceLimits, Kernel, Routine};
use crate::util::fast_hash::FastBuildHasher;
use crate::util::lru::Lru;
use crate::util::{Error, Result};
use pool::{padded, size_class, Pool};

const PIPELINE_CACHE_CAPACITY: usize = 1024;
const BIND_GROUP_CACHE_CAPACITY: usize = 512;
/// Dispatches encoded before the batch is submitted.
pub const MAX_BATCH: usize = 64;
/// Sums of at most this many terms with one use are written out in their consumer
/// (`DeviceLimits::inline_terms`): each term written out is a copy of the code the kernel
/// would run in a loop, and past a few the copies cost the driver more to compile than the
/// kernel they replace.
pub const INLINE_TERMS: usize = 3;

struct Buffer {
    gpu: wgpu::Buffer,
    bytes: usize,
    class: u64,
}

pub struct WebGpuBackend {
    device: wgpu::Device,
    queue: wgpu::Queue,
    adapter_name: String,
    max_storage_buffers: u32,
    /// `Backend::max_buffer_bytes`, from the limits at creation (reading them is a JS call).
    max_buffer_bytes: u64,
    buffers: HashMap<BufferId, Buffer, FastBuildHasher>,
    next_buffer: BufferId,
    kernel_ids: Lru<Kernel, ExeId>,
    pipelines: Lru<ExeId, std::rc::Rc<exe::Exe>>,
    bind_groups: Lru<(wgpu::BindGroupLayout, Vec<wgpu::Buffer>), wgpu::BindGroup>,
    next_exe: ExeId,
    dispatches: u64,
    /// Buffer-to-buffer copies encoded between device buffers (`BackendStats::buffer_copies`).
    buffer_copies: u64,
    /// Tiled matmuls and workgroup-tree reductions (off on CPU adapters, see `fast_kernels`).
    fast: bool,
    /// Tiled matmuls use the large tile whatever their size (tests).
    large_tiles: bool,
    /// Workgroup storage a tiled matmul may declare (the device's limit).
    shared_bytes: u32,
    /// Dispatches of tiled matrix products, and of those in the subgroup form.
    tiled_dispatches: u64,
    subgroup_dispatches: u64,
    /// Elementwise kernels take the wide form (`wgsl_wide`), and its dispatches.
    wide: bool,
    wide_dispatches: u64,
    /// Shader pipelines compiled (kernels, routines, loops, stages).
    shader_compiles: std::rc::Rc<std::cell::Cell<u64>>,
    routines: RoutineCache<routines::Compiled>,
    submits: u64,
    pool: Pool,
    /// The compute pass open on `encoder` (dispatches since the last copy).
    pass: Option<wgpu::ComputePass<'static>>,
    /// The pipeline last set on the open pass (a dispatch of the same one sets it no more).
    pass_pipeline: Option<wgpu::ComputePipeline>,
    /// The batch being encoded and the number of dispatches in it.
    encoder: Option<wgpu::CommandEncoder>,
    pending: usize,
    /// Buffers freed (and pooled) while the batch was pending: a host write into one of them
    /// must wait until the batch is submitted.
    retired: HashSet<wgpu::Buffer, FastBuildHasher>,
    /// Buffers evicted from the pool that the pending batch may use: destroyed once it is
    /// submitted (a destroyed buffer in an unsubmitted command buffer fails the submit).
    doomed: Vec<wgpu::Buffer>,
    /// Compiled looping scan shaders (`program::compiled`).
    loops: program::compiled::LoopCache,
    /// The device has WGSL's f16 (`shader-f16`).
    float16: bool,
    /// The device's subgroups, if it was opened with them (`subgroups`).
    subgroups: Option<subgroups::Subgroups>,
    /// Tiled matmuls may take their subgroup form (`set_matmul_subgroups`).
    use_subgroups: bool,
    /// Loop iterations one invocation may run (`loop_budget`; None: no limit).
    loop_limit: Option<usize>,
    /// Staging buffers and counters of reads (`readback`).
    reads: readback::Reads,
    /// Set by wgpu's device-lost callback (`lost`).
    lost: lost::LostFlag,
    /// Buffer ids below this belong to an earlier device that was lost (`lost`).
    first_buffer: BufferId,
}

impl WebGpuBackend {
    /// Finds an adapter and opens a device with the adapter's own limits. `storage_buffer_cap`
    /// lowers the storage-buffer limit used for planning (tests force the spec minimum, 8).
    pub async fn new(storage_buffer_cap: Option<u32>) -> Result<WebGpuBackend> {
        Self::open(storage_buffer_cap, false).await
    }

    /// Opens a device with WebGPU's default limits whatever the adapter offers (256
    /// invocations per workgroup, 8 storage buffers, …): tests run what the smallest devices
    /// (SwiftShader) accept.
    pub async fn with_default_limits() -> Result<WebGpuBackend> {
        Self::open(None, true).await
    }

    /// Submits the pending batch (if any) and pools the buffers it was the last user of.
    pub fn flush(&mut self) {
        self.pass = None;
        // A lost device runs nothing: its batch is dropped unsubmitted.
        if let Some(encoder) = self.encoder.take().filter(|_| !self.lost.is_set()) {
            self.queue.submit([encoder.finish()]);
            self.submits += 1;
        }
        self.pending = 0;
        self.retired.clear();
        for b in self.doomed.drain(..) {
            b.destroy();
        }
    }

    /// The batch's encoder, started if needed (ending the open compute pass, if any).
    fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        self.pass = None;
        let device = &self.device;
        self.encoder
            .get_or_insert_with(|| device.create_command_encoder(&Default::default()))
    }

    /// The batch's open compute pass, begun if needed.
    fn pass(&mut self) -> &mut wgpu::ComputePass<'static> {
        if self.pass.is_none() {
            self.pass_pipeline = None;
            let pass = self
                .encoder()
                .begin_compute_pass(&Default::default())
                .forget_lifetime();
            self.pass = Some(pass);
        }
        self.pass.as_mut().expect("a compute pass was just begun")
    }

    /// The batch's open compute pass with `pipeline` set (not set again when the pass's last
    /// dispatch used it: each call costs the host a WebGPU call and wgpu a recorded command).
    fn pass_with(&mut self, pipeline: &wgpu::ComputePipeline) -> &mut wgpu::ComputePass<'static> {
        let same = self.pass.is_some() && self.pass_pipeline.as_ref() == Some(pipeline);
        if !same {
            self.pass().set_pipeline(pipeline);
            self.pass_pipeline = Some(pipeline.clone());
        }
        self.pass()
    }

    /// Encodes one compute pass of `pipeline` over `x × y` workgroups into the batch.
    fn encode(&mut self, stage: &exe::Stage, inputs: &[BufferId], output: BufferId) -> Result<()> {
        self.encode_bound(
            &stage.pipeline,
            Some(&stage.layout),
            stage.grid,
            inputs,
            &[output],
        )
    }

    /// [`Self::encode`] with several outputs (bindings: the inputs, then the outputs). With
    /// the pipeline's cached `layout`, bind groups are cached too: eager chains draw their
    /// buffers from the pool, so the same bindings recur (a bind group naming a buffer that
    /// was since destroyed is never looked up again: no live buffer has its identity).
    fn encode_bound(
        &mut self,
        pipeline: &wgpu::ComputePipeline,
        layout: Option<&wgpu::BindGroupLayout>,
        (x, y): (u32, u32),
        inputs: &[BufferId],
        outputs: &[BufferId],
    ) -> Result<()> {
        let mut bound = Vec::with_capacity(inputs.len() + outputs.len());
        for &id in inputs.iter().chain(outputs) {
            bound.push(self.buffer(id)?.gpu.clone());
        }
        self.encode_buffers(pipeline, layout, (x, y), bound, &[])
    }

    /// [`Self::encode_bound`] with the bindings given as buffers: `bound[i]` at binding
    /// `numbers[i]`, or `i` where `numbers` is empty.
    fn encode_buffers(
        &mut self,
        pipeline: &wgpu::ComputePipeline,
        layout: Option<&wgpu::BindGroupLayout>,
        (x, y): (u32, u32),
        bound: Vec<wgpu::Buffer>,
        numbers: &[u32],
    ) -> Result<()> {
        let key = layout.map(|l| (l.clone(), bound.clone()));
        let cached = key.as_ref().and_then(|k| self.bind_groups.get(k)).cloned();
        let bind_group = match cached {
            Some(group) => group,
            None => {
                let entries: Vec<wgpu::BindGroupEntry> = bound
                    .iter()
                    .enumerate()
                    .map(|(i, b)| wgpu::BindGroupEntry {
                        binding: numbers.get(i).copied().unwrap_or(i as u32),
                        resource: b.as_entire_binding(),
                    })
                    .collect();
                let derived;
                let layout = match layout {
                    Some(l) => l,
                    None => {
                        derived = pipeline.get_bind_group_layout(0);
                        &derived
                    }
                };
                let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout,
                    entries: &entries,
                });
                if let Some(key) = key {
                    self.bind_groups.insert(key, group.clone());
                }
                group
            }
        };
        let pass = self.pass_with(pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(x, y, 1);
        self.pending += 1;
        Ok(())
    }

    /// Counts one kernel dispatched, submitting the batch when it is full.
    fn dispatched(&mut self) -> Result<()> {
        self.dispatches += 1;
        if self.pending >= MAX_BATCH {
            self.flush();
        }
        Ok(())
    }

    fn buffer(&self, id: BufferId) -> Result<&Buffer> {
        match self.buffers.get(&id) {
            Some(b) => Ok(b),
            None if id < self.first_buffer => Err(lost::stale_array_error()),
            None => Err(Error::new(
                "webgpu",
                format!("internal error: unknown buffer {id}"),
            )),
        }
    }
}

impl Backend for WebGpuBackend {
    fn device(&self) -> Device {
        Device::WebGpu
    }

    // wgpu handles hash and compare by identity, not by their interior-mutable state.
    #[allow(clippy::mutable_key_type)]
    fn alloc(&mut self, bytes: usize) -> Result<BufferId> {
        let class = size_class(padded(bytes));
        // Prefer a buffer that the pending batch does not use (a host write into it would
        // need an ordered copy, see `write`).
        let retired = &self.retired;
        let gpu = match self.pool.take(class, |b| retired.contains(b)) {
            Some(gpu) => gpu,
            None => self.device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: class,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        };
        let id = self.next_buffer;
        self.next_buffer += 1;
        self.buffers.insert(id, Buffer { gpu, bytes, class });
        Ok(id)
    }

    fn write(&mut self, buffer: BufferId, data: &[u8]) -> Result<()> {
        let target = self.buffer(buffer)?.gpu.clone();
        let mut padded_data = data.to_vec();
        padded_data.resize(padded(data.len()) as usize, 0);
        if !self.retired.contains(&target) {
            self.queue.write_buffer(&target, 0, &padded_data);
            return Ok(());
        }
        // The pending batch still uses this buffer, and `write_buffer` would overtake it: copy
        // from a staging buffer encoded into the batch instead.
        let size = padded_data.len() as u64;
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("oxjax upload"),
            size,
            usage: wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: true,
        });
        staging
            .slice(..)
            .get_mapped_range_mut()
            .map_err(|e| Error::new("webgpu", format!("internal error: upload: {e:?}")))?
            .copy_from_slice(&padded_data);
        staging.unmap();
        self.encoder()
            .copy_buffer_to_buffer(&staging, 0, &target, 0, size);
        self.buffer_copies += 1;
        self.doomed.push(staging);
        Ok(())
    }

    fn free(&mut self, buffer: BufferId) {
        if let Some(b) = self.buffers.remove(&buffer) {
            let batch = self.encoder.is_some();
            if batch {
                self.retired.insert(b.gpu.clone());
            }
            for evicted in self.pool.put(b.class, b.gpu) {
                if batch {
                    self.retired.remove(&evicted);
                    self.doomed.push(evicted);
                } else {
                    evicted.destroy();
                }
            }
        }
    }

    fn check_buffer(&self, buffer: BufferId) -> Result<()> {
        self.buffer(buffer).map(|_| ())
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn read_sync(&mut self, buffer: BufferId) -> Result<Vec<u8>> {
        self.read_one_sync(buffer)
    }

    #[cfg(target_arch = "wasm32")]
    fn read_sync(&mut self, _buffer: BufferId) -> Result<Vec<u8>> {
        Err(readback::no_sync_reads())
    }

    fn read(&mut self, buffer: BufferId) -> Result<ReadFuture> {
        self.read_one(buffer)
    }

    fn read_group(&mut self, buffers: &[BufferId]) -> Result<GroupFuture> {
        self.read_buffers(buffers)
    }

    fn sync(&mut self, buffer: BufferId) -> Result<ReadFuture> {
        self.sync_one(buffer)
    }

    fn compile(&mut self, kernel: &Kernel) -> Result<ExeId> {
        // An id is only handed out while its compiled form is still cached (the two caches'
        // recency differs once callers dispatch kept ids without compiling).
        if let Some(&id) = self.kernel_ids.get(kernel) {
            if self.pipelines.contains_key(&id) {
                return Ok(id);
            }
        }
        let bindings = kernel.inputs.len() as u32 + 1;
        if bindings > self.max_storage_buffers {
            return Err(Error::new(
                "webgpu",
                format!(
                    "internal error: a kernel binding {bindings} storage buffers reached the \
                     device (limit {})",
                    self.max_storage_buffers
                ),
            ));
        }
        let built = self.build(kernel)?;
        let id = self.next_exe;
        self.next_exe += 1;
        self.kernel_ids.insert(kernel.clone(), id);
        self.pipelines.insert(id, std::rc::Rc::new(built));
        Ok(id)
    }

    fn exe_generation(&self) -> u64 {
        self.pipelines.generation()
    }

    fn reserve_exes(&mut self, kernels: usize, routines: usize) {
        let kernels = (kernels + PIPELINE_CACHE_CAPACITY).min(super::MAX_RESERVED_EXES);
        self.kernel_ids.reserve(kernels);
        self.pipelines.reserve(kernels);
        // Each kernel's buffers recur call after call (the pool hands them out in the same
        // order), so its bind group is found again where the cache holds all of them.
        self.bind_groups
            .reserve((2 * kernels + BIND_GROUP_CACHE_CAPACITY).min(super::MAX_RESERVED_EXES));
        self.routines
            .reserve((routines + 64).min(super::MAX_RESERVED_EXES));
    }

    fn dispatch(&mut self, exe: ExeId, inputs: &[BufferId], output: BufferId) -> Result<()> {
        let built =
            self.pipelines.get(&exe).cloned().ok_or_else(|| {
                Error::new("webgpu", format!("internal error: unknown kernel {exe}"))
            })?;
        if let ([stage], []) = (&built.stages[..], &built.temp_bytes[..]) {
            self.encode(stage, inputs, output)?;
            self.tiled_dispatches += stage.tiled as u64;
            self.subgroup_dispatches += stage.subgroup as u64;
            self.wide_dispatches += stage.wide as u64;
            return self.dispatched();
        }
        // Each stage but the last writes a temporary that the next one reads.
        let mut temps = Vec::with_capacity(built.temp_bytes.len());
        let mut result = Ok(());
        for (k, stage) in built.stages.iter().enumerate() {
            let target = match built.temp_bytes.get(k) {
                Some(&bytes) => match self.alloc(bytes) {
                    Ok(t) => t,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                },
                None => output,
            };
            let ins = temps.last().map_or(inputs.to_vec(), |&t| vec![t]);
            if target != output {
                temps.push(target);
            }
            result = self.encode(stage, &ins, target);
            if result.is_err() {
                break;
            }
            self.tiled_dispatches += stage.tiled as u64;
            self.subgroup_dispatches += stage.subgroup as u64;
            self.wide_dispatches += stage.wide as u64;
        }
        for t in temps {
            self.free(t);
        }
        result?;
        self.dispatched()
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
        self.flush();
        self.kernel_ids.clear();
        self.pipelines.clear();
        self.bind_groups.clear();
        self.routines.clear();
        self.pool.clear();
        self.loops.clear();
        self.reads.clear();
    }

    fn compile_loop(&mut self, plan: &DeviceProgram) -> Result<(ExeId, String)> {
        // The looping shaders pack values in u32 words: float16 bodies run widened.
        program::strategy::compile_loop(self, plan)
    }

    fn run_loop(
        &mut self,
        exe: ExeId,
        plan: &DeviceProgram,
        buffers: LoopBuffers<'_, BufferId>,
    ) -> Result<()> {
        program::strategy::run_loop(self, exe, plan, buffers)
    }

    fn loop_uses_scratch(&mut self, exe: ExeId) -> bool {
        program::compiled::uses_scratch(self, exe)
    }

    fn loop_stats(&self) -> LoopStats {
        self.loops.stats()
    }

    fn has_float16(&self) -> bool {
        self.float16
    }

    fn compile_program(&mut self, plan: &DeviceProgram) -> Result<Option<ExeId>> {
        program::strategy::compile_program(self, plan)
    }

    fn run_program(
        &mut self,
        exe: ExeId,
        plan: &DeviceProgram,
        inputs: &[BufferId],
        outputs: &[BufferId],
    ) -> Result<()> {
        program::whole::run(self, exe, plan, inputs, outputs)
    }

    fn stats(&self) -> BackendStats {
        BackendStats {
            live_buffers: self.buffers.len(),
            live_bytes: self.buffers.values().map(|b| b.bytes).sum(),
            kernel_cache: self.kernel_ids.stats(),
            dispatches: self.dispatches,
            buffer_copies: self.buffer_copies,
            submits: self.submits,
            pool_buffers: self.pool.buffers(),
            pool_bytes: self.pool.bytes() as usize,
            pool_hits: self.pool.hits,
            pool_misses: self.pool.misses,
            tiled_dispatches: self.tiled_dispatches,
            shader_compiles: self.shader_compiles.get(),
            readback_maps: self.reads.maps,
            staging_buffers: self.reads.pooled().0,
            staging_bytes: self.reads.pooled().1,
            lost: self.lost.is_set(),
            ..Default::default()
        }
    }

    fn max_buffer_bytes(&self) -> u64 {
        self.max_buffer_bytes
    }

    fn limits(&self) -> DeviceLimits {
        // One storage buffer of the limit is the kernel's output.
        DeviceLimits {
            max_kernel_inputs: self.max_storage_buffers.saturating_sub(1) as usize,
            inline_terms: INLINE_TERMS,
        }
    }
}
