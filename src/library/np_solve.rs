//! `lax.linalg.lu` and the `numpy.linalg` functions built on it (as jax-js does): solve, inv,
//! det, slogdet — the LU routine, a permutation matrix and two triangular solves, so each is
//! differentiable through the routines' VJP rules.

use super::lax_linalg::{broadcast_batch, column_back, float_matrix, matmul, promote_pair, rename};
use super::matrices::diagonal;
use super::reduce::{reduce, ReduceKind};
use crate::core::shape::broadcast_shapes;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

/// `lax.linalg.lu(a)`: `[lu, pivots, permutation]`.
pub fn lu(name: &str, a: &Value) -> Result<Vec<Value>> {
    let a = float_matrix(name, a, 2)?;
    lax::lu(&mut Binder, &a).map_err(|e| rename(e, name))
}

/// The size `n` of a (batch of) square `n×n` matrices, or an error naming `name`.
pub(super) fn check_square(name: &str, a: &Value) -> Result<usize> {
    let s = &a.aval().shape;
    let r = s.len();
    if r < 2 || s[r - 1] != s[r - 2] {
        return Err(Error::new(
            name,
            format!("a must be a (batch of) square matrices, got shape {s:?}"),
        ));
    }
    Ok(s[r - 1])
}

/// The permutation matrices `P[i, j] = (permutation[i] == j)` (so `P a` permutes rows).
fn permutation_matrix(perm: &Value, n: usize, dtype: DType) -> Result<Value> {
    let mut shape = perm.aval().shape.clone();
    shape.push(1);
    let col = lax::reshape(&mut Binder, perm, shape.clone())?;
    let r = shape.len();
    shape[r - 1] = n;
    let j = lax::iota_i32(&mut Binder, shape, r - 1)?;
    let hit = lax::eq(&mut Binder, &col, &j)?;
    lax::cast(&mut Binder, &hit, dtype)
}

/// `solve(a [..., N, N], b [N] or [..., N, M])`: LU with partial pivoting, batch axes broadcast.
pub fn solve(name: &str, a: &Value, b: &Value) -> Result<Value> {
    let (a, b) = promote_pair(name, a, b)?;
    let n = check_square(name, &a)?;
    let sb = b.aval().shape.clone();
    if sb.is_empty() {
        return Err(Error::new(
            name,
            "b must be a vector or a matrix, not a scalar",
        ));
    }
    let vector = sb.len() == 1;
    let b = if vector {
        lax::reshape(&mut Binder, &b, vec![sb[0], 1])?
    } else {
        b
    };
    let sb = b.aval().shape.clone();
    if sb[sb.len() - 2] != n {
        return Err(Error::new(
            name,
            format!(
                "b must have {n} rows to match a of shape {:?}, got shape {:?}",
                a.aval().shape,
                sb
            ),
        ));
    }
    let sa = &a.aval().shape;
    let batch = broadcast_shapes(name, &sa[..sa.len() - 2], &sb[..sb.len() - 2])?;
    let (a, b) = (broadcast_batch(&a, &batch)?, broadcast_batch(&b, &batch)?);
    let outs = lu(name, &a)?;
    let p = permutation_matrix(&outs[2], n, a.aval().dtype)?;
    let pb = matmul(&p, &b)?;
    let y = lax::triangular_solve(&mut Binder, &outs[0], &pb, true, true, false, true)?;
    let x = lax::triangular_solve(&mut Binder, &outs[0], &y, true, false, false, false)?;
    column_back(&x, vector)
}

/// `inv(a)`: `solve(a, I)`.
pub fn inv(a: &Value) -> Result<Value> {
    let name = "inv";
    let a = float_matrix(name, a, 0)?;
    check_square(name, &a)?;
    solve(name, &a, &super::np_norms::eye_like(&a)?)
}

/// The packed factor's diagonal and the parity of the pivoting (1 where odd) of square `a`.
fn factor_diagonal(name: &str, a: &Value) -> Result<(Value, Value)> {
    let a = float_matrix(name, a, 0)?;
    check_square(name, &a)?;
    let outs = lu(name, &a)?;
    let d = diagonal(&outs[0], 0, -2, -1)?;
    let shape = outs[1].aval().shape.clone();
    let r = shape.len();
    let steps = lax::iota_i32(&mut Binder, shape, r - 1)?;
    let swapped = lax::ne(&mut Binder, &outs[1], &steps)?;
    let swaps = lax::cast(&mut Binder, &swapped, DType::Int32)?;
    let count = reduce(name, ReduceKind::Sum, &swaps, Some(&[-1]), false)?;
    Ok((d, count))
}

/// `(-1)^count` in `dtype`.
fn sign_of(count: &Value, dtype: DType) -> Result<Value> {
    let odd = lax::rem(&mut Binder, count, 2.0)?;
    let oddf = lax::cast(&mut Binder, &odd, dtype)?;
    lax::sub(&mut Binder, 1.0, &lax::mul(&mut Binder, &oddf, 2.0)?)
}

/// `det(a)`: the product of the LU diagonal, signed by the pivoting.
pub fn det(a: &Value) -> Result<Value> {
    let name = "det";
    let (d, swaps) = factor_diagonal(name, a)?;
    let prod = reduce(name, ReduceKind::Prod, &d, Some(&[-1]), false)?;
    let sign = sign_of(&swaps, d.aval().dtype)?;
    lax::mul(&mut Binder, &prod, &sign)
}

/// `slogdet(a)`: `[sign, log|det|]`; a singular matrix gives sign 0 and -∞, as JAX.
pub fn slogdet(a: &Value) -> Result<Vec<Value>> {
    let name = "slogdet";
    let (d, swaps) = factor_diagonal(name, a)?;
    let dtype = d.aval().dtype;
    let neg = lax::lt(&mut Binder, &d, 0.0)?;
    let negs = lax::cast(&mut Binder, &neg, DType::Int32)?;
    let neg_count = reduce(name, ReduceKind::Sum, &negs, Some(&[-1]), false)?;
    let count = lax::add(&mut Binder, &swaps, &neg_count)?;
    let sign = sign_of(&count, dtype)?;
    let zero = lax::eq(&mut Binder, &d, 0.0)?;
    let any_zero = reduce(name, ReduceKind::Any, &zero, Some(&[-1]), false)?;
    let sign = lax::select(&mut Binder, &any_zero, 0.0, &sign)?;
    let log_abs = lax::log(&mut Binder, &lax::abs(&mut Binder, &d)?)?;
    let logdet = reduce(name, ReduceKind::Sum, &log_abs, Some(&[-1]), false)?;
    Ok(vec![sign, logdet])
}
