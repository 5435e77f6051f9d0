//! Lowering of the Kernel IR's ALU nodes to `dsl` expressions, with the exact semantics of the
//! cpu interpreter (`backend/cpu/scalar.rs`): wrapping integer arithmetic, integer division and
//! remainder that never trap (x / 0 = 0, i32::MIN / −1 = i32::MIN), shifts modulo 32,
//! NaN-propagating float min/max, IEEE comparisons, saturating casts with NaN → 0, and `Where`
//! as an `if/else` so only the chosen side runs. Transcendentals call routines from `math`.

use walrus::ir::{ExtendedLoad, LoadKind, UnaryOp as U};
use walrus::ValType;

use super::dsl::{cond, i32c, select, seq, E};
use super::math::Routine;
use super::{half, unsupported, vmath, Cx};
use crate::core::DType;
use crate::kernel::{AluExp, AluKind, BinaryOp, CompareOp, ReduceOp, ThreefryMode, UnaryOp};
use crate::util::{Error, Result};

/// The wasm value type that holds a dtype (bool is an i32 0 or 1).
pub fn val_type(dtype: DType) -> Result<ValType> {
    Ok(match dtype {
        DType::Float32 => ValType::F32,
        DType::Float64 => ValType::F64,
        DType::Int32 | DType::Uint32 | DType::Bool => ValType::I32,
        // A float16 value is held in f32 (see `half`).
        DType::Float16 => ValType::F32,
    })
}

pub fn lower(cx: &mut Cx, exp: &AluExp) -> Result<E> {
    Ok(match &exp.kind {
        AluKind::Const(bits) => constant(exp.dtype, f64::from_bits(*bits))?,
        AluKind::Index => cx.index.get(),
        AluKind::ReduceIndex => cx.reduce_index.get(),
        AluKind::Load { input, index } if exp.dtype == DType::Float16 => {
            let i = lower(cx, index)?;
            let addr = cx.inputs[*input].get() + i * i32c(2);
            let kind = LoadKind::I32_16 {
                kind: ExtendedLoad::ZeroExtend,
            };
            let bits = E::Load(cx.memory, kind, ValType::I32, Box::new(addr));
            half::widen(cx, bits)
        }
        AluKind::Load { input, index } => {
            let i = lower(cx, index)?;
            let ty = val_type(exp.dtype)?;
            let kind = match ty {
                ValType::F32 => LoadKind::F32,
                ValType::F64 => LoadKind::F64,
                _ => LoadKind::I32 { atomic: false },
            };
            let addr = cx.inputs[*input].get() + i * i32c(exp.dtype.byte_size() as i32);
            let value = E::Load(cx.memory, kind, ty, Box::new(addr));
            // A stored bool is any nonzero word, as the interpreter reads it; values are 0 or 1.
            if exp.dtype == DType::Bool {
                value.ne(i32c(0))
            } else {
                value
            }
        }
        AluKind::Unary(op, a) => {
            let x = lower(cx, a)?;
            unary(cx, *op, exp.dtype, x)?
        }
        AluKind::Binary(op, a, b) => {
            let (x, y) = (lower(cx, a)?, lower(cx, b)?);
            binary(cx, *op, exp.dtype, x, y)?
        }
        AluKind::Compare(op, a, b) => {
            let (x, y) = (lower(cx, a)?, lower(cx, b)?);
            compare(*op, a.dtype, x, y)
        }
        AluKind::Where(c, a, b) => cond(lower(cx, c)?, lower(cx, a)?, lower(cx, b)?),
        AluKind::Cast(a) if exp.dtype == DType::Float16 && a.dtype != DType::Float16 => {
            // Through f32: float64 rounded to odd first, so that float16's rounding is the only
            // one (as the interpreter's); every other source is exact in f32 or overflows.
            let x = lower(cx, a)?;
            let wide = if a.dtype == DType::Float64 {
                half::demote_odd(cx, x)
            } else {
                cast(x, a.dtype, DType::Float32)?
            };
            half::round(cx, wide)
        }
        AluKind::Cast(a) => {
            let x = lower(cx, a)?;
            cast(x, a.dtype, exp.dtype)?
        }
        AluKind::Bitcast(a) => {
            let x = lower(cx, a)?;
            bitcast(x, a.dtype, exp.dtype)?
        }
        AluKind::Threefry(mode, operands) => threefry(cx, *mode, operands)?,
    })
}

