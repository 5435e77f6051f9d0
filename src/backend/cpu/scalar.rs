//! Typed scalar values of the interpreter and the meaning of every ALU operation on them
//! (threefry2x32's in `threefry.rs`). This file is the definition the wasm and WGSL emitters
//! are tested against: exact operations are computed exactly in the operand dtype (floats via
//! f64 and one rounding, which is the correctly rounded result for +, −, ×, ÷ and sqrt),
//! transcendentals in f64 then rounded.
//! float16 computes in f32 and rounds each result to float16 (NumPy's float16 loops); for
//! +, −, ×, ÷ and sqrt that is the correctly rounded float16 result.

use super::special::{erf, erfc};
use crate::core::{f16, DType};
use crate::kernel::{BinaryOp, CompareOp, ReduceOp, UnaryOp};
use crate::util::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    Bool(bool),
    U32(u32),
    I32(i32),
    F32(f32),
    F64(f64),
    /// A float16 value (always exactly representable), held as f32.
    F16(f32),
}

impl Scalar {
    /// `value` converted to `dtype`: float → integer truncates and saturates, NaN → 0;
    /// → bool is `!= 0` (so NaN → true).
    pub fn from_f64(dtype: DType, value: f64) -> Result<Scalar> {
        Ok(match dtype {
            DType::Bool => Scalar::Bool(value != 0.0),
            DType::Uint32 => Scalar::U32(value as u32),
            DType::Int32 => Scalar::I32(value as i32),
            DType::Float32 => Scalar::F32(value as f32),
            DType::Float64 => Scalar::F64(value),
            DType::Float16 => Scalar::F16(f16::round(value) as f32),
        })
    }

    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::U32(_) => DType::Uint32,
            Scalar::I32(_) => DType::Int32,
            Scalar::F32(_) => DType::Float32,
            Scalar::F64(_) => DType::Float64,
            Scalar::F16(_) => DType::Float16,
        }
    }

    pub fn read(dtype: DType, bytes: &[u8], index: usize) -> Result<Scalar> {
        let n = dtype.byte_size();
        let raw = bytes.get(index * n..(index + 1) * n).ok_or_else(|| {
            Error::new(
                "cpu",
                format!("internal error: load at {index} out of bounds"),
            )
        })?;
        let w4 = || [raw[0], raw[1], raw[2], raw[3]];
        Ok(match dtype {
            DType::Bool => Scalar::Bool(u32::from_le_bytes(w4()) != 0),
            DType::Uint32 => Scalar::U32(u32::from_le_bytes(w4())),
            DType::Int32 => Scalar::I32(i32::from_le_bytes(w4())),
            DType::Float32 => Scalar::F32(f32::from_le_bytes(w4())),
            DType::Float64 => Scalar::F64(f64::from_le_bytes(raw.try_into().expect("8 bytes"))),
            DType::Float16 => {
                Scalar::F16(f16::from_bits(u16::from_le_bytes([raw[0], raw[1]])) as f32)
            }
        })
    }

    pub fn write(self, out: &mut Vec<u8>) {
        match self {
            Scalar::Bool(b) => out.extend_from_slice(&(b as u32).to_le_bytes()),
            Scalar::U32(v) => out.extend_from_slice(&v.to_le_bytes()),
            Scalar::I32(v) => out.extend_from_slice(&v.to_le_bytes()),
            Scalar::F32(v) => out.extend_from_slice(&v.to_le_bytes()),
            Scalar::F64(v) => out.extend_from_slice(&v.to_le_bytes()),
            Scalar::F16(v) => out.extend_from_slice(&f16::to_bits(v as f64).to_le_bytes()),
        }
    }

    /// The value as f64 (exact for every dtype here).
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u32 as f64,
            Scalar::U32(v) => v as f64,
            Scalar::I32(v) => v as f64,
            Scalar::F32(v) => v as f64,
            Scalar::F64(v) => v,
            Scalar::F16(v) => v as f64,
        }
    }

    /// Conversion to `dtype`. Between int32 and uint32 the bits are kept (wrapping, as NumPy
    /// and JAX do); otherwise as [`Scalar::from_f64`].
    pub fn cast(self, dtype: DType) -> Result<Scalar> {
        match (self, dtype) {
            (Scalar::I32(v), DType::Uint32) => Ok(Scalar::U32(v as u32)),
            (Scalar::U32(v), DType::Int32) => Ok(Scalar::I32(v as i32)),
            _ => Scalar::from_f64(dtype, self.to_f64()),
        }
    }

    /// Reinterprets the bits as `dtype` (4-byte types among themselves, f64 with itself).
    pub fn bitcast(self, dtype: DType) -> Result<Scalar> {
        let bits = match self {
            Scalar::U32(v) => v,
            Scalar::I32(v) => v as u32,
            Scalar::F32(v) => v.to_bits(),
            Scalar::Bool(_) | Scalar::F64(_) | Scalar::F16(_) if self.dtype() == dtype => {
                return Ok(self)
            }
            _ => {
                return Err(Error::new(
                    "cpu",
                    format!("cannot bitcast {self:?} to {dtype:?}"),
                ))
            }
        };
        Ok(match dtype {
            DType::Uint32 => Scalar::U32(bits),
            DType::Int32 => Scalar::I32(bits as i32),
            DType::Float32 => Scalar::F32(f32::from_bits(bits)),
            _ => {
                return Err(Error::new(
                    "cpu",
                    format!("cannot bitcast {self:?} to {dtype:?}"),
                ))
            }
        })
    }

    pub fn as_index(self) -> Result<usize> {
        match self {
            Scalar::I32(v) if v >= 0 => Ok(v as usize),
            other => Err(Error::new(
                "cpu",
                format!("internal error: bad index {other:?}"),
            )),
        }
    }

    pub fn as_bool(self) -> Result<bool> {
        match self {
            Scalar::Bool(b) => Ok(b),
            other => Err(Error::new(
                "cpu",
                format!("internal error: condition {other:?}"),
            )),
        }
    }

    pub fn unary(op: UnaryOp, a: Scalar) -> Result<Scalar> {
        use UnaryOp::*;
        let float = |f: fn(f64) -> f64| match a {
            Scalar::F32(x) => Ok(Scalar::F32(f(x as f64) as f32)),
            Scalar::F16(x) => Ok(half(f(x as f64) as f32)),
            Scalar::F64(x) => Ok(Scalar::F64(f(x))),
            _ => Err(Error::new("cpu", format!("{op:?} of {a:?}"))),
        };
        match (op, a) {
            (Neg, Scalar::I32(x)) => Ok(Scalar::I32(x.wrapping_neg())),
            (Neg, Scalar::U32(x)) => Ok(Scalar::U32(x.wrapping_neg())),
            (Abs, Scalar::I32(x)) => Ok(Scalar::I32(x.wrapping_abs())),
            (Abs, Scalar::U32(x)) => Ok(Scalar::U32(x)),
            (Not, Scalar::Bool(x)) => Ok(Scalar::Bool(!x)),
            (Not, Scalar::I32(x)) => Ok(Scalar::I32(!x)),
            (Not, Scalar::U32(x)) => Ok(Scalar::U32(!x)),
            (Neg, _) => float(|x| -x),
            (Abs, _) => float(f64::abs),
            (Reciprocal, _) => float(|x| 1.0 / x),
            (Floor, _) => float(f64::floor),
            (Ceil, _) => float(f64::ceil),
            (RoundEven, _) => float(f64::round_ties_even),
            (Sqrt, _) => float(f64::sqrt),
            (Exp, _) => float(f64::exp),
            (Log, _) => float(f64::ln),
            (Sin, _) => float(f64::sin),
            (Cos, _) => float(f64::cos),
            (Asin, _) => float(f64::asin),
            (Atan, _) => float(f64::atan),
            (Tanh, _) => float(f64::tanh),
            (Erf, _) => float(erf),
            (Erfc, _) => float(erfc),
            (Not, _) => Err(Error::new("cpu", format!("{op:?} of {a:?}"))),
        }
    }

    pub fn binary(op: BinaryOp, a: Scalar, b: Scalar) -> Result<Scalar> {
        use BinaryOp::*;
        let fail = || Error::new("cpu", format!("internal error: {op:?} of {a:?}, {b:?}"));
        Ok(match (a, b) {
            (Scalar::F32(x), Scalar::F32(y)) => {
                Scalar::F32(float_op(op, x as f64, y as f64).ok_or_else(fail)? as f32)
            }
            (Scalar::F64(x), Scalar::F64(y)) => Scalar::F64(float_op(op, x, y).ok_or_else(fail)?),
            (Scalar::F16(x), Scalar::F16(y)) => {
                half(float_op(op, x as f64, y as f64).ok_or_else(fail)? as f32)
            }
            (Scalar::I32(x), Scalar::I32(y)) => Scalar::I32(op.int32(x, y)),
            (Scalar::U32(x), Scalar::U32(y)) => Scalar::U32(match op {
                Div if y == 0 => 0,
                Rem if y == 0 => 0,
                Div => x / y,
                Rem => x % y,
                Shr => x.wrapping_shr(y),
                Min => x.min(y),
                Max => x.max(y),
                _ => int_op(op, x, y).ok_or_else(fail)?,
            }),
            (Scalar::Bool(x), Scalar::Bool(y)) => Scalar::Bool(match op {
                And => x & y,
                Or => x | y,
                Xor => x ^ y,
                _ => return Err(fail()),
            }),
            _ => return Err(fail()),
        })
    }

    pub fn compare(op: CompareOp, a: Scalar, b: Scalar) -> Result<Scalar> {
        let ord = match (a, b) {
            (Scalar::I32(x), Scalar::I32(y)) => x.partial_cmp(&y),
            (Scalar::U32(x), Scalar::U32(y)) => x.partial_cmp(&y),
            (Scalar::Bool(x), Scalar::Bool(y)) => x.partial_cmp(&y),
            (Scalar::F32(x), Scalar::F32(y)) => x.partial_cmp(&y),
            (Scalar::F64(x), Scalar::F64(y)) => x.partial_cmp(&y),
            (Scalar::F16(x), Scalar::F16(y)) => x.partial_cmp(&y),
            _ => {
                return Err(Error::new(
                    "cpu",
                    format!("internal error: compare {a:?}, {b:?}"),
                ))
            }
        };
        use std::cmp::Ordering::*;
        Ok(Scalar::Bool(match op {
            CompareOp::Lt => ord == Some(Less),
            CompareOp::Le => matches!(ord, Some(Less | Equal)),
            CompareOp::Eq => ord == Some(Equal),
            CompareOp::Ne => ord != Some(Equal),
        }))
    }

    /// Combines an accumulator with a value for a reduction.
    pub fn reduce(op: ReduceOp, acc: Scalar, x: Scalar) -> Result<Scalar> {
        match op {
            ReduceOp::Sum => Scalar::binary(BinaryOp::Add, acc, x),
            ReduceOp::Prod => Scalar::binary(BinaryOp::Mul, acc, x),
            ReduceOp::Max => match (acc, x) {
                (Scalar::Bool(p), Scalar::Bool(q)) => Ok(Scalar::Bool(p | q)),
                _ => Scalar::binary(BinaryOp::Max, acc, x),
            },
            ReduceOp::Min => match (acc, x) {
                (Scalar::Bool(p), Scalar::Bool(q)) => Ok(Scalar::Bool(p & q)),
                _ => Scalar::binary(BinaryOp::Min, acc, x),
            },
        }
    }
}

