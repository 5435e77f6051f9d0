//! Multi-pass routines on webgpu: one WGSL module with several entry points over the same
//! bindings — the routine's inputs (read-only), its outputs, scratch buffers allocated for each
//! dispatch and freed after it, then constant tables written when the routine is compiled (all
//! storage buffers, in that order) — dispatched in a fixed sequence of passes. Each pass reads
//! its parameters from a uniform block (`Params`, four u32, the last binding) at its own
//! dynamic offset of one uniform buffer, so a routine of any size is one shader module. The
//! passes run in order inside the batch's compute pass (WebGPU orders storage writes between
//! dispatches). [`header`] declares those bindings for a routine's shader.

use std::num::NonZeroU64;

use super::exe::{compile_entries, dynamic_layout, grid};
use super::routines::Gpu;
use super::{WebGpuBackend, MAX_BATCH};
use crate::backend::{Backend, BufferId};
use crate::util::{Error, Result};

/// The uniform block each pass reads (`var<uniform> params: Params`, binding after the
/// storage buffers).
const PARAMS_WGSL: &str = "struct Params { a: u32, b: u32, c: u32, d: u32 }\n";

/// The WGSL declarations of a multi-pass routine: its storage bindings in [`Passes::new`]'s
/// order, each `(name, read_write, element type)`, then `params` (the uniform block), and a
/// `u32` constant for each `(name, value)` of `consts`.
pub fn header(storage: &[(&str, bool, &str)], consts: &[(&str, usize)]) -> String {
    let mut src = String::new();
    for (i, (name, write, ty)) in storage.iter().enumerate() {
        let access = if *write { "read_write" } else { "read" };
        src += &format!("@group(0) @binding({i}) var<storage, {access}> {name}: array<{ty}>;\n");
    }
    src += PARAMS_WGSL;
    src += &format!(
        "@group(0) @binding({}) var<uniform> params: Params;\n",
        storage.len()
    );
    for (name, value) in consts {
        src += &format!("const {name}: u32 = {value}u;\n");
    }
    src
}

/// One dispatch: entry point `entry` (an index into the routine's entry points) over `groups`
/// workgroups, with parameters `params`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    pub entry: usize,
    pub groups: u32,
    pub params: [u32; 4],
}

/// The storage bindings of a multi-pass routine besides its inputs and outputs.
#[derive(Default)]
pub struct Extra {
    /// Bytes of each scratch buffer.
    pub scratch: Vec<usize>,
    /// The contents of each constant table.
    pub constants: Vec<Vec<u8>>,
}

/// A compiled multi-pass routine.
pub struct Passes {
    layout: wgpu::BindGroupLayout,
    pipelines: Vec<wgpu::ComputePipeline>,
    params: wgpu::Buffer,
    stride: u64,
    list: Vec<Pass>,
    scratch: Vec<usize>,
    constants: Vec<wgpu::Buffer>,
}

impl Passes {
    /// Compiles `source` (bindings: `inputs` read-only storage buffers, then `outputs` and
    /// `extra.scratch` read-write ones, then `extra.constants` read-only, then `params`) with
    /// its `entries`, to run `list`.
    pub(super) fn new(
        gpu: &Gpu,
        label: &str,
        source: &str,
        entries: &[&str],
        (inputs, outputs): (u32, u32),
        extra: Extra,
        list: Vec<Pass>,
    ) -> Passes {
        let device = &gpu.device;
        let writable = outputs + extra.scratch.len() as u32;
        let storages = inputs + writable + extra.constants.len() as u32;
        let read_only: Vec<bool> = (0..storages)
            .map(|b| b < inputs || b >= inputs + writable)
            .collect();
        let (layout, pipeline_layout) = dynamic_layout(device, &read_only);
        let source = source.to_string();
        let pipelines = compile_entries(
            device,
            &gpu.compiles,
            source,
            Some(&pipeline_layout),
            entries,
        );
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
        let constants = extra
            .constants
            .iter()
            .map(|c| {
                let b = device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: (c.len().max(4) as u64).next_multiple_of(4),
                    usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                let mut padded = c.clone();
                padded.resize(c.len().max(4).next_multiple_of(4), 0);
                gpu.queue.write_buffer(&b, 0, &padded);
                b
            })
            .collect();
        Passes {
            layout,
            pipelines,
            params,
            stride,
            list,
            scratch: extra.scratch,
            constants,
        }
    }

    /// Encodes every pass into the batch over `buffers` (inputs then outputs), with scratch
    /// buffers of its own.
    pub fn encode(&self, gpu: &mut WebGpuBackend, buffers: &[BufferId]) -> Result<()> {
        let mut scratch = Vec::with_capacity(self.scratch.len());
        for &bytes in &self.scratch {
            scratch.push(gpu.alloc(bytes)?);
        }
        let result = self.encode_with(gpu, buffers, &scratch);
        // Freed while the batch may still use them: pooled only once it is submitted.
        scratch.into_iter().for_each(|id| gpu.free(id));
        result
    }

    fn encode_with(
        &self,
        gpu: &mut WebGpuBackend,
        buffers: &[BufferId],
        scratch: &[BufferId],
    ) -> Result<()> {
        let mut bound = Vec::with_capacity(buffers.len() + scratch.len());
        for &id in buffers.iter().chain(scratch) {
            bound.push(gpu.buffer(id)?.gpu.clone());
        }
        bound.extend(self.constants.iter().cloned());
        let mut entries = Vec::with_capacity(bound.len() + 1);
        for (i, b) in bound.iter().enumerate() {
            entries.push(wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            });
        }
        entries.push(wgpu::BindGroupEntry {
            binding: bound.len() as u32,
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
            let compute = gpu.pass_with(pipeline);
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
