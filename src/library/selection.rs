//! Selecting elements: `take`, `takeAlongAxis` (gathers), `select`, `isin`, `indices` and
//! `meshgrid`.

use super::reduce::{reduce, ReduceKind as K};
use super::shape::{broadcast_to, normalize_axis, reshape};
use crate::core::ops::UnaryOp as U;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

fn int32(x: &Value) -> Result<Value> {
    if x.aval().dtype == DType::Int32 {
        return Ok(x.clone());
    }
    if x.aval().dtype.is_float() {
        return Err(Error::new("take", "indices must be integers"));
    }
    lax::cast(&mut Binder, x, DType::Int32)
}

/// Elements at `indices` along `axis` (the flattened array when `None`); out-of-range
/// indices clamp.
pub fn take(x: &Value, idx: &Value, axis: Option<i64>) -> Result<Value> {
    let (x, ax) = match axis {
        None => (lax::ravel(&mut Binder, x)?, 0),
        Some(a) => (
            x.clone(),
            normalize_axis("take", a, x.aval().shape.clone().len())?,
        ),
    };
    lax::gather(&mut Binder, &x, &[int32(idx)?], vec![ax], ax)
}

/// `x[..., idx, ...]` pairing `idx`'s positions with `x`'s along every other axis.
pub fn take_along_axis(x: &Value, idx: &Value, axis: i64) -> Result<Value> {
    let (xs, is) = (x.aval().shape.clone(), idx.aval().shape.clone());
    if xs.len() != is.len() {
        return Err(Error::new(
            "takeAlongAxis",
            format!("indices have rank {}, the array {}", is.len(), xs.len()),
        ));
    }
    let ax = normalize_axis("takeAlongAxis", axis, xs.len())?;
    let mut out = is.clone();
    for (j, (&a, &b)) in xs.iter().zip(&is).enumerate() {
        if j == ax {
            continue;
        }
        if a != b && a != 1 && b != 1 {
            return Err(Error::new(
                "takeAlongAxis",
                format!("shapes {xs:?} and {is:?} do not broadcast"),
            ));
        }
        out[j] = a.max(b);
    }
    let index = broadcast_to(&int32(idx)?, out.clone())?;
    let mut grids = Vec::with_capacity(xs.len());
    for j in 0..xs.len() {
        grids.push(if j == ax {
            index.clone()
        } else {
            lax::iota_i32(&mut Binder, out.clone(), j)?
        });
    }
    lax::gather(&mut Binder, x, &grids, (0..xs.len()).collect(), 0)
}

/// `numpy.indices(dims)`: shape `[len(dims), ...dims]`, int32.
pub fn indices(dims: &[usize]) -> Result<Value> {
    let grids = (0..dims.len())
        .map(|k| lax::iota_i32(&mut Binder, dims.to_vec(), k))
        .collect::<Result<Vec<_>>>()?;
    if grids.is_empty() {
        return reshape(&lax::iota_i32(&mut Binder, vec![0], 0)?, vec![0]);
    }
    super::shape::stack(&grids, 0)
}

/// Coordinate grids from 1-D arrays; `ij` indexing, or `xy` (first two axes swapped).
pub fn meshgrid(xs: &[Value], ij: bool) -> Result<Vec<Value>> {
    let mut dims: Vec<usize> = Vec::with_capacity(xs.len());
    for x in xs {
        match x.aval().shape.clone().as_slice() {
            [n] => dims.push(*n),
            s => {
                return Err(Error::new(
                    "meshgrid",
                    format!("needs 1-D arrays, got {s:?}"),
                ))
            }
        }
    }
    let swap = !ij && xs.len() >= 2;
    let mut out_shape = dims.clone();
    if swap {
        out_shape.swap(0, 1);
    }
    xs.iter()
        .enumerate()
        .map(|(i, x)| {
            let pos = match i {
                0 if swap => 1,
                1 if swap => 0,
                _ => i,
            };
            let mut s = vec![1; xs.len()];
            s[pos] = dims[i];
            broadcast_to(&reshape(x, s)?, out_shape.clone())
        })
        .collect()
}

/// `arrays` = k conditions, k choices, default: the choice of the first true condition.
pub fn select(arrays: &[Value], k: usize) -> Result<Value> {
    if arrays.len() != 2 * k + 1 {
        return Err(Error::new(
            "select",
            "condlist and choicelist must have the same length",
        ));
    }
    let mut out = arrays[2 * k].clone();
    for i in (0..k).rev() {
        let c = lax::cast(&mut Binder, &arrays[i], DType::Bool)?;
        out = lax::select(&mut Binder, &c, &arrays[k + i], &out)?;
    }
    Ok(out)
}

/// Whether each element of `x` occurs in `test` (or not, with `invert`).
pub fn isin(x: &Value, test: &Value, invert: bool) -> Result<Value> {
    let mut s = x.aval().shape.clone();
    s.push(1);
    let eq = lax::eq(
        &mut Binder,
        &reshape(x, s)?,
        &lax::ravel(&mut Binder, test)?,
    )?;
    let any = reduce("isin", K::Any, &eq, Some(&[-1]), false)?;
    if invert {
        lax::unary(&mut Binder, U::Not, &any)
    } else {
        Ok(any)
    }
}
