//! Workgroup-tree reductions: one workgroup of [`REDUCE_WORKGROUP`] invocations computes one
//! output element. Each invocation folds a strided slice of the reduction axis (neighbouring
//! invocations read neighbouring elements), then the workgroup halves its partial results in
//! shared memory. Float32 sums carry a Neumaier compensation per invocation and combine
//! partials with the same error-free step, so the result stays within a few ulp of the
//! interpreter's f64 accumulation (the order differs from the one-invocation loop, so the
//! tests compare long sums with a tolerance; integer sums, max and min are exact).
//!
//! With `chunks > 1` the reduction axis is cut into `chunks` consecutive parts and workgroup
//! `o` writes the partial result of part `o % chunks` of output `o / chunks`; a second
//! reducing kernel over the parts finishes the job (see `plan` in the backend). This keeps a
//! sum over millions of elements with one output spread over thousands of workgroups.

use std::fmt::Write;

use super::wgsl::{combine, compensated_sum};
use super::wgsl_alu::{storage_type, to_storage, value_type, Emitter};
use crate::core::DType;
use crate::kernel::{reduce_identity, verify, Kernel, ReduceOp, Reduction};
use crate::util::{Error, Result};

/// Invocations per workgroup of a workgroup-tree reduction (a power of two).
pub const REDUCE_WORKGROUP: u32 = 256;

/// Whether the workgroup tree suits `kernel`: a long reduction with too few outputs to keep
/// the device busy with one invocation each (bool ones too: `all`/`any`, folded by `&`/`|`).
pub fn suits(kernel: &Kernel) -> bool {
    match kernel.reduction {
        Some(red) => {
            red.size >= REDUCE_WORKGROUP as usize
                && kernel.size <= 32 * 1024
                && (kernel.output_dtype() != DType::Bool
                    || matches!(red.op, ReduceOp::Max | ReduceOp::Min))
        }
        None => false,
    }
}

/// The WGSL of `kernel` as a workgroup-tree reduction over `chunks` parts of its axis.
pub fn emit(kernel: &Kernel, chunks: usize) -> Result<String> {
    verify::verify(kernel)?;
    let Some(red) = kernel.reduction else {
        return Err(Error::new("webgpu", "internal error: not a reduction"));
    };
    let dtype = kernel.output_dtype();
    let ty = value_type(dtype)?;
    let compensated = compensated_sum(red.op, dtype, red.size);
    let comp = |name| compensated.then_some(name);
    let Reduction { size: r_size, op } = red;
    if r_size > i32::MAX as usize || kernel.size.saturating_mul(chunks) > u32::MAX as usize {
        return Err(Error::new(
            "webgpu",
            format!("reduction of {r_size} elements is too long"),
        ));
    }
    let part = r_size.div_ceil(chunks);
    let outputs = kernel.size * chunks;
    let mut header = bindings(kernel)?;
    let mut e = Emitter::new(kernel.inputs.len(), "      ");
    e.set_indent("  ");
    let identity = e.constant(dtype, reduce_identity(op, dtype))?;
    writeln!(e.body, "  var acc: {ty} = {identity};").unwrap();
    writeln!(e.body, "  var comp: f32 = 0.0f;").unwrap();
    writeln!(
        e.body,
        "  for (var rl: u32 = lane; rl < {part}u; rl = rl + {REDUCE_WORKGROUP}u) {{\n    \
         let r = i32(chunk * {part}u + rl);\n    if (r < {r_size}i) {{"
    )
    .unwrap();
    e.set_indent("      ");
    let x = e.emit(&kernel.exp)?;
    let fold = combine(&mut e, op, dtype, "acc", comp("comp"), &x).replace("\n    ", "\n      ");
    writeln!(e.body, "      {fold}\n    }}\n  }}").unwrap();
    e.set_indent("  ");
    let result = tree(&mut e, op, dtype, ty, compensated);
    e.use_unloaded_inputs("  ");
    let store = to_storage(dtype, result);
    let comp_decl = if compensated {
        format!("var<workgroup> ox_comp: array<f32, {REDUCE_WORKGROUP}>;\n")
    } else {
        String::new()
    };
    write!(
        header,
        "var<private> ox_zp: u32;
var<workgroup> ox_acc: array<{ty}, {REDUCE_WORKGROUP}>;
{comp_decl}
@compute @workgroup_size({REDUCE_WORKGROUP})
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) lane: u32,
        @builtin(num_workgroups) groups: vec3<u32>) {{
  let o = wid.x + wid.y * groups.x;
  if (o >= {outputs}u) {{ return; }}
  ox_zp = wid.z;
  let idx = o / {chunks}u;
  let chunk = o % {chunks}u;
  let i = i32(idx);
{body}  if (lane == 0u) {{ out[o] = {store}; }}
}}
",
        body = e.body
    )
    .unwrap();
    header.push_str(&e.helpers.source());
    Ok(header)
}

/// The storage bindings of `kernel`'s inputs and its output.
fn bindings(kernel: &Kernel) -> Result<String> {
    let mut header = String::new();
    for (i, &input) in kernel.inputs.iter().enumerate() {
        let t = storage_type(input)?;
        writeln!(
            header,
            "@group(0) @binding({i}) var<storage, read> in{i}: array<{t}>;"
        )
        .unwrap();
    }
    writeln!(
        header,
        "@group(0) @binding({}) var<storage, read_write> out: array<{}>;",
        kernel.inputs.len(),
        storage_type(kernel.output_dtype())?
    )
    .unwrap();
    Ok(header)
}

/// The tree after each invocation's fold: partial results (and compensations) halve in
/// shared memory; returns the name of the workgroup's result.
fn tree(e: &mut Emitter, op: ReduceOp, dtype: DType, ty: &str, compensated: bool) -> &'static str {
    let comp = |name| compensated.then_some(name);
    writeln!(e.body, "  ox_acc[lane] = acc;").unwrap();
    if compensated {
        writeln!(e.body, "  ox_comp[lane] = comp;").unwrap();
    }
    writeln!(e.body, "  workgroupBarrier();").unwrap();
    writeln!(
        e.body,
        "  for (var s: u32 = {}u; s > 0u; s = s >> 1u) {{\n    if (lane < s) {{\n      \
         var a: {ty} = ox_acc[lane];\n      let b: {ty} = ox_acc[lane + s];",
        REDUCE_WORKGROUP / 2
    )
    .unwrap();
    if compensated {
        writeln!(
            e.body,
            "      var c: f32 = ox_comp[lane] + ox_comp[lane + s];"
        )
        .unwrap();
    } else {
        writeln!(e.body, "      var c: f32 = 0.0f;").unwrap();
    }
    let merge = combine(e, op, dtype, "a", comp("c"), "b").replace("\n    ", "\n      ");
    writeln!(e.body, "      {merge}\n      ox_acc[lane] = a;").unwrap();
    if compensated {
        writeln!(e.body, "      ox_comp[lane] = c;").unwrap();
    }
    writeln!(e.body, "    }}\n    workgroupBarrier();\n  }}").unwrap();
    writeln!(e.body, "  let total: {ty} = ox_acc[0];").unwrap();
    if compensated {
        // The compensation is meaningless once the sum is ±∞ or NaN.
        writeln!(
            e.body,
            "  let sum = select(total, total + ox_comp[0], \
             (bitcast<u32>(total) & 0x7f800000u) != 0x7f800000u);"
        )
        .unwrap();
        "sum"
    } else {
        "total"
    }
}
