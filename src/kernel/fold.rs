//! Constant folding of a kernel expression for known indices: with the output index `i` (and
//! the reduction index `r`) fixed, the int32 index arithmetic of every load (the strides,
//! divisions and remainders of reshapes, transposes and broadcasts), its comparisons and the
//! `Where` guards of concatenates and pads become constants. Emitters that unroll over
//! constant indices (the webgpu serial scan shader) emit the folded tree: a load at a literal
//! index instead of a dozen integer operations per load, which keeps shaders small (a shorter
//! compile) and leaves nothing for the driver to fold.
//!
//! Only int32 and bool nodes are evaluated, with the interpreter's semantics (int32 through
//! the one definition `BinaryOp::int32`, which `cpu` evaluates too; comparisons as `cpu`'s
//! `compare`): wrapping `+ − ×`, division truncating toward zero with
//! `x / 0 = x % 0 = 0`, shifts modulo 32. A `Where` whose condition folds keeps the chosen
//! side only (the other is never evaluated, as in the interpreter). Floats are untouched.

use super::alu::{AluExp, AluKind, BinaryOp, CompareOp};
use crate::core::DType;

/// `exp` with `Index` replaced by `index` and `ReduceIndex` by `r` (where given), folded.
pub fn fold_indices(exp: &AluExp, index: Option<i32>, r: Option<i32>) -> AluExp {
    let f = |e: &AluExp| Box::new(fold_indices(e, index, r));
    let kind = match &exp.kind {
        AluKind::Index if index.is_some() => return int(index.unwrap_or(0)),
        AluKind::ReduceIndex if r.is_some() => return int(r.unwrap_or(0)),
        AluKind::Const(_) | AluKind::Index | AluKind::ReduceIndex => exp.kind.clone(),
        AluKind::Load { input, index } => AluKind::Load {
            input: *input,
            index: f(index),
        },
        AluKind::Unary(op, a) => AluKind::Unary(*op, f(a)),
        AluKind::Binary(op, a, b) => {
            let (a, b) = (f(a), f(b));
            if let Some(value) = binary(exp.dtype, *op, &a, &b) {
                return value;
            }
            AluKind::Binary(*op, a, b)
        }
        AluKind::Compare(op, a, b) => {
            let (a, b) = (f(a), f(b));
            if let (Some(x), Some(y)) = (as_int(&a), as_int(&b)) {
                let value = match op {
                    CompareOp::Lt => x < y,
                    CompareOp::Le => x <= y,
                    CompareOp::Eq => x == y,
                    CompareOp::Ne => x != y,
                };
                return boolean(value);
            }
            AluKind::Compare(*op, a, b)
        }
        AluKind::Where(c, a, b) => {
            let c = fold_indices(c, index, r);
            match as_bool(&c) {
                Some(true) => return fold_indices(a, index, r),
                Some(false) => return fold_indices(b, index, r),
                None => AluKind::Where(Box::new(c), f(a), f(b)),
            }
        }
        AluKind::Cast(a) => AluKind::Cast(f(a)),
        AluKind::Bitcast(a) => AluKind::Bitcast(f(a)),
        AluKind::Threefry(mode, ops) => {
            AluKind::Threefry(*mode, Box::new(ops.each_ref().map(|e| *f(e))))
        }
    };
    AluExp {
        dtype: exp.dtype,
        kind,
    }
}

fn int(value: i32) -> AluExp {
    AluExp::constant(DType::Int32, value as f64)
}

fn boolean(value: bool) -> AluExp {
    AluExp::constant(DType::Bool, if value { 1.0 } else { 0.0 })
}

/// The value of an int32 constant.
fn as_int(e: &AluExp) -> Option<i32> {
    match e.dtype {
        DType::Int32 => e.const_value().map(|v| v as i32),
        _ => None,
    }
}

/// The value of a bool constant.
fn as_bool(e: &AluExp) -> Option<bool> {
    match e.dtype {
        DType::Bool => e.const_value().map(|v| v != 0.0),
        _ => None,
    }
}

/// `a op b` when both are int32 (or both bool) constants and `op` is defined on them.
fn binary(dtype: DType, op: BinaryOp, a: &AluExp, b: &AluExp) -> Option<AluExp> {
    if dtype == DType::Bool {
        let (x, y) = (as_bool(a)?, as_bool(b)?);
        return match op {
            BinaryOp::And => Some(boolean(x & y)),
            BinaryOp::Or => Some(boolean(x | y)),
            BinaryOp::Xor => Some(boolean(x ^ y)),
            _ => None,
        };
    }
    if dtype != DType::Int32 {
        return None;
    }
    let (x, y) = (as_int(a)?, as_int(b)?);
    Some(int(op.int32(x, y)))
}
