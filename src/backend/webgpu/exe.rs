//! Compiled kernels: a [`Kernel`] becomes one to three compute pipelines ([`Stage`]s). Most
//! kernels are one stage of one invocation per output element (`wgsl`), or, with the wide
//! form turned on (`WebGpuBackend::set_wide_elementwise`), kernels without a reduction of
//! four elements per invocation (`wgsl_wide`); matrix products are
//! tiled (`wgsl_matmul`). Long reductions with
//! few outputs use workgroup trees (`wgsl_reduce`); when even one workgroup per output would
//! leave the device idle (a sum over millions of elements), the reduction axis is cut into
//! parts: the first stage writes one partial per part into a pooled temporary buffer, the
//! second reduces the partials. A kernel's epilogue runs as one more stage over its results
//! (so every reduction plan above keeps its shape). On CPU adapters only the generic kernels are used (see
//! `WebGpuBackend::set_fast_kernels`). On an adapter with a shader loop limit (`loop_budget`)
//! a reduction whose loop would run past it is cut the same way into parts of the generic
//! kernel ([`part_kernel`]), as many stages as needed; a kernel whose loops cannot be cut
//! below it is an error.

use std::cell::Cell;

use super::loop_budget::{element_loops, exp_loops, strided};
use super::{wgsl, WebGpuBackend};
use super::{wgsl_matmul, wgsl_reduce, wgsl_wide};
use crate::core::DType;
use crate::kernel::{reduce_identity, AluExp, AluKind, CompareOp, Kernel, Reduction};
use crate::util::{Error, Result};

/// Elements of the reduction axis one workgroup folds per part, when the axis is cut.
const PART: usize = 4096;
/// Cut the axis only when there are fewer outputs than this.
const FEW_OUTPUTS: usize = 1024;

#[derive(Clone)]
pub(super) struct Stage {
    pub pipeline: wgpu::ComputePipeline,
    /// The pipeline's bind group layout, asked for once (each request makes a new object).
    pub layout: wgpu::BindGroupLayout,
    /// Workgroups to dispatch along x and y.
    pub grid: (u32, u32),
    /// A tiled matrix product (counted in `tiled_dispatches`).
    pub tiled: bool,
    /// A tiled matrix product in its subgroup form (counted in `subgroup_dispatches`).
    pub subgroup: bool,
    /// An elementwise kernel in the wide form (`wgsl_wide`, counted in `wide_dispatches`).
    pub wide: bool,
}

pub(super) struct Exe {
    pub stages: Vec<Stage>,
    /// Bytes of the temporary buffer each stage but the last writes (the next stage's input).
    pub temp_bytes: Vec<usize>,
}

/// The x and y workgroup counts for `groups` workgroups: x at most 65535, and rows as even as
/// can be, so that few surplus workgroups are launched only to return (65536 workgroups are
/// 32768 × 2, not 65535 × 2 with 65534 idle).
pub(super) fn grid(groups: u32) -> (u32, u32) {
    let groups = groups.max(1);
    let y = groups.div_ceil(65535);
    (groups.div_ceil(y), y)
}

/// Compiles a WGSL compute shader (entry `main`) into a pipeline, with `layout` or the
/// shader's own. Every pipeline of the device is made here or by [`compile_entries`] and
/// counted in `compiles` (`BackendStats::shader_compiles`).
pub(super) fn compile_shader(
    device: &wgpu::Device,
    compiles: &Cell<u64>,
    source: String,
    layout: Option<&wgpu::PipelineLayout>,
) -> wgpu::ComputePipeline {
    let mut one = compile_entries(device, compiles, source, layout, &["main"]);
    one.pop().expect("one entry point")
}

/// Compiles one pipeline per entry point of a WGSL module, with `layout` or the shader's own
/// (each counted in `compiles`).
pub(super) fn compile_entries(
    device: &wgpu::Device,
    compiles: &Cell<u64>,
    source: String,
    layout: Option<&wgpu::PipelineLayout>,
    entries: &[&str],
) -> Vec<wgpu::ComputePipeline> {
    compiles.set(compiles.get() + entries.len() as u64);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let pipeline = |entry: &&str| {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout,
            module: &module,
            entry_point: Some(entry),
            compilation_options: Default::default(),
            cache: None,
        })
    };
    entries.iter().map(pipeline).collect()
}

/// A bind group layout of storage buffers (binding `i` read-only when `read_only[i]`) then
/// one 16-byte uniform read at a dynamic offset, and the pipeline layout of it alone (a
/// derived layout has no dynamic offsets).
pub(super) fn dynamic_layout(
    device: &wgpu::Device,
    read_only: &[bool],
) -> (wgpu::BindGroupLayout, wgpu::PipelineLayout) {
    let buffer =
        |binding: usize, ty, has_dynamic_offset, min_binding_size| wgpu::BindGroupLayoutEntry {
            binding: binding as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset,
                min_binding_size,
            },
            count: None,
        };
    let mut entries: Vec<_> = read_only
        .iter()
        .enumerate()
        .map(|(b, &read_only)| {
            buffer(
                b,
                wgpu::BufferBindingType::Storage { read_only },
                false,
                None,
            )
        })
        .collect();
    let uniform = wgpu::BufferBindingType::Uniform;
    entries.push(buffer(
        read_only.len(),
        uniform,
        true,
        wgpu::BufferSize::new(16),
    ));
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: None,
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    (layout, pipeline_layout)
}

