//! Kernel IR → WGSL compute shader. Bindings are the inputs in order, then the output; each
//! invocation computes one output element. Bool is stored as `u32` (0 or 1).

use std::fmt::Write;

use crate::core::DType;
use crate::kernel::{verify, AluExp, AluKind, BinaryOp, Kernel};
use crate::util::{Error, Result};

/// Invocations per workgroup along x.
pub const WORKGROUP_SIZE: u32 = 64;

pub fn emit_kernel(kernel: &Kernel) -> Result<String> {
    verify::verify(kernel)?;
    if kernel.reduction.is_some() {
        return Err(Error::new("webgpu", "reductions are not supported yet"));
    }
    let mut src = String::new();
    for (i, &dtype) in kernel.inputs.iter().enumerate() {
        let ty = storage_type(dtype)?;
        writeln!(
            src,
            "@group(0) @binding({i}) var<storage, read> in{i}: array<{ty}>;"
        )
        .unwrap();
    }
    let out_ty = storage_type(kernel.output_dtype())?;
    writeln!(
        src,
        "@group(0) @binding({}) var<storage, read_write> out: array<{out_ty}>;",
        kernel.inputs.len()
    )
    .unwrap();
    let body = expression(&kernel.exp)?;
    write!(
        src,
        "
@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {{
  let idx = gid.x + gid.y * groups.x * {WORKGROUP_SIZE}u;
  if (idx >= {size}u) {{ return; }}
  let i = i32(idx);
  out[idx] = {body};
}}
",
        size = kernel.size
    )
    .unwrap();
    Ok(src)
}

fn storage_type(dtype: DType) -> Result<&'static str> {
    match dtype {
        DType::Float32 => Ok("f32"),
        DType::Int32 => Ok("i32"),
        DType::Uint32 | DType::Bool => Ok("u32"),
        DType::Float64 => Err(Error::new(
            "webgpu",
            "float64 is not supported on the webgpu device; use the \"cpu\" or \"wasm\" device",
        )),
        DType::Float16 => Err(Error::new(
            "webgpu",
            "float16 is not supported on webgpu yet",
        )),
    }
}

fn expression(exp: &AluExp) -> Result<String> {
    Ok(match &exp.kind {
        AluKind::Const(bits) => constant(exp.dtype, f64::from_bits(*bits))?,
        AluKind::Index => "i".to_string(),
        AluKind::Load { input, index } => format!("in{input}[{}]", expression(index)?),
        AluKind::Cast(a) => cast(exp.dtype, a)?,
        AluKind::Binary(op, a, b) => {
            let symbol = match (op, exp.dtype) {
                (BinaryOp::Add, DType::Bool) => "|",
                (BinaryOp::Mul, DType::Bool) => "&",
                (_, DType::Bool) => {
                    return Err(Error::new(
                        "webgpu",
                        format!("{op:?} is not defined on bool"),
                    ))
                }
                (BinaryOp::Add, _) => "+",
                (BinaryOp::Sub, _) => "-",
                (BinaryOp::Mul, _) => "*",
                (BinaryOp::Div, _) => "/",
                (BinaryOp::Rem, _) => "%",
                (op, _) => {
                    return Err(Error::new(
                        "webgpu",
                        format!("{op:?} is not supported by the WGSL emitter yet"),
                    ))
                }
            };
            format!("({} {symbol} {})", expression(a)?, expression(b)?)
        }
        other => {
            return Err(Error::new(
                "webgpu",
                format!("{other:?} is not supported by the WGSL emitter yet"),
            ))
        }
    })
}

/// WGSL conversions: bool is a u32 0/1 here, so conversions to bool compare with zero.
fn cast(dtype: DType, a: &AluExp) -> Result<String> {
    let inner = expression(a)?;
    Ok(match dtype {
        DType::Bool => format!("u32({inner} != {})", constant(a.dtype, 0.0)?),
        _ => format!("{}({inner})", storage_type(dtype)?),
    })
}

fn constant(dtype: DType, v: f64) -> Result<String> {
    Ok(match dtype {
        DType::Float32 if (v as f32).is_finite() => format!("{:?}f", v as f32),
        DType::Float32 => format!("bitcast<f32>({:#x}u)", (v as f32).to_bits()),
        DType::Int32 if v as i32 != i32::MIN => format!("{}i", v as i32),
        DType::Int32 => format!("bitcast<i32>({:#x}u)", v as i32 as u32),
        DType::Uint32 => format!("{}u", v as u32),
        DType::Bool => format!("{}u", (v != 0.0) as u32),
        other => {
            return Err(storage_type(other)
                .err()
                .unwrap_or_else(|| Error::msg("webgpu")))
        }
    })
}
