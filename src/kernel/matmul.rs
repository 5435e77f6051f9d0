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
//! `i = batch · rows · n + col`. The column side may also read the index as `(index / d) % m`
//! with `d · m` dividing `n` (columns unravelled into several axes), and a product under a
//! mask that only one side's indices decide is that side masked: a convolution is a batch
//! (its images) of products of its kernel (rows: output channels) by its input windows
//! (columns: output positions; k: input channels × taps).
//!
//! [`plain_load`] finds operands that are float32 loads at an index affine in (row, k) or
//! (col, k), which the tiled code generators address without re-evaluating the expression;
//! [`row_side`] finds products whose row side alone is such a load (a convolution's kernel),
//! the column side any expression (its input windows) and the mask on the column side.

use super::alu::{AluExp, AluKind, BinaryOp};
use super::{Kernel, ReduceOp, Reduction};
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

/// How a column-side operand reads the output index: `Index % c` (the moduli), `(Index / d)
/// % m` (pairs, a column axis or a batch axis) and `Index / c` (batch divisors).
#[derive(Default)]
struct ColumnReads {
    moduli: Vec<usize>,
    pairs: Vec<(usize, usize)>,
    batch: Vec<usize>,
}

/// Collects `e`'s reads of the output index into `out`; false when it reads it otherwise.
fn column_reads(e: &AluExp, out: &mut ColumnReads) -> bool {
    let konst = |x: &AluExp| x.const_value().filter(|&c| c >= 1.0).map(|c| c as usize);
    if let AluKind::Binary(BinaryOp::Rem, x, m) = &e.kind {
        if let AluKind::Binary(BinaryOp::Div, i, d) = &x.kind {
            if matches!(i.kind, AluKind::Index) {
                let (Some(d), Some(m)) = (konst(d), konst(m)) else {
                    return false;
                };
                out.pairs.push((d, m));
                return true;
            }
        }
    }
    match &e.kind {
        AluKind::Index => false,
        AluKind::Binary(op, i, c) if matches!(i.kind, AluKind::Index) => match (op, konst(c)) {
            (BinaryOp::Rem, Some(c)) => {
                out.moduli.push(c);
                true
            }
            (BinaryOp::Div, Some(c)) => {
                out.batch.push(c);
                true
            }
            _ => false,
        },
        _ => e.children().iter().all(|c| column_reads(c, out)),
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: usize, b: usize) -> Option<usize> {
    a.checked_mul(b / gcd(a, b))
}

/// The product of `n` columns with `a` on the row side and `b` on the column side, if they
/// have that shape: every pair of `b` is a column axis (`d · m` divides `n`) or a batch axis
/// (`d` a multiple of `n`).
fn with_columns(
    a: &AluExp,
    b: &AluExp,
    reads: &ColumnReads,
    n: usize,
    size: usize,
    k: usize,
) -> Option<Matmul> {
    if n < 2 || !size.is_multiple_of(n) || reads.moduli.iter().any(|&c| !n.is_multiple_of(c)) {
        return None;
    }
    let mut batch = reads.batch.clone();
    for &(d, m) in &reads.pairs {
        match n.is_multiple_of(d * m) {
            true => {}
            false if d.is_multiple_of(n) => batch.push(d),
            false => return None,
        }
    }
    if batch.iter().any(|c| !c.is_multiple_of(n)) {
        return None;
    }
    let a_ok = index_only_through(a, &|op, c| {
        op == BinaryOp::Div && c >= 1.0 && (c as usize).is_multiple_of(n)
    });
    if !a_ok {
        return None;
    }
    // Rows of one product: every row block that `b` tells apart, as large as can be.
    let total = size / n;
    let rows = batch.iter().fold(total, |g, &c| gcd(g, c / n));
    Some(Matmul {
        a: a.clone(),
        b: b.clone(),
        rows,
        n,
        k,
        batches: total / rows,
    })
}

/// The product with `a` on the row side and `b` on the column side, if they have that shape.
/// The columns are the least common multiple of `b`'s moduli and of some of its pairs: of
/// the choices that fit, the one with the most rows per product.
fn as_product(a: &AluExp, b: &AluExp, size: usize, k: usize) -> Option<Matmul> {
    let mut reads = ColumnReads::default();
    if !column_reads(b, &mut reads) || reads.pairs.len() > 6 {
        return None;
    }
    let base = reads.moduli.iter().try_fold(1, |l, &m| lcm(l, m))?;
    (0..1usize << reads.pairs.len())
        .filter_map(|subset| {
            let mut chosen = reads
                .pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| subset >> i & 1 == 1);
            let n = chosen.try_fold(base, |l, (_, &(d, m))| lcm(l, d * m))?;
            with_columns(a, b, &reads, n, size, k)
        })
        .max_by_key(|m| (m.rows, m.n))
}

