//! QR by Householder reflections as a composition of primitives (LAPACK's `geqrf` sign
//! convention: `R[j, j] = -sign(x_j) ‖x‖`, no reflection for a one-element column), so it runs
//! on every device and is differentiable through the ordinary rules. Fine for the small
//! matrices it serves; a hand-written routine can replace it later.

use super::emit::{bin, cmp, lit, select, un, v};
use super::lax_linalg::{float_matrix, matmul, mt};
use super::reduce::{reduce, ReduceKind};
use crate::core::ops::{BinaryOp as B, CompareOp as C, UnaryOp as U};
use crate::core::Primitive;
use crate::rules::lax;
use crate::rules::routine as rl;
use crate::transform::trace::bind;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::Result;

fn shrink(x: &Value, last2: [(usize, usize); 2]) -> Result<Value> {
    let s = &x.aval().shape;
    let r = s.len();
    let mut ranges: Vec<(usize, usize)> = s.iter().map(|&d| (0, d)).collect();
    ranges[r - 2] = last2[0];
    ranges[r - 1] = last2[1];
    bind(Primitive::Shrink(ranges), &[v(x)])
}

/// `(q, r)`: `q [..., m, m]` and `r [..., m, n]` (complete), or `[..., m, k]` and
/// `[..., k, n]` with `k = min(m, n)` (reduced).
pub fn qr(name: &str, a: &Value, complete: bool) -> Result<(Value, Value)> {
    let a = float_matrix(name, a, 2)?;
    let shape = a.aval().shape.clone();
    let rank = shape.len();
    let (m, n) = (shape[rank - 2], shape[rank - 1]);
    let dtype = a.aval().dtype;
    let k = m.min(n);
    let mut qshape = shape.clone();
    qshape[rank - 1] = m;
    let eye = cmp(
        C::Eq,
        v(&lax::iota_i32(&mut Binder, qshape.clone(), rank - 2)?),
        v(&lax::iota_i32(&mut Binder, qshape, rank - 1)?),
    )?;
    let mut q = bind(Primitive::Cast(dtype), &[v(&eye)])?;
    let mut r = a.clone();
    let rows = lax::iota_i32(&mut Binder, vec![m, 1], 0)?;
    let sum_rows = |x: &Value| reduce(name, ReduceKind::Sum, x, Some(&[-2]), true);
    for j in 0..k {
        if j + 1 == m {
            break; // a one-element column: LAPACK leaves it (no reflection)
        }
        let below = cmp(C::Le, lit(j as f64), v(&rows))?;
        let below = bind(Primitive::Cast(dtype), &[v(&below)])?;
        let ej = bind(
            Primitive::Cast(dtype),
            &[v(&cmp(C::Eq, v(&rows), lit(j as f64))?)],
        )?;
        let x = bin(B::Mul, v(&shrink(&r, [(0, m), (j, j + 1)])?), v(&below))?;
        let xj = shrink(&r, [(j, j + 1), (j, j + 1)])?;
        let norm = un(U::Sqrt, &sum_rows(&bin(B::Mul, v(&x), v(&x))?)?)?;
        let negative = cmp(C::Lt, v(&xj), lit(0.0))?;
        let alpha = select(&negative, v(&norm), v(&un(U::Neg, &norm)?))?;
        let vv = bin(B::Sub, v(&x), v(&bin(B::Mul, v(&alpha), v(&ej))?))?;
        let vnorm = un(U::Sqrt, &sum_rows(&bin(B::Mul, v(&vv), v(&vv))?)?)?;
        let u = bin(B::Div, v(&vv), v(&vnorm))?;
        let ut = mt(&u)?;
        let ur = matmul(&u, &matmul(&ut, &r)?)?;
        r = bin(B::Sub, v(&r), v(&bin(B::Mul, v(&ur), lit(2.0))?))?;
        let qu = matmul(&matmul(&q, &u)?, &ut)?;
        q = bin(B::Sub, v(&q), v(&bin(B::Mul, v(&qu), lit(2.0))?))?;
    }
    let r = rl::triangle(&mut Binder, &r, false, 0)?;
    if complete {
        return Ok((q, r));
    }
    Ok((shrink(&q, [(0, m), (0, k)])?, shrink(&r, [(0, k), (0, n)])?))
}
