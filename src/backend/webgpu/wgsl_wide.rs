//! The wide form of the generic elementwise kernel (`wgsl`): each invocation computes
//! [`WIDTH`] consecutive output elements, so a memory-bound kernel moves 16 bytes per load and
//! store instead of 4. It is the default (`WebGpuBackend::set_wide_elementwise(false)` turns
//! it off): `exe` uses it for every kernel without a reduction whose loops fit the adapter's
//! limit.
//!
//! Each element is the one-element kernel's expression, emitted once per lane by the same
//! emitter (`wgsl_alu`: the exact arithmetic of float `+ − ×` through `ox_keep`, the helpers,
//! float16 rounding), in a block of its own that binds `i` to the lane's element, so every
//! lane's bits are the one-element kernel's. What changes is memory access:
//!
//! - an input of a 32-bit dtype (float32, int32, uint32, bool as `u32`) that some load reads
//!   at `i + c` with `c` a multiple of [`WIDTH`] (contiguous in the output index, vector
//!   aligned) is bound as `array<vec4<T>>`; each such `c` is loaded once per invocation as one
//!   vector, lane `j` reading its component `j`. Other loads of that input read their element
//!   through the vectors (`in[k >> 2][k & 3]`); loads at unaligned offsets, and every load of
//!   a float16 input (`u32` words, `wgsl_half`), stay scalar loads of each lane's index;
//! - a 32-bit output is bound as `array<vec4<T>>` and written as one vector per invocation;
//!   when the size is not a multiple of [`WIDTH`], the last invocation writes only its
//!   elements in range, component by component. A float16 output is written element by
//!   element.
//!
//! Lanes past the end compute the last element again (their index is clamped), and are not
//! stored. Every buffer a kernel binds is a pool size class (`pool::size_class`, a multiple of
//! 256 bytes), so the vector holding any element in range lies inside its binding.

use std::fmt::Write;

use super::wgsl::WORKGROUP_SIZE;
use super::wgsl_alu::{input_type, storage_type, to_storage, value_type, Emitter};
use super::wgsl_lib::Helper;
use crate::core::DType;
use crate::kernel::{verify, AluExp, AluKind, BinaryOp, Kernel};
use crate::util::Result;

/// Output elements per invocation (the components of a `vec4`).
pub const WIDTH: usize = 4;

/// Whether `kernel` has the wide form: no reduction (and so no epilogue).
pub fn suits(kernel: &Kernel) -> bool {
    kernel.reduction.is_none() && kernel.epilogue.is_none()
}

/// Workgroups of [`WORKGROUP_SIZE`] invocations that cover `size` elements in the wide form.
pub fn workgroups(size: usize) -> u32 {
    (size.div_ceil(WIDTH) as u32).div_ceil(WORKGROUP_SIZE)
}

/// `c` where `index` is `i + c` (the output index plus a constant).
pub(super) fn offset(index: &AluExp) -> Option<i64> {
    let constant = |e: &AluExp| e.const_value().map(|c| c as i64);
    match &index.kind {
        AluKind::Index => Some(0),
        AluKind::Binary(BinaryOp::Add, a, b) => match (&a.kind, &b.kind) {
            (AluKind::Index, _) => constant(b),
            (_, AluKind::Index) => constant(a),
            _ => None,
        },
        AluKind::Binary(BinaryOp::Sub, a, b) if a.kind == AluKind::Index => constant(b).map(|c| -c),
        _ => None,
    }
}

/// Whether a load of `dtype` at `index` reads one component of a vector (see the module
/// comment); returns the vector's offset in vectors.
fn vector_offset(dtype: DType, index: &AluExp) -> Option<i64> {
    let c = offset(index)?;
    (dtype.byte_size() == 4 && c % WIDTH as i64 == 0).then_some(c / WIDTH as i64)
}

/// The loads of an emitter in the wide form: which inputs are bound as vectors, and the lane
/// being emitted.
pub(super) struct Lanes {
    pub vector: Vec<bool>,
    pub lane: usize,
}

impl Lanes {
    /// The component of a vector loaded before that a load of `input` (of `dtype`) at `index`
    /// reads in this lane, if it is one (see [`vector_name`]).
    pub fn component(&self, input: usize, dtype: DType, index: &AluExp) -> Option<String> {
        let k = vector_offset(dtype, index).filter(|_| self.vector[input])?;
        Some(format!("{}[{}]", vector_name(input, k), self.lane))
    }

    /// The storage word of element `ix` (an i32 expression) of a 32-bit `input`.
    pub fn element(&self, input: usize, ix: &str) -> String {
        if self.vector[input] {
            format!("in{input}[u32({ix}) >> 2u][u32({ix}) & 3u]")
        } else {
            format!("in{input}[u32({ix})]")
        }
    }
}

/// The name of the vector of `input` at `k` vectors past the invocation's own.
fn vector_name(input: usize, k: i64) -> String {
    if k < 0 {
        format!("x{input}_m{}", -k)
    } else {
        format!("x{input}_{k}")
    }
}

