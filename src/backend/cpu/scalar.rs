//! Typed scalar values of the interpreter, with arithmetic done in each dtype's own precision.

use crate::core::DType;
use crate::kernel::BinaryOp;
use crate::util::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    Bool(bool),
    U32(u32),
    I32(i32),
    F32(f32),
    F64(f64),
}

impl Scalar {
    /// `value` converted to `dtype` (as NumPy's `astype` does for in-range values).
    pub fn from_f64(dtype: DType, value: f64) -> Result<Scalar> {
        Ok(match dtype {
            DType::Bool => Scalar::Bool(value != 0.0),
            DType::Uint32 => Scalar::U32(value as u32),
            DType::Int32 => Scalar::I32(value as i32),
            DType::Float32 => Scalar::F32(value as f32),
            DType::Float64 => Scalar::F64(value),
            DType::Float16 => return Err(unsupported(dtype)),
        })
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
            DType::Float16 => return Err(unsupported(dtype)),
        })
    }

    pub fn write(self, out: &mut Vec<u8>) {
        match self {
            Scalar::Bool(b) => out.extend_from_slice(&(b as u32).to_le_bytes()),
            Scalar::U32(v) => out.extend_from_slice(&v.to_le_bytes()),
            Scalar::I32(v) => out.extend_from_slice(&v.to_le_bytes()),
            Scalar::F32(v) => out.extend_from_slice(&v.to_le_bytes()),
            Scalar::F64(v) => out.extend_from_slice(&v.to_le_bytes()),
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
        }
    }

    /// Conversion to `dtype`: floats to integers truncate toward zero and saturate (NaN → 0).
    pub fn cast(self, dtype: DType) -> Result<Scalar> {
        Scalar::from_f64(dtype, self.to_f64())
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

    pub fn binary(op: BinaryOp, a: Scalar, b: Scalar) -> Result<Scalar> {
        use BinaryOp::*;
        Ok(match (a, b) {
            (Scalar::F32(x), Scalar::F32(y)) => {
                Scalar::F32(float_op(op, x as f64, y as f64) as f32)
            }
            (Scalar::F64(x), Scalar::F64(y)) => Scalar::F64(float_op(op, x, y)),
            (Scalar::I32(x), Scalar::I32(y)) => Scalar::I32(match op {
                Add => x.wrapping_add(y),
                Sub => x.wrapping_sub(y),
                Mul => x.wrapping_mul(y),
                Div => x.checked_div(y).unwrap_or(0),
                Rem => x.checked_rem(y).unwrap_or(0),
            }),
            (Scalar::U32(x), Scalar::U32(y)) => Scalar::U32(match op {
                Add => x.wrapping_add(y),
                Sub => x.wrapping_sub(y),
                Mul => x.wrapping_mul(y),
                Div => x.checked_div(y).unwrap_or(0),
                Rem => x.checked_rem(y).unwrap_or(0),
            }),
            (Scalar::Bool(x), Scalar::Bool(y)) => Scalar::Bool(match op {
                Add => x | y,
                Mul => x & y,
                _ => return Err(Error::new("cpu", format!("{op:?} is not defined on bool"))),
            }),
            _ => {
                return Err(Error::new(
                    "cpu",
                    format!("internal error: {op:?} of {a:?}, {b:?}"),
                ))
            }
        })
    }
}

/// Float arithmetic in f64. For f32 operands the f64 result rounded to f32 is the correctly
/// rounded f32 result for add, sub, mul and div (f64 has more than 2·24+2 bits).
fn float_op(op: BinaryOp, x: f64, y: f64) -> f64 {
    match op {
        BinaryOp::Add => x + y,
        BinaryOp::Sub => x - y,
        BinaryOp::Mul => x * y,
        BinaryOp::Div => x / y,
        BinaryOp::Rem => x % y,
    }
}

fn unsupported(dtype: DType) -> Error {
    Error::new(
        "cpu",
        format!("{} is not supported on the cpu device yet", dtype.name()),
    )
}
