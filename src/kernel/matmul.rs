//! Matrix products recognised from kernel structure, shared by every backend that tiles them
//! (the WebGPU `wgsl_matmul`, the wasm `emit/matmul`). A float32 sum-reduction whose
//! expression is `a · b`, where `a` depends on the output index only through `index / c` (c a
//! multiple of the column count `n`) and `b` only through `index % n`, is a matrix product
//! `out[row, col] = Σ_k a(row, k) · b(k, col)` over `rows = size / n` rows, whatever the operands' layouts (views, broadcasts,
//! padding, casts: `a` and `b` are arbitrary expressions, re-evaluated with `i = row · n` or
//! `i = col` and `r = k`). This covers 2-D products and batched left operands against a shared
//! right operand (one product of `size / n` rows). When `b` also depends on the output index
//! through `index / c` (c a multiple of `n`), the product is a batch of `batches` products of
//! `rows` rows each (`rows · n` divides every such c): batched products on both sides, as
//! `matmul`, `einsum` and `dot` of stacked matrices make; `b` is then re-evaluated at
//! `i = batch · rows · n + col`.
//!
//! [`plain_load`] finds operands that are float32 loads at an index affine in (row, k) or
//! (col, k), which the tiled code generators address without re-evaluating the expression.

use super::alu::{AluExp, AluKind, BinaryOp};
use super::{Kernel, ReduceOp};
use crate::core::DType;

/// A matrix product recognised in a kernel.
#[derive(Debug, Clone)]
pub struct Matmul {
    pub a: AluExp,
    pub b: AluExp,
    /// Rows of one product of the batch.
    pub rows: usize,
    pub n: usize,
    pub k: usize,
    /// Products in the batch (1: `b` is shared by every row).
    pub batches: usize,
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

/// The divisors `c` of every `Div(Index, c)` in `e`.
fn index_divisors(e: &AluExp, out: &mut Vec<usize>) {
    if let AluKind::Binary(BinaryOp::Div, a, b) = &e.kind {
        if matches!(a.kind, AluKind::Index) {
            if let Some(c) = b.const_value() {
                out.push(c as usize);
            }
        }
    }
    for c in e.children() {
        index_divisors(c, out);
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
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
    let b_ok = index_only_through(b, &|op, c| {
        let c = c as usize;
        (op == BinaryOp::Rem && c == n) || (op == BinaryOp::Div && c >= n && c.is_multiple_of(n))
    });
    if !(a_ok && b_ok) {
        return None;
    }
    // Rows of one product: every row block that `b` tells apart, as large as can be.
    let total = kernel.size / n;
    let mut divisors = Vec::new();
    index_divisors(b, &mut divisors);
    let rows = divisors.iter().fold(total, |g, &c| gcd(g, c / n));
    Some(Matmul {
        a: (**a).clone(),
        b: (**b).clone(),
        rows,
        n,
        k: red.size,
        batches: total / rows,
    })
}

/// An int32 index affine in two loop variables: `c + v[0]·x + v[1]·k`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lin {
    pub c: i64,
    pub v: [i64; 2],
}

impl Lin {
    fn konst(c: i64) -> Lin {
        Lin { c, v: [0, 0] }
    }

    /// The least and greatest value over x in 0..hi[0], k in 0..hi[1].
    fn bounds(&self, hi: [i64; 2]) -> (i64, i64) {
        let (mut lo, mut up) = (self.c, self.c);
        for (c, h) in self.v.iter().zip(hi) {
            let e = c * (h - 1).max(0);
            if e < 0 {
                lo += e;
            } else {
                up += e;
            }
        }
        (lo, up)
    }
}

/// `e` as an affine index, where `Index` stands for `index` and `ReduceIndex` for k; divisions
/// and remainders by constants resolve when provably exact over the ranges `hi`.
fn lin(e: &AluExp, index: Lin, hi: [i64; 2]) -> Option<Lin> {
    if e.dtype != DType::Int32 {
        return None;
    }
    match &e.kind {
        AluKind::Const(bits) => Some(Lin::konst(f64::from_bits(*bits) as i64)),
        AluKind::Index => Some(index),
        AluKind::ReduceIndex => Some(Lin { c: 0, v: [0, 1] }),
        AluKind::Binary(op, a, b) => {
            let (x, y) = (lin(a, index, hi)?, lin(b, index, hi)?);
            let scale = |l: Lin, s: i64| Lin {
                c: l.c * s,
                v: [l.v[0] * s, l.v[1] * s],
            };
            match op {
                BinaryOp::Add => Some(Lin {
                    c: x.c + y.c,
                    v: [x.v[0] + y.v[0], x.v[1] + y.v[1]],
                }),
                BinaryOp::Sub => Some(Lin {
                    c: x.c - y.c,
                    v: [x.v[0] - y.v[0], x.v[1] - y.v[1]],
                }),
                BinaryOp::Mul if y.v == [0, 0] => Some(scale(x, y.c)),
                BinaryOp::Mul if x.v == [0, 0] => Some(scale(y, x.c)),
                BinaryOp::Div | BinaryOp::Rem if y.v == [0, 0] && y.c > 0 => {
                    let m = y.c;
                    let (lo, up) = x.bounds(hi);
                    if lo < 0 {
                        return None;
                    }
                    let div = *op == BinaryOp::Div;
                    if up < m {
                        Some(if div { Lin::konst(0) } else { x })
                    } else if x.v.iter().all(|c| c % m == 0) {
                        Some(if div {
                            Lin {
                                c: x.c.div_euclid(m),
                                v: [x.v[0] / m, x.v[1] / m],
                            }
                        } else {
                            Lin::konst(x.c.rem_euclid(m))
                        })
                    } else {
                        None
                    }
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The input and affine index of a float32 operand that is a plain load (through an identity
/// cast).
pub fn plain_load(e: &AluExp, index: Lin, hi: [i64; 2]) -> Option<(usize, Lin)> {
    let e = match &e.kind {
        AluKind::Cast(inner) if inner.dtype == DType::Float32 => inner,
        _ => e,
    };
    match &e.kind {
        AluKind::Load { input, index: ix } if e.dtype == DType::Float32 => {
            Some((*input, lin(ix, index, hi)?))
        }
        _ => None,
    }
}
