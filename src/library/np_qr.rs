//! QR by Householder reflections as a composition of primitives (LAPACK's `geqrf` sign
//! convention: `R[j, j] = -sign(x_j) ‖x‖`, no reflection for a one-element column), so it runs
//! on every device and is differentiable through the ordinary rules. Fine for the small
//! matrices it serves; a hand-written routine can replace it later.

use super::lax_linalg::{float_matrix, matmul, mt};
use super::reduce::{reduce, ReduceKind};
use crate::rules::lax;
use crate::rules::routine as rl;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::Result;

fn shrink(x: &Value, last2: [(usize, usize); 2]) -> Result<Value> {
    let s = &x.aval().shape;
    let r = s.len();
    let mut ranges: Vec<(usize, usize)> = s.iter().map(|&d| (0, d)).collect();
    ranges[r - 2] = last2[0];
    ranges[r - 1] = last2[1];
    lax::shrink(&mut Binder, x, ranges)
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
    let eye = lax::eq(
        &mut Binder,
        &lax::iota_i32(&mut Binder, qshape.clone(), rank - 2)?,
        &lax::iota_i32(&mut Binder, qshape, rank - 1)?,
    )?;
    let mut q = lax::cast(&mut Binder, &eye, dtype)?;
    let mut r = a.clone();
    let rows = lax::iota_i32(&mut Binder, vec![m, 1], 0)?;
    let sum_rows = |x: &Value| reduce(name, ReduceKind::Sum, x, Some(&[-2]), true);
    for j in 0..k {
        if j + 1 == m {
            break; // a one-element column: LAPACK leaves it (no reflection)
        }
        let below = lax::le(&mut Binder, j as f64, &rows)?;
        let below = lax::cast(&mut Binder, &below, dtype)?;
        let ej = lax::cast(&mut Binder, &lax::eq(&mut Binder, &rows, j as f64)?, dtype)?;
        let x = lax::mul(&mut Binder, &shrink(&r, [(0, m), (j, j + 1)])?, &below)?;
        let xj = shrink(&r, [(j, j + 1), (j, j + 1)])?;
        let norm = lax::sqrt(&mut Binder, &sum_rows(&lax::mul(&mut Binder, &x, &x)?)?)?;
        let negative = lax::lt(&mut Binder, &xj, 0.0)?;
        let alpha = lax::select(
            &mut Binder,
            &negative,
            &norm,
            &lax::neg(&mut Binder, &norm)?,
        )?;
        let vv = lax::sub(&mut Binder, &x, &lax::mul(&mut Binder, &alpha, &ej)?)?;
        let vnorm = lax::sqrt(&mut Binder, &sum_rows(&lax::mul(&mut Binder, &vv, &vv)?)?)?;
        let u = lax::div(&mut Binder, &vv, &vnorm)?;
        let ut = mt(&u)?;
        let ur = matmul(&u, &matmul(&ut, &r)?)?;
        r = lax::sub(&mut Binder, &r, &lax::mul(&mut Binder, &ur, 2.0)?)?;
        let qu = matmul(&matmul(&q, &u)?, &ut)?;
        q = lax::sub(&mut Binder, &q, &lax::mul(&mut Binder, &qu, 2.0)?)?;
    }
    let r = rl::triangle(&mut Binder, &r, false, 0)?;
    if complete {
        return Ok((q, r));
    }
    Ok((shrink(&q, [(0, m), (0, k)])?, shrink(&r, [(0, k), (0, n)])?))
}
