//! The lane-wise SIMD instructions of the vector lowering (`simd`): which operations have
//! one with the interpreter's exact semantics, and their v128 forms.

use walrus::ir::{BinaryOp as B, UnaryOp as U};

use super::dsl::E;
use crate::core::DType;
use crate::kernel::{BinaryOp, CompareOp, ReduceOp, UnaryOp};

pub fn splat_op(dtype: DType) -> U {
    if dtype == DType::Float32 {
        U::F32x4Splat
    } else {
        U::I32x4Splat
    }
}

/// A v128 constant of four 32-bit lanes.
pub fn lanes_const(lanes: [u32; 4]) -> E {
    E::V128(
        lanes
            .iter()
            .enumerate()
            .fold(0u128, |acc, (l, &x)| acc | (u128::from(x) << (32 * l))),
    )
}

pub fn unary_ok(op: UnaryOp, dtype: DType) -> bool {
    use UnaryOp::*;
    match dtype {
        DType::Float32 => matches!(op, Neg | Abs | Sqrt | Floor | Ceil | RoundEven | Reciprocal),
        DType::Int32 | DType::Uint32 => matches!(op, Neg | Abs | Not),
        DType::Bool => op == Not,
        _ => false,
    }
}

pub fn binary_ok(op: BinaryOp, dtype: DType) -> bool {
    use BinaryOp::*;
    match dtype {
        DType::Float32 => matches!(op, Add | Sub | Mul | Div | Min | Max),
        DType::Int32 | DType::Uint32 | DType::Bool => {
            matches!(op, Add | Sub | Mul | Min | Max | And | Or | Xor | Shl | Shr)
        }
        _ => false,
    }
}

pub fn compare_op(op: CompareOp, dtype: DType) -> B {
    match (dtype, op) {
        (DType::Float32, CompareOp::Lt) => B::F32x4Lt,
        (DType::Float32, CompareOp::Le) => B::F32x4Le,
        (DType::Float32, CompareOp::Eq) => B::F32x4Eq,
        (DType::Float32, CompareOp::Ne) => B::F32x4Ne,
        (DType::Int32, CompareOp::Lt) => B::I32x4LtS,
        (DType::Int32, CompareOp::Le) => B::I32x4LeS,
        (_, CompareOp::Lt) => B::I32x4LtU,
        (_, CompareOp::Le) => B::I32x4LeU,
        (_, CompareOp::Eq) => B::I32x4Eq,
        (_, CompareOp::Ne) => B::I32x4Ne,
    }
}

/// `x op y` lane-wise with the interpreter's semantics (see `ops::binary`).
pub fn vector_binary(op: BinaryOp, dtype: DType, x: E, y: E) -> E {
    use BinaryOp::*;
    let float = dtype == DType::Float32;
    let signed = dtype == DType::Int32;
    let pick = |f: B, i: B| if float { f } else { i };
    match op {
        Add => x.v2(pick(B::F32x4Add, B::I32x4Add), y),
        Sub => x.v2(pick(B::F32x4Sub, B::I32x4Sub), y),
        Mul => x.v2(pick(B::F32x4Mul, B::I32x4Mul), y),
        Div => x.v2(B::F32x4Div, y),
        // NaN if either is NaN, else `x < y ? x : y` (min) / `x < y ? y : x` (max).
        Min | Max if float => {
            let less = x.clone().v2(B::F32x4Lt, y.clone());
            let (keep, other, nan) = if op == Min {
                (x.clone(), y, x.clone().v2(B::F32x4Ne, x))
            } else {
                (y.clone(), x, y.clone().v2(B::F32x4Ne, y))
            };
            let mask = less.v2(B::V128Or, nan);
            E::Bitselect(Box::new(keep), Box::new(other), Box::new(mask))
        }
        Min => x.v2(if signed { B::I32x4MinS } else { B::I32x4MinU }, y),
        Max => x.v2(if signed { B::I32x4MaxS } else { B::I32x4MaxU }, y),
        And => x.v2(B::V128And, y),
        Or => x.v2(B::V128Or, y),
        Xor => x.v2(B::V128Xor, y),
        Rem | Shl | Shr => unreachable!("not lane-wise: handled by the caller"),
    }
}

/// Lane-wise conversion between 32-bit dtypes, as `ops::cast`.
pub fn vector_cast(x: E, from: DType, to: DType) -> E {
    use DType::*;
    match (from, to) {
        (a, b) if a == b => x,
        (Int32 | Bool, Float32) => x.v1(U::F32x4ConvertI32x4S),
        (Uint32, Float32) => x.v1(U::F32x4ConvertI32x4U),
        (Float32, Int32) => x.v1(U::I32x4TruncSatF32x4S),
        (Float32, Uint32) => x.v1(U::I32x4TruncSatF32x4U),
        (Float32, Bool) => x.v2(B::F32x4Ne, lanes_const([0; 4])).v1(U::I32x4Neg),
        (Int32 | Uint32, Bool) => x.v2(B::I32x4Ne, lanes_const([0; 4])).v1(U::I32x4Neg),
        // Same-width integer conversions keep the bits.
        _ => x,
    }
}

/// A v128 holding `value` of `dtype` in every lane (f64: two lanes).
pub fn splat_const(dtype: DType, value: f64) -> E {
    match dtype {
        DType::Float64 => {
            let b = u128::from(value.to_bits());
            E::V128(b | (b << 64))
        }
        DType::Float32 => lanes_const([(value as f32).to_bits(); 4]),
        DType::Uint32 => lanes_const([value as u32; 4]),
        DType::Bool => lanes_const([u32::from(value != 0.0); 4]),
        _ => lanes_const([value as i32 as u32; 4]),
    }
}

/// One step `acc op x` of a reduction in `dtype`, lane-wise (as `ops::reduce_step`).
pub fn vector_step(op: ReduceOp, dtype: DType, acc: E, x: E) -> E {
    match (op, dtype) {
        (ReduceOp::Sum | ReduceOp::Max, DType::Bool) => acc.v2(B::V128Or, x),
        (ReduceOp::Prod | ReduceOp::Min, DType::Bool) => acc.v2(B::V128And, x),
        (ReduceOp::Sum, _) => vector_binary(BinaryOp::Add, dtype, acc, x),
        (ReduceOp::Prod, _) => vector_binary(BinaryOp::Mul, dtype, acc, x),
        (ReduceOp::Max, _) => vector_binary(BinaryOp::Max, dtype, acc, x),
        (ReduceOp::Min, _) => vector_binary(BinaryOp::Min, dtype, acc, x),
    }
}

/// Shuffle: the high two f32 lanes of a vector moved to the low half.
pub const HIGH_HALF: [u8; 16] = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];
/// Shuffle: the low halves of two vectors, concatenated.
pub const LOW_HALVES: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
