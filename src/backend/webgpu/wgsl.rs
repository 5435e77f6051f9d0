//! Kernel IR → WGSL compute shader. Bindings are the inputs in order, then the output; each
//! invocation computes one output element. Bool is stored as `u32` (0 or 1). The expression is
//! emitted by `wgsl_alu`, the helper functions it calls come from `wgsl_lib`.
//!
//! A reduction runs as a loop inside the invocation of its output element, over
//! `r in 0..size`, starting from [`reduce_identity`] (on an adapter with a loop limit, `exe`
//! cuts longer ones into parts: `loop_budget`). Float sums of more than
//! [`PLAIN_SUM_TERMS`] terms are compensated (Neumaier), so they stay within an ulp or so of
//! the interpreter's f64 accumulation whatever the order of magnitudes; shorter ones are plain
//! float32 sums, bit for bit what the compensated sum would give (see [`compensated_sum`]).
//! Every webgpu shader that sums (this one, the scan shaders, the tree reductions) follows
//! that one rule, so the serial and level-scheduled scan shaders stay bit-identical. Other
//! combinations follow the interpreter's binary operations. Long reductions
//! with few outputs use workgroup trees instead (`wgsl_reduce`), matrix products tiles
//! (`wgsl_matmul`); `exe` chooses.

use std::fmt::Write;

use super::wgsl_alu::{input_type, storage_type, to_storage, value_type, Emitter};
use super::wgsl_lib::Helper;
use crate::core::DType;
use crate::kernel::{reduce_identity, verify, Kernel, ReduceOp, Reduction};
use crate::util::{Error, Result};

/// Invocations per workgroup along x.
pub const WORKGROUP_SIZE: u32 = 256;

pub fn emit_kernel(kernel: &Kernel) -> Result<String> {
    verify::verify(kernel)?;
    let dtype = kernel.output_dtype();
    let half = super::wgsl_half::has_float16(kernel);
    let mut header = if half {
        super::wgsl_half::ENABLE.to_string()
    } else {
        String::new()
    };
    for (i, &input) in kernel.inputs.iter().enumerate() {
        let ty = input_type(input)?;
        writeln!(
            header,
            "@group(0) @binding({i}) var<storage, read> in{i}: array<{ty}>;"
        )
        .unwrap();
    }
    writeln!(
        header,
        "@group(0) @binding({}) var<storage, read_write> out: array<{}>;",
        kernel.inputs.len(),
        storage_type(dtype)?
    )
    .unwrap();

    let (mut emitter, result) = match kernel.reduction {
        None => {
            let mut e = Emitter::new(kernel.inputs.len(), "  ");
            let v = e.emit(&kernel.exp)?;
            (e, v)
        }
        Some(red) => reduction(kernel, red)?,
    };
    if half {
        emitter.helpers.add(Helper::Half);
    }
    emitter.use_unloaded_inputs("  ");
    let store = to_storage(dtype, &result);
    header.push_str(&entry_point(kernel.size, &emitter.body, "idx", &store));
    header.push_str(&emitter.helpers.source());
    Ok(header)
}

/// The statements of a reducing kernel; returns the emitter and the name of the result.
/// The entry point over `size` outputs, one invocation each (`idx`, and `i` as i32; `ox_zp`
/// is the dispatch's z, read by opaque zeros), returning past the end: `body`, then
/// `out[{target}] = {store};`.
pub(super) fn entry_point(size: usize, body: &str, target: &str, store: &str) -> String {
    format!(
        "var<private> ox_zp: u32;

@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {{
  let idx = gid.x + gid.y * groups.x * {WORKGROUP_SIZE}u;
  if (idx >= {size}u) {{ return; }}
  let i = i32(idx);
  ox_zp = gid.z;
{body}  out[{target}] = {store};
}}
"
    )
}

fn reduction(kernel: &Kernel, red: Reduction) -> Result<(Emitter, String)> {
    let mut e = Emitter::new(kernel.inputs.len(), "  ");
    let result = reduce_into(&mut e, kernel, red, "  ")?;
    Ok((e, result))
}