/// A call of the module's threefry function (out of `lower`, whose frame every level of a
/// deep expression pays for).
fn threefry(cx: &mut Cx, mode: ThreefryMode, operands: &[AluExp; 4]) -> Result<E> {
    let f = cx.lib.routine(&mut cx.module, Routine::Threefry(mode));
    let mut args = Vec::with_capacity(operands.len());
    for o in operands {
        args.push(lower(cx, o)?);
    }
    Ok(E::Call(f, ValType::I32, args))
}

/// A comparison of two values of `dtype` (a bool, i32 0 or 1).
pub(super) fn compare(op: CompareOp, dtype: DType, x: E, y: E) -> E {
    let signed = dtype == DType::Int32 || dtype.is_float();
    match (op, signed) {
        (CompareOp::Lt, true) => x.lt(y),
        (CompareOp::Lt, false) => x.ltu(y),
        (CompareOp::Le, true) => x.le(y),
        (CompareOp::Le, false) => x.leu(y),
        (CompareOp::Eq, _) => x.eq(y),
        (CompareOp::Ne, _) => x.ne(y),
    }
}

/// The bits of `x` (of `from`) read as `to` (same width).
pub(super) fn bitcast(x: E, from: DType, to: DType) -> Result<E> {
    Ok(match (val_type(from)?, val_type(to)?) {
        (ValType::F32, ValType::I32) | (ValType::I32, ValType::F32) => x.reinterpret_any(),
        (p, q) if p == q => x,
        _ => {
            return Err(Error::new(
                "wasm codegen",
                format!("cannot bitcast {from:?} to {to:?}"),
            ))
        }
    })
}

impl E {
    /// f32 ↔ i32 reinterpretation.
    fn reinterpret_any(self) -> E {
        if self.ty() == ValType::F32 {
            self.bits()
        } else {
            self.reinterpret()
        }
    }
}

/// A constant of `dtype`, converted from f64 as the interpreter does.
pub(super) fn constant(dtype: DType, v: f64) -> Result<E> {
    Ok(match dtype {
        DType::Float32 => E::F32(v as f32),
        DType::Float64 => E::F64(v),
        DType::Int32 => i32c(v as i32),
        DType::Uint32 => i32c(v as u32 as i32),
        DType::Bool => i32c((v != 0.0) as i32),
        DType::Float16 => E::F32(crate::core::f16::round(v) as f32),
    })
}

/// Makes `x` usable more than once: a constant or a local is used as it is, anything else is
/// bound to a fresh local; returns (statements, use). Every local costs the engine's baseline
/// compiler memory at each block of the function, so kernels with much index arithmetic must
/// not take one per operation.
fn bind(cx: &mut Cx, x: E) -> (Vec<super::dsl::S>, E) {
    if matches!(x, E::I32(_) | E::I64(_) | E::F32(_) | E::F64(_) | E::Get(_)) {
        return (vec![], x);
    }
    let v = cx.tmp(x.ty());
    (vec![v.set(x)], v.get())
}

/// `(statements of a, statements of b)` in order.
fn both(a: Vec<super::dsl::S>, b: Vec<super::dsl::S>) -> Vec<super::dsl::S> {
    a.into_iter().chain(b).collect()
}