/// `kernel`'s reduction, where it is a float32 sum (every product is one).
fn float32_sum(kernel: &Kernel) -> Option<Reduction> {
    let red = kernel.reduction?;
    (red.op == ReduceOp::Sum && kernel.exp.dtype == DType::Float32).then_some(red)
}

/// The factors of `e`, where it is a product.
fn product(e: &AluExp) -> Option<(AluExp, AluExp)> {
    match &e.kind {
        AluKind::Binary(BinaryOp::Mul, x, y) => Some(((**x).clone(), (**y).clone())),
        _ => None,
    }
}

/// The matrix product `kernel` computes, if it has that structure (any size): its expression
/// is `x · y`, or `where(c, x · y, 0)` (a convolution's padding mask) with the mask moved
/// into one operand, and either factor may be the row side.
pub fn structure(kernel: &Kernel) -> Option<Matmul> {
    let red = float32_sum(kernel)?;
    let mut pairs = Vec::new();
    if let Some((x, y)) = product(&kernel.exp) {
        pairs.extend([(x.clone(), y.clone()), (y, x)]);
    } else if let AluKind::Where(c, t, f) = &kernel.exp.kind {
        let (x, y) = product(t).filter(|_| f.const_value() == Some(0.0))?;
        let masked = |v: &AluExp| AluExp::where_((**c).clone(), v.clone(), (**f).clone());
        pairs.extend([
            (x.clone(), masked(&y)),
            (y.clone(), masked(&x)),
            (masked(&x), y.clone()),
            (masked(&y), x),
        ]);
    }
    pairs
        .iter()
        .find_map(|(a, b)| as_product(a, b, kernel.size, red.size))
}

/// A batch of products `out[batch, row, col] = Σ_k where(mask(col, k), x · y, 0)` (or without
/// the mask), with one factor a plain float32 load at an index affine in (row, k) (see
/// [`row_side`]).
#[derive(Debug, Clone)]
pub struct RowSide {
    /// Whether the row-side factor is `x`, the product's left operand.
    pub a_first: bool,
    /// The row-side factor's input and index in the first product, at `Index = row · n` and
    /// `ReduceIndex = k`.
    pub a: (usize, Lin),
    /// How far the row side's index moves from one product of the batch to the next.
    pub a_step: i64,
    /// The other factor: an expression of the column (`Index = (batch · rows + row) · n +
    /// col`) and k, the same for every row of a product.
    pub b: AluExp,
    pub mask: Option<AluExp>,
    pub rows: usize,
    pub n: usize,
    pub k: usize,
    pub batches: usize,
}

/// The products `kernel` computes when one of its factors is a plain float32 load on the row
/// side (reading the output index only through `index / c`, c a multiple of the columns; in
/// every product of a batch at the same strides, from a base moving by a constant step) and
/// the other factor and the mask read it only as columns (and products).
pub fn row_side(kernel: &Kernel) -> Option<RowSide> {
    let red = float32_sum(kernel)?;
    let (mask, (x, y)) = match &kernel.exp.kind {
        AluKind::Binary(BinaryOp::Mul, ..) => (None, product(&kernel.exp)?),
        AluKind::Where(c, t, f) if f.const_value() == Some(0.0) => {
            (Some((**c).clone()), product(t)?)
        }
        _ => return None,
    };
    let side = |a_first: bool, a: &AluExp, b: &AluExp| {
        let column = match &mask {
            Some(c) => AluExp::where_(c.clone(), b.clone(), AluExp::constant(b.dtype, 0.0)),
            None => b.clone(),
        };
        let m = as_product(a, &column, kernel.size, red.size)?;
        let at = |batch: usize| Lin {
            c: (batch * m.rows * m.n) as i64,
            v: [m.n as i64, 0],
        };
        let hi = [m.rows as i64, m.k as i64];
        let (input, first) = plain_load(a, at(0), hi)?;
        let a_step = match m.batches {
            1 => 0,
            _ => plain_load(a, at(1), hi)?.1.c - first.c,
        };
        for batch in 1..m.batches {
            let (i, l) = plain_load(a, at(batch), hi)?;
            if i != input || l.v != first.v || l.c != first.c + batch as i64 * a_step {
                return None;
            }
        }
        Some(RowSide {
            a_first,
            a: (input, first),
            a_step,
            b: b.clone(),
            mask: mask.clone(),
            rows: m.rows,
            n: m.n,
            k: m.k,
            batches: m.batches,
        })
    };
    side(true, &x, &y).or_else(|| side(false, &y, &x))
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
                    let q = lo / m;
                    if up / m == q {
                        // The whole range within one multiple of m.
                        Some(match div {
                            true => Lin::konst(q),
                            false => Lin {
                                c: x.c - q * m,
                                v: x.v,
                            },
                        })
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