/// Emits into `e` (at `indent`) the loop reducing `kernel`'s expression for the current output
/// element; returns the name of the result. Shared with the looping scan shader.
pub(super) fn reduce_into(
    e: &mut Emitter,
    kernel: &Kernel,
    red: Reduction,
    indent: &str,
) -> Result<String> {
    let dtype = kernel.output_dtype();
    let ty = value_type(dtype)?;
    if dtype == DType::Bool && matches!(red.op, ReduceOp::Sum | ReduceOp::Prod) {
        return Err(Error::new(
            "webgpu",
            format!("{:?} reduction of bool is not defined", red.op),
        ));
    }
    if red.size > i32::MAX as usize {
        return Err(Error::new(
            "webgpu",
            format!("reduction of {} elements is too long", red.size),
        ));
    }
    e.set_indent(indent);
    let identity = e.constant(dtype, reduce_identity(red.op, dtype))?;
    // float16 accumulates in f32 (compensated sums) and rounds once at the end.
    let (half, dtype) = (dtype == DType::Float16, super::wgsl_alu::wide(dtype));
    let compensated = compensated_sum(red.op, dtype, red.size);
    writeln!(e.body, "{indent}var acc: {ty} = {identity};").unwrap();
    if compensated {
        writeln!(e.body, "{indent}var comp: f32 = 0.0f;").unwrap();
    }
    writeln!(
        e.body,
        "{indent}for (var r: i32 = 0i; r < {}i; r = r + 1i) {{",
        red.size
    )
    .unwrap();
    let inner = format!("{indent}  ");
    e.set_indent(&inner);
    let x = e.emit(&kernel.exp)?;
    let comp = compensated.then_some("comp");
    let combine =
        combine(e, red.op, dtype, "acc", comp, &x).replace("\n    ", &format!("\n{inner}"));
    writeln!(e.body, "{inner}{combine}\n{indent}}}").unwrap();
    e.set_indent(indent);
    let result = if compensated {
        // The compensation is meaningless once the sum is ±∞ or NaN.
        writeln!(
            e.body,
            "{indent}let sum = select(acc, acc + comp, (bitcast<u32>(acc) & 0x7f800000u) != 0x7f800000u);"
        )
        .unwrap();
        "sum".to_string()
    } else {
        "acc".to_string()
    };
    if half {
        e.helpers.add(Helper::Half);
        writeln!(e.body, "{indent}let acc16 = ox_round_f16({result});").unwrap();
        return Ok("acc16".to_string());
    }
    Ok(result)
}

/// Emits `kernel`'s epilogue (if any) over the value named `value` in the same invocation;
/// returns the name of the result (the scan shaders; ordinary kernels run it as a stage).
pub(super) fn epilogue_into(e: &mut Emitter, kernel: &Kernel, value: String) -> Result<String> {
    match &kernel.epilogue {
        None => Ok(value),
        Some(ep) => {
            e.substitute = Some(value);
            let result = e.emit(ep);
            e.substitute = None;
            result
        }
    }
}

/// Float32 sums of at most this many terms are not compensated. For two terms the
/// compensation is exactly the rounding error `e` of `t = fl(a + b)` (Fast2Sum), so the
/// compensated result `fl(t + e)` rounds the exact `a + b` again: it is `t`, bit for bit (a
/// subnormal `e` flushed to zero gives `t` too; ±∞ and NaN drop the compensation anyway).
/// Dropping it shortens the dependent chain of tiny matrix products without changing any
/// result (2×2 `matmul`s in the serial scan shader, H100, case 2 with m = 2: 0.25 → 0.15 µs
/// per step); longer sums keep it, so their accuracy bounds stand.
pub const PLAIN_SUM_TERMS: usize = 2;

/// Whether a reduction of `size` terms by `op` in (widened) `dtype` carries a Neumaier
/// compensation: float32 sums of more than [`PLAIN_SUM_TERMS`] terms.
pub(super) fn compensated_sum(op: ReduceOp, dtype: DType, size: usize) -> bool {
    op == ReduceOp::Sum && dtype == DType::Float32 && size > PLAIN_SUM_TERMS
}

/// The statements that fold `x` into the accumulator `acc` (and, for compensated float32
/// sums, the Neumaier compensation `comp`; `None`: a plain sum, see [`compensated_sum`]).
pub(super) fn combine(
    e: &mut Emitter,
    op: ReduceOp,
    dtype: DType,
    acc: &str,
    comp: Option<&str>,
    x: &str,
) -> String {
    match (op, dtype, comp) {
        (ReduceOp::Sum, DType::Float32, Some(comp)) => {
            e.helpers.add(Helper::Keep);
            format!(
                "let t = ox_keep({acc} + {x});\n    \
             {comp} = {comp} + select(ox_keep({x} - t) + {acc}, ox_keep({acc} - t) + {x}, \
             abs({acc}) >= abs({x}));\n    \
             {acc} = t;"
            )
        }
        (ReduceOp::Sum, DType::Float32, None) => {
            e.helpers.add(Helper::Keep);
            format!("{acc} = ox_keep({acc} + {x});")
        }
        (ReduceOp::Sum, _, _) => format!("{acc} = {acc} + {x};"),
        (ReduceOp::Prod, _, _) => format!("{acc} = {acc} * {x};"),
        (ReduceOp::Max, DType::Bool, _) => format!("{acc} = {acc} | {x};"),
        (ReduceOp::Min, DType::Bool, _) => format!("{acc} = {acc} & {x};"),
        (ReduceOp::Max, DType::Float32, _) => {
            e.helpers.add(Helper::MaxF32);
            format!("{acc} = ox_max_f32({acc}, {x});")
        }
        (ReduceOp::Min, DType::Float32, _) => {
            e.helpers.add(Helper::MinF32);
            format!("{acc} = ox_min_f32({acc}, {x});")
        }
        (ReduceOp::Max, _, _) => format!("{acc} = max({acc}, {x});"),
        (ReduceOp::Min, _, _) => format!("{acc} = min({acc}, {x});"),
    }
}