impl WebGpuBackend {
    pub(super) fn make_stage(&self, source: String, grid: (u32, u32)) -> Stage {
        let pipeline = self.pipeline(source);
        Stage {
            layout: pipeline.get_bind_group_layout(0),
            pipeline,
            grid,
            tiled: false,
            subgroup: false,
            wide: false,
        }
    }

    fn pipeline(&self, source: String) -> wgpu::ComputePipeline {
        self.compile_shader(source, None)
    }

    /// [`compile_shader`] on this device.
    pub(super) fn compile_shader(
        &self,
        source: String,
        layout: Option<&wgpu::PipelineLayout>,
    ) -> wgpu::ComputePipeline {
        compile_shader(&self.device, &self.shader_compiles, source, layout)
    }

    /// One stage computing `kernel` whole (a single-stage plan).
    fn single(&self, kernel: &Kernel) -> Result<Stage> {
        // float16 kernels are emitted by `wgsl` only (f16 storage, rounding per result).
        let fast = self.fast && !super::wgsl_half::has_float16(kernel);
        // The loop over k in steps of the tile's bk (each step unrolled); loads with loops of
        // their own are not counted, so such products are not tiled under a limit.
        let subgroups = self.subgroups.filter(|_| self.use_subgroups);
        let tile = |m: &wgsl_matmul::Matmul| {
            let min = subgroups.map_or(0, |s| s.min_size);
            wgsl_matmul::tile(m, self.large_tiles, self.shared_bytes, min)
        };
        let tiled_loops = |m: &wgsl_matmul::Matmul| match exp_loops(&kernel.exp) {
            0 => strided(m.k, tile(m).bk as usize, 0) + 1,
            _ => usize::MAX,
        };
        let tiled =
            wgsl_matmul::recognise(kernel).filter(|m| fast && self.loops_fit(|| tiled_loops(m)));
        if let Some(m) = tiled {
            let tile = tile(&m);
            let mut source = wgsl_matmul::emit(kernel, &m, &tile)?;
            if let Some(s) = subgroups.filter(|_| tile.subgroup) {
                source.insert_str(0, s.prelude());
            }
            let mut stage = self.make_stage(source, wgsl_matmul::workgroups(&m, &tile));
            stage.tiled = true;
            stage.subgroup = tile.subgroup;
            return Ok(stage);
        }
        if fast && wgsl_reduce::suits(kernel) && self.loops_fit(|| tree_loops(kernel, 1)) {
            return Ok(self.make_stage(wgsl_reduce::emit(kernel, 1)?, grid(kernel.size as u32)));
        }
        if !self.loops_fit(|| element_loops(kernel)) {
            return Err(over_limit(self.loop_limit));
        }
        let wide_loops = || element_loops(kernel).saturating_mul(wgsl_wide::WIDTH);
        if self.wide && wgsl_wide::suits(kernel) && self.loops_fit(wide_loops) {
            let groups = wgsl_wide::workgroups(kernel.size);
            let mut stage = self.make_stage(wgsl_wide::emit(kernel)?, grid(groups));
            stage.wide = true;
            return Ok(stage);
        }
        Ok(self.make_stage(
            wgsl::emit_kernel(kernel)?,
            grid((kernel.size as u32).div_ceil(wgsl::WORKGROUP_SIZE)),
        ))
    }

    pub(super) fn build(&self, kernel: &Kernel) -> Result<Exe> {
        if let Some(pass) = kernel.epilogue_kernel() {
            let mut exe = self.build(&kernel.without_epilogue())?;
            exe.temp_bytes
                .push(kernel.size * kernel.output_dtype().byte_size());
            exe.stages.push(self.single(&pass)?);
            return Ok(exe);
        }
        let parts = if self.fast && !super::wgsl_half::has_float16(kernel) {
            parts(kernel)
        } else {
            1
        };
        if parts > 1 && self.loops_fit(|| tree_loops(kernel, parts)) {
            let first = self.make_stage(
                wgsl_reduce::emit(kernel, parts)?,
                grid((kernel.size * parts) as u32),
            );
            let second = self.single(&finish_kernel(kernel, parts))?;
            return Ok(Exe {
                stages: vec![first, second],
                temp_bytes: vec![kernel.size * parts * kernel.output_dtype().byte_size()],
            });
        }
        let parts = self.loop_parts(kernel)?;
        if parts <= 1 {
            return Ok(Exe {
                stages: vec![self.single(kernel)?],
                temp_bytes: Vec::new(),
            });
        }
        // Each part is a kernel whose loop fits; the partials are reduced (and cut again if
        // there are still too many) by the stages after it.
        let first = self.single(&part_kernel(kernel, parts))?;
        let mut rest = self.build(&finish_kernel(kernel, parts))?;
        rest.stages.insert(0, first);
        rest.temp_bytes
            .insert(0, kernel.size * parts * kernel.output_dtype().byte_size());
        Ok(rest)
    }