/// An f32 result stored as float16 (rounded to nearest, ties to even).
fn half(x: f32) -> Scalar {
    Scalar::F16(f16::round(x as f64) as f32)
}

/// Float arithmetic in f64; for f32 operands the caller rounds once, which gives the correctly
/// rounded f32 result for +, −, ×, ÷ (f64 has more than 2·24+2 bits). Min and max propagate NaN.
fn float_op(op: BinaryOp, x: f64, y: f64) -> Option<f64> {
    Some(match op {
        BinaryOp::Add => x + y,
        BinaryOp::Sub => x - y,
        BinaryOp::Mul => x * y,
        BinaryOp::Div => x / y,
        BinaryOp::Rem => x % y,
        BinaryOp::Min if x.is_nan() || y.is_nan() => f64::NAN,
        BinaryOp::Max if x.is_nan() || y.is_nan() => f64::NAN,
        BinaryOp::Min => x.min(y),
        BinaryOp::Max => x.max(y),
        _ => return None,
    })
}

/// Wrapping uint32 arithmetic (int32 is `BinaryOp::int32`; division, remainder, shift right,
/// min and max are matched by the caller).
fn int_op(op: BinaryOp, x: u32, y: u32) -> Option<u32> {
    Some(match op {
        BinaryOp::Add => x.wrapping_add(y),
        BinaryOp::Sub => x.wrapping_sub(y),
        BinaryOp::Mul => x.wrapping_mul(y),
        BinaryOp::And => x & y,
        BinaryOp::Or => x | y,
        BinaryOp::Xor => x ^ y,
        BinaryOp::Shl => x.wrapping_shl(y),
        _ => return None,
    })
}