/// Integer `x / c` or `x % c` by a constant divisor: no guard, no locals, no blocks (index
/// arithmetic of views divides by constant strides and sizes).
fn div_by_constant(op: BinaryOp, signed: bool, x: E, c: i32) -> E {
    match (op, signed, c) {
        (_, _, 0) => i32c(0),
        (BinaryOp::Div, true, -1) => -x,
        (_, true, -1) => i32c(0),
        (BinaryOp::Div, true, _) => x.div_s(i32c(c)),
        (BinaryOp::Div, false, _) => x.div_u(i32c(c)),
        (_, true, _) => x.rem_s(i32c(c)),
        (_, false, _) => x.rem_u(i32c(c)),
    }
}

pub(super) fn unary(cx: &mut Cx, op: UnaryOp, dtype: DType, x: E) -> Result<E> {
    use UnaryOp::*;
    if dtype == DType::Float16 {
        let r = unary(cx, op, DType::Float32, x)?;
        return Ok(half::round(cx, r));
    }
    Ok(match (op, dtype) {
        (Neg, _) => -x,
        (Abs, DType::Uint32) => x,
        (Abs, DType::Int32) => {
            let (s, v) = bind(cx, x);
            seq(s, select(v.clone().lt(i32c(0)), -v.clone(), v))
        }
        (Abs, _) => x.abs(),
        (Not, DType::Bool) => x ^ i32c(1),
        (Not, _) => x ^ i32c(-1),
        (Reciprocal, DType::Float32) => E::F32(1.0) / x,
        (Reciprocal, _) => E::F64(1.0) / x,
        (Floor, _) => x.floor(),
        (Ceil, _) => x.ceil(),
        (RoundEven, _) => x.nearest(),
        (Sqrt, _) => x.sqrt(),
        // float32 ops with a vector body use it for single values too, so that an element's
        // result does not depend on whether it falls in a vector block or a scalar tail.
        (Exp | Log | Sin | Cos | Tanh | Asin | Atan | Erf | Erfc, DType::Float32)
            if vmath::has_vector(op) =>
        {
            let f = cx.lib.routine(&mut cx.module, Routine::Lane(op));
            E::Call(f, x.ty(), vec![x])
        }
        (Exp | Log | Sin | Cos | Asin | Atan | Tanh | Erf | Erfc, _) => {
            let f = cx.lib.get(&mut cx.module, op, dtype == DType::Float32);
            E::Call(f, x.ty(), vec![x])
        }
    })
}

pub(super) fn binary(cx: &mut Cx, op: BinaryOp, dtype: DType, x: E, y: E) -> Result<E> {
    use BinaryOp::*;
    if dtype == DType::Float16 {
        let r = binary(cx, op, DType::Float32, x, y)?;
        return Ok(half::round(cx, r));
    }
    let float = dtype.is_float();
    let signed = dtype == DType::Int32;
    Ok(match op {
        Add => x + y,
        Sub => x - y,
        Mul => x * y,
        Div if float => x / y,
        Rem if float => {
            let f = cx.lib.fmod(&mut cx.module);
            if dtype == DType::Float32 {
                E::Call(f, ValType::F64, vec![x.widen(), y.widen()]).demote()
            } else {
                E::Call(f, ValType::F64, vec![x, y])
            }
        }
        // As the interpreter: NaN if either is NaN, else `x < y ? x : y` (min) and
        // `x < y ? y : x` (max), so min(−0, +0) = +0 and max(−0, +0) = −0.
        Min | Max if float => {
            let (sx, x) = bind(cx, x);
            let (sy, y) = bind(cx, y);
            let less = x.clone().lt(y.clone());
            let pick = if op == Min {
                select(less | x.clone().ne(x.clone()), x, y)
            } else {
                select(less | y.clone().ne(y.clone()), y, x)
            };
            seq(both(sx, sy), pick)
        }
        Div | Rem => {
            if let E::I32(c) = y {
                return Ok(div_by_constant(op, signed, x, c));
            }
            let (sx, x) = bind(cx, x);
            let (sy, y) = bind(cx, y);
            let value = match (op, signed) {
                // i32::MIN / −1 wraps to i32::MIN; x % −1 is 0: neither may reach the trapping
                // instruction.
                (Div, true) => cond(
                    y.clone().eq(i32c(-1)),
                    -x.clone(),
                    x.clone().div_s(y.clone()),
                ),
                (Div, false) => x.clone().div_u(y.clone()),
                (_, true) => cond(y.clone().eq(i32c(-1)), i32c(0), x.clone().rem_s(y.clone())),
                (_, false) => x.clone().rem_u(y.clone()),
            };
            seq(both(sx, sy), cond(y.eqz(), i32c(0), value))
        }
        Min | Max => {
            let (sx, x) = bind(cx, x);
            let (sy, y) = bind(cx, y);
            let less = if signed {
                x.clone().lt(y.clone())
            } else {
                x.clone().ltu(y.clone())
            };
            let pick = if op == Min {
                select(less, x, y)
            } else {
                select(less, y, x)
            };
            seq(both(sx, sy), pick)
        }
        And => x & y,
        Or => x | y,
        Xor => x ^ y,
        Shl => x.shl(y),
        Shr if signed => x.shr_s(y),
        Shr => x.shr_u(y),
    })
}

