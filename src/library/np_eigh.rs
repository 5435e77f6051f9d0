//! `eigh`/`eigvalsh` (numpy.linalg and lax.linalg) of symmetric matrices: the `Diagonalize`
//! routine (`jacobi.rs`) on the input with its gradient stopped, eigenvalues ascending as in
//! NumPy and JAX, eigenvector signs as the routine leaves them (LAPACK's are arbitrary too).
//!
//! Derivatives come from JAX's eigh rule, attached to the exact values by terms that are zero
//! in value: with `Δ = a − stop_gradient(a)` (value 0, derivative `ȧ`), `S = Vᵀ Δ V` and
//! `F_ij = 1 / (w_j − w_i)` (0 where equal), the outputs are `V + V (F ∘ S)` and
//! `w + diag(Vᵀ Δ (V + V (F ∘ S)))`. The first derivatives are JAX's (`ẇ = diag(Vᵀ ȧ V)`,
//! `V̇ = V (F ∘ Vᵀ ȧ V)`), and so is the second derivative of the eigenvalues
//! (`2 Σ_j S_ij² / (w_i − w_j)`); higher derivatives, and second derivatives of the
//! eigenvectors, are not those of the exact function.

use super::indexing::sort;
use super::jacobi::{self, eye_mask, sum};
use super::lax_linalg::{float_matrix, matmul, mt};
use crate::rules::lax;
use crate::rules::routine as rl;
use crate::transform::trace::{Binder, Value};
use crate::util::Result;

/// `x [..., r, c]` as `[batch, r, c]`, and the batch shape.
pub fn flatten_batch(x: &Value) -> Result<(Value, Vec<usize>)> {
    let s = x.aval().shape.clone();
    let r = s.len();
    let batch = s[..r - 2].to_vec();
    let b = batch.iter().product();
    Ok((
        lax::reshape(&mut Binder, x, vec![b, s[r - 2], s[r - 1]])?,
        batch,
    ))
}

pub fn with_batch(x: &Value, batch: &[usize]) -> Result<Value> {
    let s = x.aval().shape.clone();
    let mut shape = batch.to_vec();
    shape.extend_from_slice(&s[1..]);
    lax::reshape(&mut Binder, x, shape)
}

/// The diagonal `[b, n]` of `x [b, n, n]`.
pub fn diag(x: &Value) -> Result<Value> {
    let s = x.aval().shape.clone();
    let mask = eye_mask(vec![1, s[1], s[2]], 1, 2, x.aval().dtype)?;
    sum(&lax::mul(&mut Binder, x, &mask)?, vec![2])
}

/// `[b, n, n]` with element `[i, j] = 1 / (x_j − x_i)` (0 where `x_j = x_i`) of `x [b, n]`,
/// applied to `d`: `d_ij` is the difference `x_j − x_i` computed by `diff`.
pub fn reciprocal_gaps(x: &Value, diff: impl Fn(&Value, &Value) -> Result<Value>) -> Result<Value> {
    let s = x.aval().shape.clone();
    let (b, n) = (s[0], s[1]);
    let row = lax::reshape(&mut Binder, x, vec![b, 1, n])?;
    let col = lax::reshape(&mut Binder, x, vec![b, n, 1])?;
    let d = diff(&row, &col)?;
    let zero = lax::eq(&mut Binder, &d, 0.0)?;
    let safe = lax::select(&mut Binder, &zero, 1.0, &d)?;
    lax::select(&mut Binder, &zero, 0.0, &lax::div(&mut Binder, 1.0, &safe)?)
}

pub fn stop_gradient(x: &Value) -> Result<Value> {
    lax::stop_gradient(&mut Binder, x)
}

/// Whether `x` is traced by a trace that may differentiate it (so derivative terms that are
/// zero in value must be attached).
pub fn is_traced(x: &Value) -> bool {
    matches!(x, Value::Tracer(t) if !crate::transform::eager_jit::evaluated_only(t.frame))
}

/// Eigenvalues ascending and their eigenvectors of `a [b, n, n]`.
fn sorted(name: &str, a: &Value) -> Result<Vec<Value>> {
    let (w, vecs) = jacobi::eigh(a)?;
    let order = sort(name, &w, -1, true)?;
    let vecs = jacobi::permute_columns(&vecs, &order)?;
    Ok(vec![sort(name, &w, -1, false)?, vecs])
}

/// `(w [..., n] ascending, v [..., n, n])` of the symmetric matrices `a`: symmetrized
/// (`(a + aᵀ) / 2`), or read from the `lower` (or upper) triangle.
pub fn eigh(name: &str, a: &Value, lower: bool, symmetrize: bool) -> Result<(Value, Value)> {
    let a = float_matrix(name, a, 2)?;
    let n = super::np_solve::check_square(name, &a)?;
    let a = if symmetrize {
        lax::mul(&mut Binder, &lax::add(&mut Binder, &a, &mt(&a)?)?, 0.5)?
    } else {
        let tri = rl::triangle(&mut Binder, &a, lower, 0)?;
        let strict = rl::triangle(&mut Binder, &a, lower, if lower { -1 } else { 1 })?;
        lax::add(&mut Binder, &tri, &mt(&strict)?)?
    };
    if n == 0 {
        // Nothing to decompose: empty eigenvalues and eigenvectors.
        let mut ws = a.aval().shape.clone();
        ws.pop();
        return Ok((lax::reshape(&mut Binder, &a, ws)?, a));
    }
    let (a, batch) = flatten_batch(&a)?;
    let fixed = stop_gradient(&a)?;
    let outs = sorted(name, &fixed)?;
    let (mut w, mut vecs) = (outs[0].clone(), outs[1].clone());
    if is_traced(&a) {
        let delta = lax::sub(&mut Binder, &a, &stop_gradient(&a)?)?;
        let vt = mt(&vecs)?;
        let s = matmul(&vt, &matmul(&delta, &vecs)?)?;
        let f = reciprocal_gaps(&w, |row, col| lax::sub(&mut Binder, row, col))?;
        let v1 = lax::add(
            &mut Binder,
            &vecs,
            &matmul(&vecs, &lax::mul(&mut Binder, &f, &s)?)?,
        )?;
        let dw = diag(&matmul(&vt, &matmul(&delta, &v1)?)?)?;
        w = lax::add(&mut Binder, &w, &dw)?;
        vecs = v1;
    }
    Ok((with_batch(&w, &batch)?, with_batch(&vecs, &batch)?))
}
