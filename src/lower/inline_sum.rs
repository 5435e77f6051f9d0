//! Small reductions inlined into their consumer, on devices that ask for it
//! (`DeviceLimits::inline_terms`). A sum or product of at most that many
//! terms (the contractions of small matrices: a batched 2×2 matmul is a sum of two products)
//! whose value has one use is not given a kernel of its own: its terms are written out and
//! folded from the identity in the order the kernel would have combined them
//! (`kernel::order`: sequential in its own dtype), so every device computes the same bits as
//! the kernel would have. Its one consumer may read it several times (a product of products
//! reads each element once per column): recomputing it is cheaper than a kernel, a barrier
//! and a round trip through memory, up to [`MAX_REPEATS`] times per element.
//!
//! Reductions accumulated more widely than their dtype (float32 sums in float64, except
//! strided sums of products: `order::wide`) are inlined only with one term, where both orders
//! give the same value.

use super::epilogue::Pending;
use super::expr::substitute;
use crate::core::{Aval, DType};
use crate::kernel::{
    order, reduce_identity, simplify, AluExp, AluKind, BinaryOp, Kernel, ReduceOp,
};

/// An inlined reduction's expression has at most this many nodes.
pub const MAX_NODES: usize = 256;
/// A consumer reads each element of an inlined reduction at most this many times.
pub const MAX_REPEATS: usize = 2;

/// The pending reduction `p` as an expression of its output index (its terms folded in the
/// kernel's order, then its epilogue), or None when it has more than `max_terms` terms, is not
/// a sum or product, or is not combined in its own dtype.
pub fn unrolled(p: &Pending, max_terms: usize) -> Option<AluExp> {
    let red = p.reduction;
    let dtype = p.exp.dtype;
    if red.size == 0 || red.size > max_terms {
        return None;
    }
    let op = match red.op {
        ReduceOp::Sum => BinaryOp::Add,
        ReduceOp::Prod => BinaryOp::Mul,
        _ => return None,
    };
    if !matches!(dtype, DType::Float32 | DType::Int32 | DType::Uint32) {
        return None;
    }
    let kernel = simplify::kernel(&Kernel {
        inputs: Vec::new(),
        size: p.size,
        exp: p.exp.clone(),
        reduction: Some(red),
        epilogue: None,
    });
    if order::wide(&kernel) && red.size > 1 {
        return None;
    }
    let index = simplify::upto(p.size);
    let mut acc = AluExp::constant(dtype, reduce_identity(red.op, dtype));
    for r in 0..red.size {
        let at = AluExp::constant(DType::Int32, r as f64);
        let term = kernel
            .exp
            .rewrite(&|e| matches!(e.kind, AluKind::ReduceIndex).then(|| at.clone()));
        acc = AluExp::binary(op, acc, simplify::simplify(&term, index, None));
    }
    // The epilogue's one input is the reduced value at its own element.
    let value = match &p.epilogue {
        None => acc,
        Some(ep) => substitute(ep, &[acc]),
    };
    (super::expr::size(&value) <= MAX_NODES).then_some(value)
}

/// True when a consumer computing `out` with `reduction` terms per element reads an
/// operand of aval `input` at most [`MAX_REPEATS`] times per element.
pub fn repeats_few(input: &Aval, out: &Aval, reduction: Option<usize>) -> bool {
    let reads = out.size().saturating_mul(reduction.unwrap_or(1).max(1));
    reads <= input.size().max(1).saturating_mul(MAX_REPEATS)
}