/// The vector loads of `exp`: (input, offset in vectors), each once, in order of appearance.
fn vector_loads(exp: &AluExp, inputs: &[DType], out: &mut Vec<(usize, i64)>) {
    if let AluKind::Load { input, index } = &exp.kind {
        if let Some(k) = vector_offset(inputs[*input], index) {
            if !out.contains(&(*input, k)) {
                out.push((*input, k));
            }
        }
    }
    for child in exp.children() {
        vector_loads(child, inputs, out);
    }
}

/// The wide form of `kernel` (which [`suits`] it), dispatched over [`workgroups`] workgroups.
pub fn emit(kernel: &Kernel) -> Result<String> {
    verify::verify(kernel)?;
    let dtype = kernel.output_dtype();
    let size = kernel.size;
    let half = super::wgsl_half::has_float16(kernel);
    let mut loads = Vec::new();
    vector_loads(&kernel.exp, &kernel.inputs, &mut loads);
    let vector: Vec<bool> = (0..kernel.inputs.len())
        .map(|j| loads.iter().any(|&(input, _)| input == j))
        .collect();
    let vector_out = dtype.byte_size() == 4;
    let mut src = if half {
        super::wgsl_half::ENABLE.to_string()
    } else {
        String::new()
    };
    for (j, &input) in kernel.inputs.iter().enumerate() {
        let ty = input_type(input)?;
        let ty = if vector[j] {
            format!("vec4<{ty}>")
        } else {
            ty.to_string()
        };
        writeln!(
            src,
            "@group(0) @binding({j}) var<storage, read> in{j}: array<{ty}>;"
        )
        .unwrap();
    }
    let out_ty = storage_type(dtype)?;
    let out_ty = if vector_out {
        format!("vec4<{out_ty}>")
    } else {
        out_ty.to_string()
    };
    writeln!(
        src,
        "@group(0) @binding({}) var<storage, read_write> out: array<{out_ty}>;",
        kernel.inputs.len()
    )
    .unwrap();

    let mut e = Emitter::new(kernel.inputs.len(), "    ");
    let mut body = String::new();
    for &(input, k) in &loads {
        let name = vector_name(input, k);
        writeln!(body, "  let {name} = in{input}[u32(i32(q) + ({k}i))];").unwrap();
    }
    let ty = value_type(dtype)?;
    let whole = size.is_multiple_of(WIDTH);
    for lane in 0..WIDTH {
        e.lanes = Some(Lanes {
            vector: vector.clone(),
            lane,
        });
        let element = if whole {
            format!("base + {lane}u")
        } else {
            format!("min(base + {lane}u, {}u)", size - 1)
        };
        writeln!(
            body,
            "  var r{lane}: {ty};\n  {{\n    let i = i32({element});"
        )
        .unwrap();
        e.body.clear();
        let v = e.emit(&kernel.exp)?;
        body.push_str(&e.body);
        writeln!(body, "    r{lane} = {v};\n  }}").unwrap();
    }
    e.lanes = None;
    if half {
        e.helpers.add(Helper::Half);
    }
    e.body.clear();
    e.use_unloaded_inputs("  ");
    body.push_str(&e.body);
    let stored: Vec<String> = (0..WIDTH)
        .map(|j| to_storage(dtype, &format!("r{j}")))
        .collect();
    body.push_str(&store(vector_out, whole, out_ty.as_str(), size, &stored));
    let quads = size.div_ceil(WIDTH);
    write!(
        src,
        "var<private> ox_zp: u32;

@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {{
  let q = gid.x + gid.y * groups.x * {WORKGROUP_SIZE}u;
  if (q >= {quads}u) {{ return; }}
  ox_zp = gid.z;
  let base = q * {WIDTH}u;
{body}}}
"
    )
    .unwrap();
    src.push_str(&e.helpers.source());
    Ok(src)
}

/// The statements writing the lanes' values `stored` (storage expressions) as one vector
/// (`vector`) or element by element; unless `whole` (the size is a multiple of [`WIDTH`]),
/// only the elements below `size`.
fn store(vector: bool, whole: bool, ty: &str, size: usize, stored: &[String]) -> String {
    let mut s = String::new();
    let guard = |j: usize| format!("base + {j}u < {size}u");
    if vector {
        let all = format!("out[q] = {ty}({});", stored.join(", "));
        if whole {
            writeln!(s, "  {all}").unwrap();
            return s;
        }
        writeln!(
            s,
            "  if ({}) {{\n    {all}\n    return;\n  }}",
            guard(WIDTH - 1)
        )
        .unwrap();
        for (j, v) in stored.iter().enumerate().take(WIDTH - 1) {
            writeln!(s, "  if ({}) {{ out[q][{j}] = {v}; }}", guard(j)).unwrap();
        }
        return s;
    }
    for (j, v) in stored.iter().enumerate() {
        let write = format!("out[base + {j}u] = {v};");
        if whole {
            writeln!(s, "  {write}").unwrap();
        } else {
            writeln!(s, "  if ({}) {{ {write} }}", guard(j)).unwrap();
        }
    }
    s
}
