//! numpy's shape functions as movement primitives: transpose, broadcast_to, expand_dims,
//! squeeze, flip, moveaxis, concatenate, stack, split, tile. Axes may be negative.

use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

pub use super::manipulation::broadcast_shape;

/// `axis` as an index into `rank` axes (negative counts from the end).
pub fn normalize_axis(name: &str, axis: i64, rank: usize) -> Result<usize> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if (0..r).contains(&a) {
        Ok(a as usize)
    } else {
        Err(Error::new(
            name,
            format!("axis {axis} is out of bounds for an array of rank {rank}"),
        ))
    }
}

fn normalize_axes(name: &str, axes: &[i64], rank: usize) -> Result<Vec<usize>> {
    let mut out: Vec<usize> = axes
        .iter()
        .map(|&a| normalize_axis(name, a, rank))
        .collect::<Result<_>>()?;
    let mut sorted = out.clone();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::new(name, format!("repeated axis in {axes:?}")));
    }
    out.shrink_to_fit();
    Ok(out)
}

pub fn reshape(x: &Value, shape: Vec<usize>) -> Result<Value> {
    lax::reshape(&mut Binder, x, shape)
}

/// Reverses the axes when `perm` is `None`.
pub fn transpose(x: &Value, perm: Option<&[i64]>) -> Result<Value> {
    let rank = x.aval().shape.len();
    let perm = match perm {
        None => (0..rank).rev().collect(),
        Some(p) if p.len() == rank => normalize_axes("transpose", p, rank)?,
        Some(p) => {
            return Err(Error::new(
                "transpose",
                format!("permutation {p:?} does not have {rank} axes"),
            ))
        }
    };
    lax::transpose(&mut Binder, x, perm)
}

pub fn broadcast_to(x: &Value, shape: Vec<usize>) -> Result<Value> {
    let rank = x.aval().shape.len();
    if shape.len() < rank {
        return Err(Error::new(
            "broadcastTo",
            format!(
                "cannot broadcast shape {:?} to the lower rank {shape:?}",
                x.aval().shape
            ),
        ));
    }
    let axes = (shape.len() - rank..shape.len()).collect();
    lax::broadcast(&mut Binder, x, shape, axes).map_err(|e| {
        Error::new(
            "broadcastTo",
            e.message().trim_start_matches("broadcast_in_dim: "),
        )
    })
}

pub fn expand_dims(x: &Value, axes: &[i64]) -> Result<Value> {
    let shape = &x.aval().shape;
    let rank = shape.len() + axes.len();
    let axes = normalize_axes("expandDims", axes, rank)?;
    let mut rest = shape.iter();
    let new: Vec<usize> = (0..rank)
        .map(|a| {
            if axes.contains(&a) {
                1
            } else {
                *rest.next().expect("rank")
            }
        })
        .collect();
    reshape(x, new)
}

/// Removes the listed size-1 axes (all size-1 axes when `None`).
pub fn squeeze(x: &Value, axes: Option<&[i64]>) -> Result<Value> {
    let shape = x.aval().shape.clone();
    let axes = match axes {
        None => (0..shape.len()).filter(|&a| shape[a] == 1).collect(),
        Some(a) => normalize_axes("squeeze", a, shape.len())?,
    };
    if let Some(&a) = axes.iter().find(|&&a| shape[a] != 1) {
        return Err(Error::new(
            "squeeze",
            format!("axis {a} has size {}, not 1", shape[a]),
        ));
    }
    let new = (0..shape.len())
        .filter(|a| !axes.contains(a))
        .map(|a| shape[a])
        .collect();
    reshape(x, new)
}

/// Reverses the listed axes (all when `None`).
pub fn flip(x: &Value, axes: Option<&[i64]>) -> Result<Value> {
    let rank = x.aval().shape.len();
    let axes = match axes {
        None => (0..rank).collect(),
        Some(a) => normalize_axes("flip", a, rank)?,
    };
    lax::flip(&mut Binder, x, axes)
}

