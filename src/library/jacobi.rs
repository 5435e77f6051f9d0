//! The routine primitives of `eigh` (`Diagonalize`: a symmetric matrix diagonalized, by
//! tridiagonal QR on the host devices and two-sided Jacobi rotations on webgpu) and `svd`
//! (`OrthogonalColumns`: mutually orthogonal columns `a v`, by Golub–Kahan on the host devices
//! and one-sided Jacobi rotations on webgpu; `kernel::RoutineKind`), which
//! every device runs as one routine call — eagerly and under `jit` alike; plus the masks and
//! column permutations the decompositions around them use.
//! The routines are not differentiable: callers apply them to values whose gradient is
//! stopped and attach the derivatives themselves (`np_eigh.rs`, `np_svd.rs`).

use crate::core::ops::BinaryOp;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::trace::Value;
use crate::util::Result;

/// An identity mask of `shape` (in `dtype`) that is one where the indices along axes `a` and
/// `b` agree.
pub fn identity_mask(shape: Vec<usize>, a: usize, b: usize, dtype: DType) -> Result<Value> {
    let iota = |axis| lax::iota_i32(&mut Binder, shape.clone(), axis);
    let eq = lax::eq(&mut Binder, &iota(a)?, &iota(b)?)?;
    lax::cast(&mut Binder, &eq, dtype)
}

/// The identity mask of `shape` over axes `a`, `b` (as [`identity_mask`]).
pub fn eye_mask(shape: Vec<usize>, a: usize, b: usize, dtype: DType) -> Result<Value> {
    identity_mask(shape, a, b, dtype)
}

/// `x [b, r, n]` with its columns reordered by `order [b, n]` (int32; column `j` of the result
/// is column `order[j]` of `x`), as a product with a one-hot matrix.
pub fn permute_columns(x: &Value, order: &Value) -> Result<Value> {
    let s = x.aval().shape.clone();
    let (b, n) = (s[0], s[2]);
    let order = lax::reshape(&mut Binder, order, vec![b, 1, n])?;
    let rows = lax::iota_i32(&mut Binder, vec![1, n, 1], 1)?;
    let hot = lax::eq(&mut Binder, &rows, &order)?;
    let hot = lax::cast(&mut Binder, &hot, x.aval().dtype)?;
    lax::matmul(&mut Binder, x, &hot)
}

/// Sum over `axes`.
pub fn sum(x: &Value, axes: Vec<usize>) -> Result<Value> {
    lax::sum(&mut Binder, x, axes)
}

/// Eigenvalues (unsorted, `[b, n]`) and eigenvectors (columns, `[b, n, n]`) of the symmetric
/// matrices `a [b, n, n]`.
pub fn eigh(a: &Value) -> Result<(Value, Value)> {
    let outs = lax::diagonalize(&mut Binder, a)?;
    let (n, dtype) = (a.aval().shape[1], a.aval().dtype);
    let mask = eye_mask(vec![1, n, n], 1, 2, dtype)?;
    let diagonal = lax::binary(&mut Binder, BinaryOp::Mul, &outs[0], &mask)?;
    Ok((sum(&diagonal, vec![2])?, outs[1].clone()))
}

/// The columns of `a [b, m, n]` (`m ≥ n`) made orthogonal: `(w, v)` with `a v = w`, the
/// columns of `w [b, m, n]` mutually orthogonal and `v [b, n, n]` orthogonal. The singular
/// values are the column norms of `w`; without `vectors` nothing else is defined.
pub fn orthogonalize_columns(a: &Value, vectors: bool) -> Result<(Value, Value)> {
    let outs = lax::orthogonal_columns(&mut Binder, a, vectors)?;
    Ok((outs[0].clone(), outs[1].clone()))
}