/// One step of a reduction: `acc op x`, as `Scalar::reduce` defines it.
pub fn reduce_step(cx: &mut Cx, op: ReduceOp, dtype: DType, acc: E, x: E) -> E {
    let binop = match (op, dtype) {
        (ReduceOp::Sum, DType::Bool) | (ReduceOp::Max, DType::Bool) => return acc | x,
        (ReduceOp::Prod, DType::Bool) | (ReduceOp::Min, DType::Bool) => return acc & x,
        (ReduceOp::Sum, _) => BinaryOp::Add,
        (ReduceOp::Prod, _) => BinaryOp::Mul,
        (ReduceOp::Max, _) => BinaryOp::Max,
        (ReduceOp::Min, _) => BinaryOp::Min,
    };
    binary(cx, binop, dtype, acc, x).expect("reductions lower without errors")
}

/// Conversions between dtypes, as `Scalar::cast` (through f64): float → integer truncates and
/// saturates with NaN → 0, int32 ↔ uint32 saturate too (−1 → 0, 2³¹ → i32::MAX), anything →
/// bool is `!= 0` (NaN → true), bool → number is 0 or 1.
pub(super) fn cast(x: E, from: DType, to: DType) -> Result<E> {
    use DType::*;
    let op = |u: U, ty: ValType| Ok(x.clone().unop(u, ty));
    match (from, to) {
        (a, b) if a == b => Ok(x),
        // float16 is held in f32; conversions to it round (`lower`).
        (Float16, to) => cast(x, Float32, to),
        (_, Float16) => Err(unsupported(Float16)),
        (Int32 | Bool, Float32) => op(U::F32ConvertSI32, ValType::F32),
        (Uint32, Float32) => op(U::F32ConvertUI32, ValType::F32),
        (Int32 | Bool, Float64) => op(U::F64ConvertSI32, ValType::F64),
        (Uint32, Float64) => op(U::F64ConvertUI32, ValType::F64),
        (Float32, Int32) => op(U::I32TruncSSatF32, ValType::I32),
        (Float32, Uint32) => op(U::I32TruncUSatF32, ValType::I32),
        (Float64, Int32) => op(U::I32TruncSSatF64, ValType::I32),
        (Float64, Uint32) => op(U::I32TruncUSatF64, ValType::I32),
        (Float32, Float64) => op(U::F64PromoteF32, ValType::F64),
        (Float64, Float32) => op(U::F32DemoteF64, ValType::F32),
        // Same-width integer conversions keep the bits (wrap), as in NumPy and JAX.
        (Bool | Int32 | Uint32, Int32 | Uint32) => Ok(x),
        (Int32 | Uint32, Bool) => Ok(x.ne(i32c(0))),
        (Float32, Bool) => Ok(x.ne(E::F32(0.0))),
        (Float64, Bool) => Ok(x.ne(E::F64(0.0))),
        _ => Err(Error::new(
            "wasm codegen",
            format!("cannot cast {from:?} to {to:?}"),
        )),
    }
}
