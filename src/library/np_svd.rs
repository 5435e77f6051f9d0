//! `svd`/`svdvals` (numpy.linalg and lax.linalg): the `OrthogonalColumns` routine (`jacobi.rs`)
//! on the columns of `a` (of `aᵀ` when it is wide), singular values descending as in NumPy
//! and JAX.
//! Columns of `u` whose singular value is negligible (≤ `max(m, n) ε σ_max`), and the extra
//! columns of the complete (`fullMatrices`) `u`, are an orthonormal basis of the complement of
//! the others: the eigenvectors of the projector `I − u uᵀ` with eigenvalue 1 (of a zero
//! matrix instead, which costs no rotations, where no column needs them).
//!
//! Derivatives are JAX's svd rule (for the reduced factors), attached to the exact values by
//! terms that are zero in value, as `np_eigh.rs` does: with `Δ = a − stop_gradient(a)`,
//! `dS = uᵀ Δ v`, `F_ij = 1 / (s_j² − s_i²)`: `ṡ = diag(dS)`,
//! `u̇ = u (F ∘ (dS diag(s) + diag(s) dSᵀ)) + (I − u uᵀ) Δ v diag(1/s)`,
//! `v̇ = v (F ∘ (diag(s) dS + dSᵀ diag(s)))`. First derivatives only; the completed columns
//! of a complete `u` have none (JAX does not differentiate `fullMatrices` at all).

use super::indexing::sort;
use super::jacobi::{self, eye_mask, sum};
use super::lax_linalg::{float_matrix, matmul, mt};
use super::np_eigh::{self, flatten_batch, is_traced, reciprocal_gaps, stop_gradient};
use crate::core::ops::ReduceOp;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::{Binder, Value};
use crate::util::{Error, Result};

fn shrink_last(x: &Value, k: usize) -> Result<Value> {
    let s = &x.aval().shape;
    let r = s.len();
    let mut ranges: Vec<(usize, usize)> = s.iter().map(|&d| (0, d)).collect();
    ranges[r - 1] = (0, k);
    lax::shrink(&mut Binder, x, ranges)
}

/// Singular values `s [b, k]` (descending), and with `uv` the factors `u [b, m, k or m]` and
/// `v [b, k, k]` (columns) of `a [b, m, k]`, `m ≥ k`.
fn tall(name: &str, a: &Value, uv: bool, full: bool) -> Result<Vec<Value>> {
    let s = a.aval().shape.clone();
    let (b, m, k, dtype) = (s[0], s[1], s[2], a.aval().dtype);
    let eps = if dtype == DType::Float64 {
        f64::EPSILON
    } else {
        f32::EPSILON as f64
    };
    {
        let (w, vecs) = jacobi::orthogonalize_columns(a, uv)?;
        let norms = lax::sqrt(&mut Binder, &sum(&lax::mul(&mut Binder, &w, &w)?, vec![1])?)?; // [b, k]
        let neg = lax::neg(&mut Binder, &norms)?;
        let sv = lax::neg(&mut Binder, &sort(name, &neg, -1, false)?)?;
        if !uv {
            return Ok(vec![sv]);
        }
        let order = sort(name, &neg, -1, true)?;
        let w = jacobi::permute_columns(&w, &order)?;
        let vecs = jacobi::permute_columns(&vecs, &order)?;
        // Negligible singular values: their columns of u come from the complement.
        let largest = lax::reduce(&mut Binder, ReduceOp::Max, &sv, vec![1])?;
        let tol = lax::mul(&mut Binder, &largest, m as f64 * eps)?;
        let tol = lax::reshape(&mut Binder, &tol, vec![b, 1])?;
        let good = lax::lt(&mut Binder, &tol, &sv)?;
        let safe = lax::select(&mut Binder, &good, &sv, 1.0)?;
        let u = lax::div(
            &mut Binder,
            &w,
            &lax::reshape(&mut Binder, &safe, vec![b, 1, k])?,
        )?;
        let good_cols = lax::reshape(&mut Binder, &good, vec![b, 1, k])?;
        let u = lax::select(&mut Binder, &good_cols, &u, 0.0)?;
        let width = if full { m } else { k };
        let eye = eye_mask(vec![1, m, m], 1, 2, dtype)?;
        let mut projector = lax::sub(&mut Binder, &eye, &matmul(&u, &mt(&u)?)?)?;
        if width == k {
            // The basis replaces negligible columns only: where there are none, the projector
            // is taken as zero, whose eigenvectors cost the rotations no work.
            let ones = lax::cast(&mut Binder, &good, dtype)?;
            let all = lax::reduce(&mut Binder, ReduceOp::Min, &ones, vec![1])?;
            let all = lax::reshape(&mut Binder, &all, vec![b, 1, 1])?;
            let all = lax::eq(&mut Binder, &all, 1.0)?;
            projector = lax::select(&mut Binder, &all, 0.0, &projector)?;
        }
        let (pw, pv) = jacobi::eigh(&projector)?;
        let basis = jacobi::permute_columns(&pv, &sort(name, &pw, -1, true)?)?;
        let basis = shrink_last(&basis, width)?;
        let u = if width > k {
            let pad: Vec<(usize, usize)> = vec![(0, 0), (0, 0), (0, width - k)];
            let u = lax::pad(&mut Binder, &u, pad.clone())?;
            let g = lax::cast(&mut Binder, &good_cols, DType::Int32)?;
            let g = lax::pad(&mut Binder, &g, pad)?;
            let g = lax::ne(&mut Binder, &g, 0.0)?;
            lax::select(&mut Binder, &g, &u, &basis)?
        } else {
            let g = lax::broadcast(&mut Binder, &good_cols, vec![b, m, k], vec![0, 1, 2])?;
            lax::select(&mut Binder, &g, &u, &basis)?
        };
        Ok(vec![sv, u, vecs])
    }
}

