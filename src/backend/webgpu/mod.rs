//! The `webgpu` device through wgpu: the browser's WebGPU (and Deno's) on wasm32, Vulkan
//! natively for `cargo test`. Buffers are storage buffers; kernels are WGSL compute pipelines
//! (see `wgsl`), cached by kernel structure; reads copy into a mappable staging buffer.

mod readback;
mod routines;
pub mod wgsl;
mod wgsl_alu;
mod wgsl_exp;
mod wgsl_lib;
pub mod wgsl_routines;
mod wgsl_trig;

use std::collections::HashMap;

use super::routines::RoutineCache;
use super::{Backend, BackendStats, BufferId, ExeId, ReadFuture};
use crate::core::Device;
use crate::kernel::{DeviceLimits, Kernel, Routine};
use crate::util::lru::Lru;
use crate::util::{Error, Result};

const PIPELINE_CACHE_CAPACITY: usize = 256;

struct Buffer {
    gpu: wgpu::Buffer,
    bytes: usize,
}

struct Pipeline {
    pipeline: wgpu::ComputePipeline,
    size: usize,
}

pub struct WebGpuBackend {
    device: wgpu::Device,
    queue: wgpu::Queue,
    adapter_name: String,
    max_storage_buffers: u32,
    buffers: HashMap<BufferId, Buffer>,
    next_buffer: BufferId,
    kernel_ids: Lru<Kernel, ExeId>,
    pipelines: Lru<ExeId, Pipeline>,
    next_exe: ExeId,
    dispatches: u64,
    routines: RoutineCache<wgpu::ComputePipeline>,
}

impl WebGpuBackend {
    /// Finds an adapter and opens a device with the adapter's own limits. `storage_buffer_cap`
    /// lowers the storage-buffer limit used for planning (tests force the spec minimum, 8).
    pub async fn new(storage_buffer_cap: Option<u32>) -> Result<WebGpuBackend> {
        let fail =
            |what: &str, e: &dyn std::fmt::Display| Error::new("init", format!("{what}: {e}"));
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = if cfg!(target_arch = "wasm32") {
            wgpu::Backends::BROWSER_WEBGPU
        } else {
            wgpu::Backends::VULKAN
        };
        let instance = wgpu::Instance::new(desc);
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .map_err(|e| fail("no WebGPU adapter", &e))?;
        let limits = adapter.limits();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("oxjax"),
                required_features: wgpu::Features::empty(),
                required_limits: limits.clone(),
                ..Default::default()
            })
            .await
            .map_err(|e| fail("could not open the WebGPU device", &e))?;
        let adapter_limit = limits.max_storage_buffers_per_shader_stage;
        Ok(WebGpuBackend {
            device,
            queue,
            adapter_name: adapter.get_info().name,
            max_storage_buffers: storage_buffer_cap.map_or(adapter_limit, |c| c.min(adapter_limit)),
            buffers: HashMap::new(),
            next_buffer: 1,
            kernel_ids: Lru::new(PIPELINE_CACHE_CAPACITY),
            pipelines: Lru::new(PIPELINE_CACHE_CAPACITY),
            next_exe: 1,
            dispatches: 0,
            routines: RoutineCache::default(),
        })
    }

    pub fn adapter_name(&self) -> &str {
        &self.adapter_name
    }

    /// The storage-buffer limit per shader stage that kernels are planned against.
    pub fn max_storage_buffers(&self) -> u32 {
        self.max_storage_buffers
    }

    fn buffer(&self, id: BufferId) -> Result<&Buffer> {
        self.buffers
            .get(&id)
            .ok_or_else(|| Error::new("webgpu", format!("internal error: unknown buffer {id}")))
    }
}

/// WebGPU buffer sizes must be non-zero multiples of 4.
fn padded(bytes: usize) -> u64 {
    (bytes.max(4).div_ceil(4) * 4) as u64
}

impl Backend for WebGpuBackend {
    fn device(&self) -> Device {
        Device::WebGpu
    }

    fn alloc(&mut self, bytes: usize) -> Result<BufferId> {
        let gpu = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: padded(bytes),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let id = self.next_buffer;
        self.next_buffer += 1;
        self.buffers.insert(id, Buffer { gpu, bytes });
        Ok(id)
    }

    fn write(&mut self, buffer: BufferId, data: &[u8]) -> Result<()> {
        let target = self.buffer(buffer)?;
        let mut padded_data = data.to_vec();
        padded_data.resize(padded(data.len()) as usize, 0);
        self.queue.write_buffer(&target.gpu, 0, &padded_data);
        Ok(())
    }

    fn free(&mut self, buffer: BufferId) {
        if let Some(b) = self.buffers.remove(&buffer) {
            b.gpu.destroy();
        }
    }

    fn read_sync(&mut self, buffer: BufferId) -> Result<Vec<u8>> {
        let b = self.buffer(buffer)?;
        readback::read_sync(&self.device, &self.queue, &b.gpu, b.bytes)
    }

    fn read(&mut self, buffer: BufferId) -> Result<ReadFuture> {
        let b = self.buffer(buffer)?;
        Ok(readback::read(&self.device, &self.queue, &b.gpu, b.bytes))
    }

    fn compile(&mut self, kernel: &Kernel) -> Result<ExeId> {
        if let Some(&id) = self.kernel_ids.get(kernel) {
            return Ok(id);
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
        let source = wgsl::emit_kernel(kernel)?;
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: None,
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
        let id = self.next_exe;
        self.next_exe += 1;
        self.kernel_ids.insert(kernel.clone(), id);
        self.pipelines.insert(
            id,
            Pipeline {
                pipeline,
                size: kernel.size,
            },
        );
        Ok(id)
    }

    fn dispatch(&mut self, exe: ExeId, inputs: &[BufferId], output: BufferId) -> Result<()> {
        let mut bound = Vec::with_capacity(inputs.len() + 1);
        for &id in inputs.iter().chain(std::iter::once(&output)) {
            bound.push(self.buffer(id)?.gpu.clone());
        }
        let Pipeline { pipeline, size } = self
            .pipelines
            .get(&exe)
            .ok_or_else(|| Error::new("webgpu", format!("internal error: unknown kernel {exe}")))?;
        let entries: Vec<wgpu::BindGroupEntry> = bound
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        let groups = (*size as u32).div_ceil(wgsl::WORKGROUP_SIZE).max(1);
        let (x, y) = if groups <= 65535 {
            (groups, 1)
        } else {
            (65535, groups.div_ceil(65535))
        };
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
        self.queue.submit([encoder.finish()]);
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

    fn stats(&self) -> BackendStats {
        BackendStats {
            live_buffers: self.buffers.len(),
            live_bytes: self.buffers.values().map(|b| b.bytes).sum(),
            kernel_cache: self.kernel_ids.stats(),
            dispatches: self.dispatches,
        }
    }

    fn limits(&self) -> DeviceLimits {
        // One storage buffer of the limit is the kernel's output.
        DeviceLimits {
            max_kernel_inputs: self.max_storage_buffers.saturating_sub(1) as usize,
        }
    }
}
