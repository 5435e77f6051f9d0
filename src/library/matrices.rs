//! numpy's matrix builders and diagonals: `diagonal` (a view: a flattened matrix padded by one
//! row reads its diagonal as a column), `trace`'s diagonal, `tril`/`triu`, `diag`, `diagflat`
//! and `vander`.

use super::shape::{broadcast_to, concatenate, flip, normalize_axis, reshape, transpose};
use crate::core::ops::{BinaryOp as B, ReduceOp};
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

/// The `offset` diagonal of the matrices formed by `axis1` and `axis2`, appended as the last
/// axis. A view: the matrix is moved last, flattened, padded and re-read with rows one longer.
pub fn diagonal(x: &Value, offset: i64, axis1: i64, axis2: i64) -> Result<Value> {
    let rank = x.aval().shape.len();
    if rank < 2 {
        return Err(Error::new(
            "diagonal",
            "needs an array of at least 2 dimensions",
        ));
    }
    let (a1, a2) = (
        normalize_axis("diagonal", axis1, rank)?,
        normalize_axis("diagonal", axis2, rank)?,
    );
    if a1 == a2 {
        return Err(Error::new("diagonal", "axis1 and axis2 must differ"));
    }
    let mut perm: Vec<i64> = (0..rank)
        .filter(|&a| a != a1 && a != a2)
        .map(|a| a as i64)
        .collect();
    perm.extend([a1 as i64, a2 as i64]);
    let t = transpose(x, Some(&perm))?;
    let shape = t.aval().shape.clone();
    let batch = &shape[..rank - 2];
    let (n, m) = (shape[rank - 2], shape[rank - 1]);
    // Shift so the wanted diagonal starts at (0, 0).
    let (rows, cols) = if offset >= 0 {
        (0..n, (offset as usize).min(m)..m)
    } else {
        ((offset.unsigned_abs() as usize).min(n)..n, 0..m)
    };
    let mut ranges: Vec<(usize, usize)> = batch.iter().map(|&d| (0, d)).collect();
    ranges.extend([(rows.start, rows.end), (cols.start, cols.end)]);
    let sub = lax::shrink(&mut Binder, &t, ranges)?;
    let (n, m) = (rows.len(), cols.len());
    let k = n.min(m);
    let mut flat_shape = batch.to_vec();
    flat_shape.push(n * m);
    let flat = lax::reshape(&mut Binder, &sub, flat_shape)?;
    // [.., n·m] padded to [.., k·(m+1)] then read as [.., k, m+1]: column 0 is the diagonal.
    let mut pad: Vec<(usize, usize)> = batch.iter().map(|_| (0, 0)).collect();
    pad.push((0, (k * (m + 1)).saturating_sub(n * m)));
    let padded = lax::pad(&mut Binder, &flat, pad)?;
    let mut keep: Vec<(usize, usize)> = batch.iter().map(|&d| (0, d)).collect();
    keep.push((0, k * (m + 1)));
    let trimmed = lax::shrink(&mut Binder, &padded, keep)?;
    let mut rows_shape = batch.to_vec();
    rows_shape.extend([k, m + 1]);
    let grid = lax::reshape(&mut Binder, &trimmed, rows_shape)?;
    let mut col0: Vec<(usize, usize)> = batch.iter().map(|&d| (0, d)).collect();
    col0.extend([(0, k), (0, 1)]);
    let column = lax::shrink(&mut Binder, &grid, col0)?;
    let mut out_shape = batch.to_vec();
    out_shape.push(k);
    lax::reshape(&mut Binder, &column, out_shape)
}

/// The lower (`lower`) or upper triangle of the last two axes, the rest zero; diagonal `k`
/// and below (above) are kept.
pub fn triangle(x: &Value, k: i64, lower: bool) -> Result<Value> {
    let shape = x.aval().shape.clone();
    let rank = shape.len();
    let name = if lower { "tril" } else { "triu" };
    if rank < 2 {
        return Err(Error::new(name, "needs an array of at least 2 dimensions"));
    }
    let (n, m) = (shape[rank - 2], shape[rank - 1]);
    let iota = |axis| lax::iota_i32(&mut Binder, vec![n, m], axis);
    let (i, j) = (iota(0)?, iota(1)?);
    let diff = lax::sub(&mut Binder, &j, &i)?; // j - i
    let keep = if lower {
        lax::le(&mut Binder, &diff, k as f64)?
    } else {
        lax::le(&mut Binder, k as f64, &diff)?
    };
    keep_or_zero(&keep, x)
}

/// `x` where `keep`, else zero of `x`'s dtype (`false` for bool, as jax-js's `zerosLike`; a
/// bare 0 meeting a bool array would be an int32 number).
fn keep_or_zero(keep: &Value, x: &Value) -> Result<Value> {
    if x.aval().dtype == DType::Bool {
        lax::binary(&mut Binder, B::And, keep, x)
    } else {
        lax::select(&mut Binder, keep, x, 0.0)
    }
}

/// NumPy's `diagflat`: a matrix with the flattened `x` on diagonal `k`.
pub fn diagflat(x: &Value, k: i64) -> Result<Value> {
    diag(&super::shape::reshape(x, vec![x.aval().size()])?, k)
}

/// NumPy's `diag`: the `k` diagonal of a matrix, or a matrix with vector `x` on diagonal `k`.
pub fn diag(x: &Value, k: i64) -> Result<Value> {
    match x.aval().shape.len() {
        2 => diagonal(x, k, 0, 1),
        1 => {
            let n = x.aval().shape[0];
            let size = n + k.unsigned_abs() as usize;
            // out[i, j] = x[i] (k ≥ 0) or x[j] (k < 0) where j − i = k.
            let padded = lax::pad(&mut Binder, x, vec![(0, size - n)])?;
            let axes = vec![if k >= 0 { 0 } else { 1 }];
            let grid = lax::broadcast(&mut Binder, &padded, vec![size, size], axes)?;
            let iota = |axis| lax::iota_i32(&mut Binder, vec![size, size], axis);
            let diff = lax::sub(&mut Binder, &iota(1)?, &iota(0)?)?;
            let on = lax::eq(&mut Binder, &diff, k as f64)?;
            keep_or_zero(&on, &grid)
        }
        r => Err(Error::new(
            "diag",
            format!("needs a 1-D or 2-D array, got rank {r}"),
        )),
    }
}

/// The Vandermonde matrix of 1-D `x` with `n` columns (default len(x)): powers decreasing, or
/// increasing when asked.
pub fn vander(x: &Value, n: Option<usize>, increasing: bool) -> Result<Value> {
    let m = match x.aval().shape.clone().as_slice() {
        [m] => *m,
        s => {
            return Err(Error::new(
                "vander",
                format!("needs a 1-D array, got {s:?}"),
            ))
        }
    };
    let n = n.unwrap_or(m);
    let col = reshape(x, vec![m, 1])?;
    let ones = lax::add(&mut Binder, &lax::mul(&mut Binder, &col, 0.0)?, 1.0)?;
    if n == 0 {
        return lax::slice_axis(&mut Binder, &ones, 1, 0, 0);
    }
    let mut cols = vec![ones];
    if n > 1 {
        cols.push(broadcast_to(&col, vec![m, n - 1])?);
    }
    let table = concatenate(&cols, 1)?;
    let powers = super::indexing::cumulative("vander", ReduceOp::Prod, &table, Some(1))?;
    if increasing {
        Ok(powers)
    } else {
        flip(&powers, Some(&[1]))
    }
}