/// The first-order terms of JAX's svd rule (zero in value) added to `[s, u, v]` of `a`.
fn attach_derivatives(a: &Value, outs: &mut [Value]) -> Result<()> {
    let s = a.aval().shape.clone();
    let (b, m, k) = (s[0], s[1], s[2]);
    let delta = lax::sub(&mut Binder, a, &stop_gradient(a)?)?;
    let sv = outs[0].clone();
    let ds_of = |u: &Value, vecs: &Value| matmul(&mt(u)?, &matmul(&delta, vecs)?);
    if outs.len() == 1 {
        return Ok(());
    }
    let (u_all, vecs) = (outs[1].clone(), outs[2].clone());
    let u = shrink_last(&u_all, k)?;
    let ds = ds_of(&u, &vecs)?; // [b, k, k]
    let row = lax::reshape(&mut Binder, &sv, vec![b, 1, k])?;
    let col = lax::reshape(&mut Binder, &sv, vec![b, k, 1])?;
    let f = reciprocal_gaps(&sv, |r, c| {
        let sum = lax::add(&mut Binder, r, c)?;
        lax::mul(&mut Binder, &sum, &lax::sub(&mut Binder, r, c)?)
    })?;
    let dss = lax::mul(&mut Binder, &ds, &row)?;
    let sds = lax::mul(&mut Binder, &col, &ds)?;
    let sym = |x: &Value| lax::add(&mut Binder, x, &mt(x)?);
    let mut du = matmul(&u, &lax::mul(&mut Binder, &f, &sym(&dss)?)?)?;
    let dv = matmul(&vecs, &lax::mul(&mut Binder, &f, &sym(&sds)?)?)?;
    if m > k {
        let zero = lax::eq(&mut Binder, &row, 0.0)?;
        let inv = lax::select(
            &mut Binder,
            &zero,
            0.0,
            &lax::div(
                &mut Binder,
                1.0,
                &lax::select(&mut Binder, &zero, 1.0, &row)?,
            )?,
        )?;
        let dav = matmul(&delta, &vecs)?;
        let rest = lax::sub(&mut Binder, &dav, &matmul(&u, &matmul(&mt(&u)?, &dav)?)?)?;
        du = lax::add(&mut Binder, &du, &lax::mul(&mut Binder, &rest, &inv)?)?;
    }
    let width = u_all.aval().shape[2];
    if width > k {
        du = lax::pad(&mut Binder, &du, vec![(0, 0), (0, 0), (0, width - k)])?;
    }
    outs[1] = lax::add(&mut Binder, &u_all, &du)?;
    outs[2] = lax::add(&mut Binder, &vecs, &dv)?;
    Ok(())
}

/// `[u, s, vh]` (or `[s]` without `uv`) of the matrices `a [..., m, n]`.
pub fn svd(name: &str, a: &Value, full: bool, uv: bool) -> Result<Vec<Value>> {
    let a = float_matrix(name, a, 2)?;
    if a.aval().shape.iter().rev().take(2).any(|&d| d == 0) {
        return Err(Error::new(
            name,
            format!(
                "matrices with a zero dimension are not supported, got shape {:?}",
                a.aval().shape
            ),
        ));
    }
    let (a, batch) = flatten_batch(&a)?;
    let s = a.aval().shape.clone();
    let wide = s[1] < s[2];
    let t = if wide { mt(&a)? } else { a.clone() };
    let mut outs = tall(name, &stop_gradient(&t)?, uv, full)?;
    if is_traced(&t) {
        let ds = diag(&t, &outs)?;
        outs[0] = lax::add(&mut Binder, &outs[0], &ds)?;
        attach_derivatives(&t, &mut outs)?;
    }
    let out = |x: &Value| np_eigh::with_batch(x, &batch);
    if !uv {
        return Ok(vec![out(&outs[0])?]);
    }
    let (u, sv, vecs) = (&outs[1], &outs[0], &outs[2]);
    // a = u diag(s) vᵀ; for a wide a, aᵀ = u' s v'ᵀ gives a = v' s u'ᵀ.
    let (u, vh) = if wide {
        (vecs.clone(), mt(u)?)
    } else {
        (u.clone(), mt(vecs)?)
    };
    Ok(vec![out(&u)?, out(sv)?, out(&vh)?])
}

/// `ṡ = diag(uᵀ Δ v)` (zero in value); for `svdvals` the factors are computed here.
fn diag(a: &Value, outs: &[Value]) -> Result<Value> {
    let s = a.aval().shape.clone();
    let k = s[2];
    let delta = lax::sub(&mut Binder, a, &stop_gradient(a)?)?;
    let (u, vecs) = if outs.len() == 3 {
        (shrink_last(&outs[1], k)?, outs[2].clone())
    } else {
        let f = tall("svdvals", &stop_gradient(a)?, true, false)?;
        (f[1].clone(), f[2].clone())
    };
    np_eigh::diag(&matmul(&mt(&u)?, &matmul(&delta, &vecs)?)?)
}
