//! Index-producing reductions and running reductions: argmax, argmin, cumsum, cumprod; sort,
//! argsort and `lax.topK` (a stable argsort).

use super::lax_linalg::rename;
use super::shape::normalize_axis;
use crate::core::ops::{BinaryOp, ReduceOp};
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

/// The first index of the maximum (`max`) or minimum along `axis` (flattened when `None`);
/// NaN counts as the extreme, as in NumPy.
pub fn arg_extreme(
    name: &str,
    x: &Value,
    axis: Option<i64>,
    keepdims: bool,
    max: bool,
) -> Result<Value> {
    let (x, axis) = match axis {
        None => (lax::reshape(&mut Binder, x, vec![x.aval().size()])?, 0),
        Some(a) => (x.clone(), normalize_axis(name, a, x.aval().shape.len())?),
    };
    let shape = x.aval().shape.clone();
    let n = shape[axis];
    if n == 0 {
        return Err(Error::new(
            name,
            "attempt to get the extreme of an empty axis",
        ));
    }
    let op = if max { ReduceOp::Max } else { ReduceOp::Min };
    let m = lax::reduce(&mut Binder, op, &x, vec![axis])?;
    let mut kept = shape.clone();
    kept[axis] = 1;
    let m = lax::reshape(&mut Binder, &m, kept.clone())?;
    let hit = lax::eq(&mut Binder, &x, &m)?;
    let nan = lax::ne(&mut Binder, &x, &x)?;
    let hit = lax::binary(&mut Binder, BinaryOp::Or, &hit, &nan)?;
    let idx = lax::iota_i32(&mut Binder, shape.clone(), axis)?;
    let candidates = lax::select(&mut Binder, &hit, &idx, n as f64)?;
    let first = lax::reduce(&mut Binder, ReduceOp::Min, &candidates, vec![axis])?;
    if keepdims {
        lax::reshape(&mut Binder, &first, kept)
    } else {
        Ok(first)
    }
}

/// A running reduction along `axis` (the flattened array when `None`), blocked on long axes
/// (`rules::lax::running`). Bool sums count.
pub fn cumulative(name: &str, op: ReduceOp, x: &Value, axis: Option<i64>) -> Result<Value> {
    let (x, axis) = match axis {
        None => (lax::reshape(&mut Binder, x, vec![x.aval().size()])?, 0),
        Some(a) => (x.clone(), normalize_axis(name, a, x.aval().shape.len())?),
    };
    let x = if x.aval().dtype == DType::Bool {
        lax::cast(&mut Binder, &x, DType::Int32)?
    } else {
        x
    };
    lax::running(&mut Binder, op, &x, axis, false)
}

/// NumPy 2's `cumulative_sum`/`cumulative_prod`: [`cumulative`] with, when `include_initial`,
/// the identity of `op` (0 or 1) first along the axis (one more element).
pub fn cumulative_initial(
    name: &str,
    op: ReduceOp,
    x: &Value,
    axis: Option<i64>,
    include_initial: bool,
) -> Result<Value> {
    let out = cumulative(name, op, x, axis)?;
    if !include_initial {
        return Ok(out);
    }
    let rank = out.aval().shape.len();
    let k = normalize_axis(name, axis.unwrap_or(0), rank)?;
    let mut widths = vec![(0, 0); rank];
    widths[k] = (1, 0);
    let padded = lax::pad(&mut Binder, &out, widths)?; // 0 first: the identity of a sum
    if op == ReduceOp::Sum {
        return Ok(padded);
    }
    let shape = padded.aval().shape.clone();
    let first = lax::eq(&mut Binder, &lax::iota_i32(&mut Binder, shape, k)?, 0.0)?;
    lax::select(&mut Binder, &first, 1.0, &padded)
}

/// Sorts along `axis` (stable, NaN last), or returns the int32 positions that would
/// (`indices`): the `sort` routine along the last axis, the axis moved there and back.
pub fn sort(name: &str, x: &Value, axis: i64, indices: bool) -> Result<Value> {
    let rank = x.aval().shape.len();
    if rank == 0 {
        return Err(Error::new(name, "needs an array of at least 1 dimension"));
    }
    let axis = normalize_axis(name, axis, rank)?;
    let last = rank - 1;
    let moved = |x: &Value, from: usize, to: usize| -> Result<Value> {
        if from == to {
            return Ok(x.clone());
        }
        let mut perm: Vec<usize> = (0..rank).filter(|&a| a != from).collect();
        perm.insert(to, from);
        lax::transpose(&mut Binder, x, perm)
    };
    let xs = moved(x, axis, last)?;
    let mut outs = lax::sort(&mut Binder, &xs).map_err(|e| rename(e, name))?;
    let out = outs.swap_remove(usize::from(indices));
    moved(&out, last, axis)
}

/// `[values, indices]` of the `k` largest elements along `axis` (ties: lower index first).
pub fn top_k(x: &Value, k: usize, axis: i64) -> Result<Vec<Value>> {
    let s = x.aval().shape.clone();
    let ax = normalize_axis("topK", axis, s.len())?;
    if k > s[ax] {
        return Err(Error::new(
            "topK",
            format!("k = {k} exceeds axis {ax} of length {}", s[ax]),
        ));
    }
    let neg = if x.aval().dtype == DType::Uint32 {
        lax::sub(&mut Binder, f64::from(u32::MAX), x)?
    } else if x.aval().dtype.is_float() {
        // NaN is the largest value, as in JAX (sort alone puts it last).
        let nan = lax::ne(&mut Binder, x, x)?;
        lax::select(
            &mut Binder,
            &nan,
            f64::NEG_INFINITY,
            &lax::neg(&mut Binder, x)?,
        )?
    } else {
        lax::neg(&mut Binder, x)?
    };
    let order = super::indexing::sort("topK", &neg, ax as i64, true)?;
    let mut ranges: Vec<(usize, usize)> = s.iter().map(|&d| (0, d)).collect();
    ranges[ax] = (0, k);
    let idx = lax::shrink(&mut Binder, &order, ranges)?;
    let values = super::selection::take_along_axis(x, &idx, ax as i64)?;
    Ok(vec![values, idx])
}
