//! The pre-encoded scan (bodies too large for one workgroup): every step's kernels are
//! encoded into ONE compute pass of the current batch — one submit for the whole scan, no host
//! round trip per step. Each body kernel is a pipeline of its own (the ordinary one-invocation-
//! per-element emitter) whose xs/ys rows are addressed by the step's row index, read from a
//! uniform buffer at a dynamic offset (one 256-byte-aligned entry per step), so the kernels'
//! WGSL does not depend on the length and their pipelines are cached by it. Carries
//! ping-pong between the planner's carry-in and carry-out buffers: odd steps bind them swapped,
//! so no copy runs between steps; the initial carries are copied in before the pass and the
//! final ones out after it.

use std::fmt::Write;

use crate::backend::caps::WEBGPU_ENCODED_MAX_UNIFORM_BYTES;
use crate::backend::webgpu::exe::grid;
use crate::backend::webgpu::wgsl::{entry_point, epilogue_into, reduce_into, WORKGROUP_SIZE};
use crate::backend::webgpu::wgsl_alu::{storage_type, to_storage, Emitter};
use crate::backend::webgpu::{padded, WebGpuBackend, MAX_BATCH};
use crate::backend::BufferId;
use crate::kernel::device_program::{DeviceProgram, LoopBuffers, LoopStep, SlotRole};
use crate::kernel::{verify, Kernel};
use crate::util::{Error, Result};

/// One body kernel of a pre-encoded loop.
pub(super) struct EncodedOp {
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    grid: (u32, u32),
    inputs: Vec<usize>,
    output: usize,
}

pub(super) struct Encoded {
    ops: Vec<EncodedOp>,
    /// The row index of every step, one entry per `stride` bytes.
    rows: wgpu::Buffer,
    stride: u64,
    /// (carry-in slot, carry-out slot) of each carry.
    carries: Vec<(usize, usize)>,
    length: usize,
}

impl Encoded {
    pub fn ops(&self) -> usize {
        self.ops.len()
    }
}

/// The WGSL of one body kernel: like `wgsl::emit_kernel`, plus the step's row (`ox_row`, from
/// the uniform) offsetting the inputs and the output that are xs/ys rows (`row_elems` > 0).
fn emit(kernel: &Kernel, input_rows: &[usize], output_row: usize) -> Result<String> {
    verify::verify(kernel)?;
    let n = kernel.inputs.len();
    let mut src = String::new();
    for (i, &input) in kernel.inputs.iter().enumerate() {
        let ty = storage_type(input)?;
        writeln!(
            src,
            "@group(0) @binding({i}) var<storage, read> in{i}: array<{ty}>;"
        )
        .unwrap();
    }
    let dtype = kernel.output_dtype();
    writeln!(
        src,
        "@group(0) @binding({n}) var<storage, read_write> out: array<{}>;
@group(0) @binding({}) var<uniform> ox_step: vec4<u32>;",
        storage_type(dtype)?,
        n + 1
    )
    .unwrap();
    let mut e = Emitter::new(n, "  ");
    e.offsets = Some(
        input_rows
            .iter()
            .map(|&r| format!("i32(ox_step.x * {r}u)"))
            .collect(),
    );
    let value = match kernel.reduction {
        None => e.emit(&kernel.exp)?,
        Some(red) => reduce_into(&mut e, kernel, red, "  ")?,
    };
    let value = epilogue_into(&mut e, kernel, value)?;
    e.use_unloaded_inputs("  ");
    let target = format!("ox_step.x * {output_row}u + idx");
    let store = to_storage(dtype, &value);
    src.push_str(&entry_point(kernel.size, &e.body, &target, &store));
    src.push_str(&e.helpers.source());
    Ok(src)
}

impl WebGpuBackend {
    /// The pre-encoded form of `plan`, or why it has none (routines in the body).
    pub(super) fn build_encoded(&mut self, plan: &DeviceProgram) -> Result<Encoded> {
        let body = &plan.body;
        let stride = (self.device.limits().min_uniform_buffer_offset_alignment as u64).max(16);
        if plan.length as u64 * stride > WEBGPU_ENCODED_MAX_UNIFORM_BYTES {
            return Err(Error::new("scan", "too many steps to pre-encode"));
        }
        let row_elems = |s: usize| match body.slots[s].role {
            SlotRole::XRow(_) | SlotRole::YRow(_) => body.slots[s].elements,
            _ => 0,
        };
        let mut ops = Vec::with_capacity(body.steps.len());
        for step in &body.steps {
            let (kernel, inputs, output) = match step {
                LoopStep::Kernel {
                    kernel,
                    inputs,
                    output,
                } => (kernel, inputs, *output),
                LoopStep::Routine { routine, .. } => {
                    return Err(Error::new(
                        "scan",
                        format!("the body runs the routine {}", routine.name()),
                    ))
                }
                LoopStep::Loop { .. } => {
                    return Err(Error::new("scan", "the body runs a nested scan"))
                }
            };
            if !self.loops_fit(|| crate::backend::webgpu::loop_budget::element_loops(kernel)) {
                return Err(Error::new(
                    "scan",
                    "a body kernel's loops run past the adapter's loop limit",
                ));
            }
            let rows: Vec<usize> = inputs.iter().map(|&s| row_elems(s)).collect();
            let source = emit(kernel, &rows, row_elems(output))?;
            let (pipeline, layout) = self.dynamic_pipeline(source, inputs.len());
            ops.push(EncodedOp {
                pipeline,
                layout,
                grid: grid((kernel.size as u32).div_ceil(WORKGROUP_SIZE)),
                inputs: inputs.clone(),
                output,
            });
        }
        let mut data = vec![0u8; (plan.length.max(1) as u64 * stride) as usize];
        for t in 0..plan.length {
            let row = if plan.reverse { plan.length - 1 - t } else { t } as u32;
            let at = t * stride as usize;
            data[at..at + 4].copy_from_slice(&row.to_le_bytes());
        }
        let rows = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("oxjax scan rows"),
            size: data.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.queue.write_buffer(&rows, 0, &data);
        let carries = (0..body.num_carry)
            .map(|k| (body.carry_in(k), body.carry_out(k)))
            .collect();
        Ok(Encoded {
            ops,
            rows,
            stride,
            carries,
            length: plan.length,
        })
    }