pub fn moveaxis(x: &Value, source: i64, destination: i64) -> Result<Value> {
    let rank = x.aval().shape.len();
    let s = normalize_axis("moveaxis", source, rank)?;
    let d = normalize_axis("moveaxis", destination, rank)?;
    let mut perm: Vec<usize> = (0..rank).filter(|&a| a != s).collect();
    perm.insert(d, s);
    lax::transpose(&mut Binder, x, perm)
}

pub fn swapaxes(x: &Value, a: i64, b: i64) -> Result<Value> {
    let rank = x.aval().shape.len();
    let (a, b) = (
        normalize_axis("swapaxes", a, rank)?,
        normalize_axis("swapaxes", b, rank)?,
    );
    let mut perm: Vec<usize> = (0..rank).collect();
    perm.swap(a, b);
    lax::transpose(&mut Binder, x, perm)
}

pub fn concatenate(xs: &[Value], axis: i64) -> Result<Value> {
    let first = xs
        .first()
        .ok_or_else(|| Error::new("concatenate", "needs at least one array"))?;
    if first.aval().shape.is_empty() {
        return Err(Error::new(
            "concatenate",
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    let axis = normalize_axis("concatenate", axis, first.aval().shape.len())?;
    lax::concatenate(&mut Binder, xs, axis)
}

pub fn stack(xs: &[Value], axis: i64) -> Result<Value> {
    let first = xs
        .first()
        .ok_or_else(|| Error::new("stack", "needs at least one array"))?;
    let shape = &first.aval().shape;
    if let Some(other) = xs.iter().find(|x| &x.aval().shape != shape) {
        return Err(Error::new(
            "stack",
            format!(
                "arrays must have the same shape: {shape:?} and {:?}",
                other.aval().shape
            ),
        ));
    }
    let axis = normalize_axis("stack", axis, shape.len() + 1)?;
    let expanded: Vec<Value> = xs
        .iter()
        .map(|x| expand_dims(x, &[axis as i64]))
        .collect::<Result<_>>()?;
    concatenate(&expanded, axis as i64)
}

/// The most parts one split makes (each is an array handed to JS).
pub const MAX_PARTS: usize = 1 << 20;

/// An error naming `function` when `k` parts are more than [`MAX_PARTS`].
pub fn check_parts(function: &str, k: usize) -> Result<()> {
    if k > MAX_PARTS {
        return Err(Error::new(
            function,
            format!("{k} sections are more than the limit of {MAX_PARTS}"),
        ));
    }
    Ok(())
}

/// Splits at `cuts` (indices along `axis`), or into `sections` equal parts.
pub fn split(x: &Value, sections: Option<usize>, cuts: &[usize], axis: i64) -> Result<Vec<Value>> {
    let shape = x.aval().shape.clone();
    let axis = normalize_axis("split", axis, shape.len())?;
    let n = shape[axis];
    check_parts("split", sections.unwrap_or(0).max(cuts.len()))?;
    let bounds: Vec<usize> = match sections {
        Some(0) => {
            return Err(Error::new(
                "split",
                "the number of sections must be positive",
            ))
        }
        Some(k) if !n.is_multiple_of(k) => {
            return Err(Error::new(
                "split",
                format!("{k} sections do not divide axis {axis} of size {n}"),
            ))
        }
        Some(k) => (0..=k).map(|i| i * (n / k)).collect(),
        None => {
            let mut b = vec![0];
            b.extend(cuts.iter().map(|&c| c.min(n)));
            b.push(n);
            b
        }
    };
    bounds
        .windows(2)
        .map(|w| {
            let mut ranges: Vec<(usize, usize)> = shape.iter().map(|&d| (0, d)).collect();
            ranges[axis] = (w[0], w[1].max(w[0]));
            lax::shrink(&mut Binder, x, ranges)
        })
        .collect()
}

/// Repeats the array `reps[a]` times along each axis (NumPy's `tile`).
pub fn tile(x: &Value, reps: &[usize]) -> Result<Value> {
    let mut shape = x.aval().shape.clone();
    let rank = shape.len().max(reps.len());
    while shape.len() < rank {
        shape.insert(0, 1);
    }
    let mut reps = reps.to_vec();
    while reps.len() < rank {
        reps.insert(0, 1);
    }
    // [d0, d1] → [1, d0, 1, d1] → broadcast [r0, d0, r1, d1] → reshape [r0·d0, r1·d1].
    let interleaved: Vec<usize> = shape.iter().flat_map(|&d| [1, d]).collect();
    let target: Vec<usize> = shape
        .iter()
        .zip(&reps)
        .flat_map(|(&d, &r)| [r, d])
        .collect();
    let y = reshape(x, interleaved)?;
    let axes = (0..target.len()).collect();
    let b = lax::broadcast(&mut Binder, &y, target, axes)?;
    reshape(&b, shape.iter().zip(&reps).map(|(d, r)| d * r).collect())
}

/// One entry of `Array.slice(...)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SliceItem {
    /// Selects one element and drops the axis.
    Index(i64),
    /// Keeps `[start, end)` (negative counts from the end; `None` end: to the end).
    Range(i64, Option<i64>),
    /// Inserts a new axis of size 1.
    NewAxis,
    /// Advanced indexing with integer array number `k` of the extra operands.
    Gather(usize),
}

/// Basic indexing (jax-js's `Array.slice`): integers drop axes, ranges keep them, `NewAxis`
/// inserts one; axes left unmentioned are kept whole. A view: no copy.
///
/// `Gather` items index with integer arrays (broadcast together); their result axes go where
/// the first of them stood when they are adjacent, else first (NumPy's rule, applied after
/// the integer indices have removed their axes).
pub fn slice(x: &Value, items: &[SliceItem], arrays: &[Value]) -> Result<Value> {
    let shape = x.aval().shape.clone();
    let used = items
        .iter()
        .filter(|i| !matches!(i, SliceItem::NewAxis))
        .count();
    if used > shape.len() {
        return Err(Error::new(
            "slice",
            format!(
                "too many indices ({used}) for an array of rank {}",
                shape.len()
            ),
        ));
    }
    let bound = |i: i64, n: usize, axis: usize, inclusive: bool| -> Result<usize> {
        let j = if i < 0 { i + n as i64 } else { i };
        let limit = if inclusive { n as i64 } else { n as i64 - 1 };
        if j < 0 || j > limit {
            return Err(Error::new(
                "slice",
                format!("index {i} is out of bounds for axis {axis} with size {n}"),
            ));
        }
        Ok(j as usize)
    };
    let mut ranges = Vec::with_capacity(shape.len());
    let mut out_shape = Vec::new();
    let mut gathered: Vec<(usize, usize)> = Vec::new(); // (axis in the basic result, array)
    let mut axis = 0;
    for item in items {
        match *item {
            SliceItem::NewAxis => out_shape.push(1),
            SliceItem::Gather(k) => {
                gathered.push((out_shape.len(), k));
                ranges.push((0, shape[axis]));
                out_shape.push(shape[axis]);
                axis += 1;
            }
            SliceItem::Index(i) => {
                let j = bound(i, shape[axis], axis, false)?;
                ranges.push((j, j + 1));
                axis += 1;
            }
            SliceItem::Range(s, e) => {
                let n = shape[axis];
                let start = bound(s, n, axis, true)?;
                let end = match e {
                    None => n,
                    Some(e) => bound(e, n, axis, true)?,
                };
                ranges.push((start, end.max(start)));
                out_shape.push(end.max(start) - start);
                axis += 1;
            }
        }
    }
    for &n in &shape[axis..] {
        ranges.push((0, n));
        out_shape.push(n);
    }
    let shrunk = lax::shrink(&mut Binder, x, ranges)?;
    let basic = reshape(&shrunk, out_shape)?;
    if gathered.is_empty() {
        return Ok(basic);
    }
    let adjacent = gathered.windows(2).all(|w| w[1].0 == w[0].0 + 1);
    let out_dim = if adjacent { gathered[0].0 } else { 0 };
    let axes = gathered.iter().map(|&(a, _)| a).collect();
    let mut indices = Vec::with_capacity(gathered.len());
    for &(_, k) in &gathered {
        let index = arrays
            .get(k)
            .ok_or_else(|| Error::new("slice", "internal error: missing index array"))?;
        indices.push(index.clone());
    }
    lax::gather(&mut Binder, &basic, &indices, axes, out_dim)
}