    /// How many parts `kernel`'s reduction must be cut into so that the one-invocation loop
    /// of each part stays within the adapter's loop limit (1: not cut).
    fn loop_parts(&self, kernel: &Kernel) -> Result<usize> {
        let (Some(limit), Some(red)) = (self.loop_limit, kernel.reduction) else {
            return Ok(1);
        };
        if self.loops_fit(|| element_loops(kernel)) {
            return Ok(1);
        }
        // A part of `p` terms runs (p + 1) · (1 + e) iterations (`element_loops`).
        let per_term = exp_loops(&kernel.exp) + 1;
        let longest = (limit / per_term).saturating_sub(1);
        if longest < 2 {
            return Err(over_limit(self.loop_limit));
        }
        let parts = red.size.div_ceil(longest);
        if kernel.size.saturating_mul(parts) > i32::MAX as usize {
            return Err(Error::new(
                "webgpu",
                format!("reduction of {} elements is too long", red.size),
            ));
        }
        Ok(parts)
    }
}

/// Loop iterations of a workgroup-tree reduction of `kernel` cut into `chunks` parts: the
/// strided fold, then the halving tree.
fn tree_loops(kernel: &Kernel, chunks: usize) -> usize {
    let part = kernel.reduction.map_or(0, |r| r.size.div_ceil(chunks));
    let lanes = wgsl_reduce::REDUCE_WORKGROUP as usize;
    strided(part, lanes, exp_loops(&kernel.exp)) + lanes.ilog2() as usize + 1
}

/// The error of a kernel whose loops cannot be cut to fit the adapter's loop limit.
fn over_limit(limit: Option<usize>) -> Error {
    Error::new(
        "webgpu",
        format!(
            "a kernel's loops run past this adapter's limit of {} loop iterations per shader \
             invocation (Mesa llvmpipe); run it on another device",
            limit.unwrap_or(usize::MAX)
        ),
    )
}

/// Part `o % parts` of output `o / parts` of `kernel`'s reduction (cut into `parts` runs of
/// consecutive terms, the last one possibly shorter): the generic kernel with the output
/// and reduction indices rewritten, its outputs stored output-major like the workgroup
/// tree's partials (so [`finish_kernel`] reduces them). The epilogue is not part of it.
pub(super) fn part_kernel(kernel: &Kernel, parts: usize) -> Kernel {
    let red = kernel.reduction.expect("only reductions are cut");
    let part = red.size.div_ceil(parts);
    let term = AluExp::index_add(
        AluExp::index_mul(AluExp::index_rem(AluExp::index(), parts), part as isize),
        AluExp::reduce_index(),
    );
    let exp = kernel.exp.rewrite(&|e| match e.kind {
        AluKind::Index => Some(AluExp::index_div(AluExp::index(), parts)),
        AluKind::ReduceIndex => Some(term.clone()),
        _ => None,
    });
    let dtype = kernel.output_dtype();
    // The last part runs past the axis when `parts` does not divide it: those terms are the
    // identity, their expression never evaluated.
    let exp = if part * parts > red.size {
        let inside = AluExp::compare(
            CompareOp::Lt,
            term,
            AluExp::constant(DType::Int32, red.size as f64),
        );
        let identity = AluExp::constant(dtype, reduce_identity(red.op, dtype));
        AluExp::where_(inside, exp, identity)
    } else {
        exp
    };
    Kernel {
        inputs: kernel.inputs.clone(),
        size: kernel.size * parts,
        exp,
        reduction: Some(Reduction {
            op: red.op,
            size: part,
        }),
        epilogue: None,
    }
}

/// How many parts to cut `kernel`'s reduction axis into (1: not cut).
pub(super) fn parts(kernel: &Kernel) -> usize {
    match kernel.reduction {
        Some(red) if wgsl_reduce::suits(kernel) && kernel.size < FEW_OUTPUTS => {
            let parts = red.size.div_ceil(PART);
            if parts >= 2 {
                parts
            } else {
                1
            }
        }
        _ => 1,
    }
}

/// The kernel reducing the `parts` partial results of each output (stored output-major).
pub(super) fn finish_kernel(kernel: &Kernel, parts: usize) -> Kernel {
    let red = kernel.reduction.expect("only reductions are cut");
    let dtype = kernel.output_dtype();
    let index = AluExp::index_add(
        AluExp::index_mul(AluExp::index(), parts as isize),
        AluExp::reduce_index(),
    );
    Kernel {
        inputs: vec![dtype],
        size: kernel.size,
        exp: AluExp::load(dtype, 0, index),
        reduction: Some(Reduction {
            op: red.op,
            size: parts,
        }),
        epilogue: None,
    }
}