    /// A pipeline over `inputs` storage buffers, the output, and a uniform with a dynamic
    /// offset (an explicit layout: derived layouts have no dynamic offsets).
    fn dynamic_pipeline(
        &mut self,
        source: String,
        inputs: usize,
    ) -> (wgpu::ComputePipeline, wgpu::BindGroupLayout) {
        if let Some(built) = self.loops.encoded_pipelines.get(&source) {
            return built.clone();
        }
        let mut read_only = vec![true; inputs];
        read_only.push(false);
        let (layout, pipeline_layout) =
            crate::backend::webgpu::exe::dynamic_layout(&self.device, &read_only);
        let pipeline = self.compile_shader(source.clone(), Some(&pipeline_layout));
        let built = (pipeline, layout);
        self.loops.encoded_pipelines.insert(source, built.clone());
        built
    }

    /// Encodes every step of `enc` into one compute pass of the batch.
    pub(super) fn run_encoded(
        &mut self,
        enc: &Encoded,
        buffers: LoopBuffers<'_, BufferId>,
    ) -> Result<()> {
        let missing = || Error::new("scan", "internal error: a loop buffer is missing");
        let gpu = |id: Option<&BufferId>| -> Result<(wgpu::Buffer, usize)> {
            let b = self.buffer(*id.ok_or_else(missing)?)?;
            Ok((b.gpu.clone(), b.bytes))
        };
        let mut slots = Vec::with_capacity(buffers.slots.len());
        for s in 0..buffers.slots.len() {
            slots.push(gpu(buffers.slots.get(s))?.0);
        }
        let mut copies_in = Vec::new();
        let mut copies_out = Vec::new();
        for (k, &(cin, cout)) in enc.carries.iter().enumerate() {
            let (init, bytes) = gpu(buffers.init.get(k))?;
            let (fin, _) = gpu(buffers.finals.get(k))?;
            copies_in.push((init, slots[cin].clone(), bytes));
            let last = if enc.length.is_multiple_of(2) {
                cin
            } else {
                cout
            };
            copies_out.push((slots[last].clone(), fin, bytes));
        }
        // Two bind groups per op: even steps as planned, odd steps with carries swapped.
        let swap = |s: usize, odd: bool| -> usize {
            if !odd {
                return s;
            }
            for &(cin, cout) in &enc.carries {
                if s == cin {
                    return cout;
                }
                if s == cout {
                    return cin;
                }
            }
            s
        };
        let mut groups = Vec::with_capacity(enc.ops.len());
        for op in &enc.ops {
            let pair: Vec<wgpu::BindGroup> = [false, true]
                .iter()
                .map(|&odd| {
                    let mut entries: Vec<wgpu::BindGroupEntry> = op
                        .inputs
                        .iter()
                        .chain([&op.output])
                        .enumerate()
                        .map(|(b, &s)| wgpu::BindGroupEntry {
                            binding: b as u32,
                            resource: slots[swap(s, odd)].as_entire_binding(),
                        })
                        .collect();
                    entries.push(wgpu::BindGroupEntry {
                        binding: op.inputs.len() as u32 + 1,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &enc.rows,
                            offset: 0,
                            size: wgpu::BufferSize::new(16),
                        }),
                    });
                    self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: None,
                        layout: &op.layout,
                        entries: &entries,
                    })
                })
                .collect();
            groups.push(pair);
        }
        self.buffer_copies += copies_in
            .iter()
            .chain(&copies_out)
            .filter(|c| c.2 > 0)
            .count() as u64;
        let encoder = self.encoder();
        for (src, dst, bytes) in &copies_in {
            if *bytes > 0 {
                encoder.copy_buffer_to_buffer(src, 0, dst, 0, padded(*bytes));
            }
        }
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            for t in 0..enc.length {
                let offset = (t as u64 * enc.stride) as u32;
                for (op, pair) in enc.ops.iter().zip(&groups) {
                    pass.set_pipeline(&op.pipeline);
                    pass.set_bind_group(0, &pair[t % 2], &[offset]);
                    pass.dispatch_workgroups(op.grid.0, op.grid.1, 1);
                }
            }
        }
        for (src, dst, bytes) in &copies_out {
            if *bytes > 0 {
                encoder.copy_buffer_to_buffer(src, 0, dst, 0, padded(*bytes));
            }
        }
        self.dispatches += (enc.length * enc.ops.len()) as u64;
        self.pending += 1;
        if self.pending >= MAX_BATCH {
            self.flush();
        }
        Ok(())
    }
}
