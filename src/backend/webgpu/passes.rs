//! Multi-pass routines on webgpu: one WGSL module with several entry points over the same
//! bindings (the routine's inputs, then its outputs, as storage buffers), dispatched in a fixed
//! sequence of passes. Each pass reads its parameters from a uniform block (`Params`, four u32)
//! at its own dynamic offset of one uniform buffer written when the routine is compiled, so a
//! routine of any size is one shader module. The passes run in order inside the batch's compute
//! pass (WebGPU orders storage writes between dispatches).

use std::num::NonZeroU64;

use super::exe::grid;
use super::routines::Gpu;
use super::{WebGpuBackend, MAX_BATCH};
use crate::backend::BufferId;
use crate::util::{Error, Result};

/// The uniform block each pass reads (`var<uniform> params: Params`, binding after the
/// storage buffers).
pub const PARAMS_WGSL: &str = "struct Params { a: u32, b: u32, c: u32, d: u32 }\n";

/// One dispatch: entry point `entry` (an index into the routine's entry points) over `groups`
/// workgroups, with parameters `params`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    pub entry: usize,
    pub groups: u32,
    pub params: [u32; 4],
}

/// A compiled multi-pass routine.
pub struct Passes {
    layout: wgpu::BindGroupLayout,
    pipelines: Vec<wgpu::ComputePipeline>,
    params: wgpu::Buffer,
    stride: u64,
    list: Vec<Pass>,
}

fn storage(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Passes {
    /// Compiles `source` (bindings: `inputs` read-only storage buffers, then `outputs`
    /// read-write ones, then `params`) with its `entries`, to run `list`.
    pub(super) fn new(
        gpu: &Gpu,
        label: &str,
        source: &str,
        entries: &[&str],
        (inputs, outputs): (u32, u32),
        list: Vec<Pass>,
    ) -> Passes {
        let device = &gpu.device;
        let mut layout_entries: Vec<_> = (0..inputs + outputs)
            .map(|b| storage(b, b < inputs))
            .collect();
        layout_entries.push(wgpu::BindGroupLayoutEntry {
            binding: inputs + outputs,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: NonZeroU64::new(16),
            },
            count: None,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(label),
            entries: &layout_entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        gpu.compiles.set(gpu.compiles.get() + entries.len() as u64);
        let pipelines = entries
            .iter()
            .map(|entry| {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(label),
                    layout: Some(&pipeline_layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                })
            })
            .collect();
        let stride = u64::from(device.limits().min_uniform_buffer_offset_alignment).max(16);
        let mut data = vec![0u8; (stride as usize) * list.len().max(1)];
        for (k, pass) in list.iter().enumerate() {
            for (w, v) in pass.params.iter().enumerate() {
                let at = k * stride as usize + 4 * w;
                data[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: data.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        gpu.queue.write_buffer(&params, 0, &data);
        Passes {
            layout,
            pipelines,
            params,
            stride,
            list,
        }
    }

    /// Encodes every pass into the batch over `buffers` (inputs then outputs).
    pub fn encode(&self, gpu: &mut WebGpuBackend, buffers: &[BufferId]) -> Result<()> {
        let mut entries = Vec::with_capacity(buffers.len() + 1);
        let mut bound = Vec::with_capacity(buffers.len());
        for &id in buffers {
            bound.push(gpu.buffer(id)?.gpu.clone());
        }
        for (i, b) in bound.iter().enumerate() {
            entries.push(wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            });
        }
        entries.push(wgpu::BindGroupEntry {
            binding: buffers.len() as u32,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &self.params,
                offset: 0,
                size: NonZeroU64::new(16),
            }),
        });
        let group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.layout,
            entries: &entries,
        });
        for (k, pass) in self.list.iter().enumerate() {
            let pipeline = self.pipelines.get(pass.entry).ok_or_else(|| {
                Error::new("webgpu", "internal error: a pass of an unknown entry point")
            })?;
            let (x, y) = grid(pass.groups);
            let compute = gpu.pass();
            compute.set_pipeline(pipeline);
            compute.set_bind_group(0, &group, &[(k as u64 * self.stride) as u32]);
            compute.dispatch_workgroups(x, y, 1);
            gpu.pending += 1;
            if gpu.pending >= MAX_BATCH {
                gpu.flush();
            }
        }
        Ok(())
    }
}
