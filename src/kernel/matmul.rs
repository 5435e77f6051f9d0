//! Matrix products recognised from kernel structure, shared by every backend that tiles them
//! (the WebGPU `wgsl_matmul`, the wasm `emit/matmul`). A float32 sum-reduction whose expression is `a · b`, where `a`
//! depends on the output index only through `index / c` (c a multiple of the column count `n`)
//! and `b` only through `index % n`, is a matrix product `out[row, col] = Σ_k a(row, k) ·
//! b(k, col)` over `rows = size / n` rows, whatever the operands' layouts (views, broadcasts,
//! padding, casts: `a` and `b` are arbitrary expressions, re-evaluated with `i = row · n` or
//! `i = col` and `r = k`). This covers 2-D products and batched left operands against a shared
//! right operand; other batched products are not recognised.

use super::alu::{AluExp, AluKind, BinaryOp};
use super::{Kernel, ReduceOp};
use crate::core::DType;

/// A matrix product recognised in a kernel.
#[derive(Debug, Clone)]
pub struct Matmul {
    pub a: AluExp,
    pub b: AluExp,
    pub rows: usize,
    pub n: usize,
    pub k: usize,
}

/// Every occurrence of `Index` in `e` is the left operand of a node accepted by `ok(op, c)`.
fn index_only_through(e: &AluExp, ok: &dyn Fn(BinaryOp, f64) -> bool) -> bool {
    match &e.kind {
        AluKind::Index => false,
        AluKind::Binary(op, a, b) if matches!(a.kind, AluKind::Index) => {
            b.const_value().is_some_and(|c| ok(*op, c))
        }
        _ => e.children().iter().all(|c| index_only_through(c, ok)),
    }
}

/// The `n` of the first `Rem(Index, n)` in `e`.
fn column_count(e: &AluExp) -> Option<usize> {
    if let AluKind::Binary(BinaryOp::Rem, a, b) = &e.kind {
        if matches!(a.kind, AluKind::Index) {
            return b.const_value().map(|c| c as usize);
        }
    }
    e.children().into_iter().find_map(column_count)
}

/// The matrix product `kernel` computes, if it has that structure (any size).
pub fn structure(kernel: &Kernel) -> Option<Matmul> {
    let red = kernel.reduction?;
    if red.op != ReduceOp::Sum || kernel.exp.dtype != DType::Float32 {
        return None;
    }
    let AluKind::Binary(BinaryOp::Mul, a, b) = &kernel.exp.kind else {
        return None;
    };
    let n = column_count(b)?;
    if n < 2 || !kernel.size.is_multiple_of(n) {
        return None;
    }
    let a_ok = index_only_through(a, &|op, c| {
        op == BinaryOp::Div && c >= 1.0 && (c as usize).is_multiple_of(n)
    });
    let b_ok = index_only_through(b, &|op, c| op == BinaryOp::Rem && c as usize == n);
    (a_ok && b_ok).then(|| Matmul {
        a: (**a).clone(),
        b: (**b).clone(),
        rows: kernel.size / n,
        n,
        k: red.size,
    })
}
