//! More numpy shape and indexing functions as compositions of movement primitives, gather and
//! elementwise ops: repeat, roll, rot90, append, diff, take(AlongAxis), meshgrid,
//! broadcastArrays, unstack, arraySplit, vander, indices, select, isin, trapezoid.

use super::emit::v;
use super::reduce::{reduce, ReduceKind as K};
use super::shape::{broadcast_to, concatenate, flip, normalize_axis, reshape, split, transpose};
use crate::core::ops::{ReduceOp, UnaryOp as U};
use crate::core::{DType, Primitive};
use crate::rules::lax;
use crate::transform::trace::{bind, Binder};
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

/// Each element `r` times along `axis` (the flattened array when `None`).
pub fn repeat(x: &Value, r: usize, axis: Option<i64>) -> Result<Value> {
    let (x, ax) = match axis {
        None => (lax::ravel(&mut Binder, x)?, 0),
        Some(a) => (
            x.clone(),
            normalize_axis("repeat", a, x.aval().shape.clone().len())?,
        ),
    };
    let s = x.aval().shape.clone();
    let mut lifted = s.clone();
    lifted.insert(ax + 1, 1);
    let mut wide = s.clone();
    wide.insert(ax + 1, r);
    let b = broadcast_to(&reshape(&x, lifted)?, wide)?;
    let mut out = s;
    out[ax] *= r;
    reshape(&b, out)
}

pub fn roll_axis(x: &Value, shift: i64, ax: usize) -> Result<Value> {
    let n = x.aval().shape.clone()[ax];
    if n == 0 {
        return Ok(x.clone());
    }
    let s = shift.rem_euclid(n as i64) as usize;
    if s == 0 {
        return Ok(x.clone());
    }
    let tail = lax::slice_axis(&mut Binder, x, ax, n - s, n)?;
    let head = lax::slice_axis(&mut Binder, x, ax, 0, n - s)?;
    concatenate(&[tail, head], ax as i64)
}

/// Rolls by `shifts[i]` along `axes[i]`; without axes, the flattened array by one shift.
pub fn roll(x: &Value, shifts: &[i64], axes: Option<&[i64]>) -> Result<Value> {
    let Some(axes) = axes else {
        let [shift] = shifts else {
            return Err(Error::new("roll", "without axes, shift must be one number"));
        };
        let r = roll_axis(&lax::ravel(&mut Binder, x)?, *shift, 0)?;
        return reshape(&r, x.aval().shape.clone());
    };
    if axes.len() != shifts.len() {
        return Err(Error::new("roll", "shift and axis must match in length"));
    }
    let mut y = x.clone();
    for (&shift, &axis) in shifts.iter().zip(axes) {
        let ax = normalize_axis("roll", axis, x.aval().shape.len())?;
        y = roll_axis(&y, shift, ax)?;
    }
    Ok(y)
}

/// Rotates by 90° `k` times in the plane of axes `a0`, `a1` (from the first towards the second).
pub fn rot90(x: &Value, k: i64, a0: i64, a1: i64) -> Result<Value> {
    let rank = x.aval().shape.clone().len();
    let (a0, a1) = (
        normalize_axis("rot90", a0, rank)?,
        normalize_axis("rot90", a1, rank)?,
    );
    if a0 == a1 {
        return Err(Error::new("rot90", "the two axes must differ"));
    }
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(a0, a1);
    match k.rem_euclid(4) {
        0 => Ok(x.clone()),
        1 => transpose(&flip(x, Some(&[a1 as i64]))?, Some(&perm)),
        2 => flip(x, Some(&[a0 as i64, a1 as i64])),
        _ => flip(&transpose(x, Some(&perm))?, Some(&[a1 as i64])),
    }
}

/// `values` appended to `x` along `axis` (both flattened when `None`).
pub fn append(x: &Value, values: &Value, axis: Option<i64>) -> Result<Value> {
    match axis {
        None => concatenate(
            &[
                lax::ravel(&mut Binder, x)?,
                lax::ravel(&mut Binder, values)?,
            ],
            0,
        ),
        Some(a) => concatenate(&[x.clone(), values.clone()], a),
    }
}

/// The `n`-th discrete difference along `axis`.
pub fn diff(x: &Value, n: usize, axis: i64) -> Result<Value> {
    let ax = normalize_axis("diff", axis, x.aval().shape.clone().len())?;
    let mut y = x.clone();
    for _ in 0..n {
        let len = y.aval().shape.clone()[ax];
        if len == 0 {
            break;
        }
        let hi = lax::slice_axis(&mut Binder, &y, ax, 1, len)?;
        let lo = lax::slice_axis(&mut Binder, &y, ax, 0, len - 1)?;
        y = if y.aval().dtype == DType::Bool {
            lax::ne(&mut Binder, &hi, &lo)?
        } else {
            lax::sub(&mut Binder, &hi, &lo)?
        };
    }
    Ok(y)
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
    bind(
        Primitive::Gather {
            axes: vec![ax],
            out_dim: ax,
        },
        &[v(&x), v(&int32(idx)?)],
    )
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
    let mut operands = vec![v(x)];
    operands.extend(grids.iter().map(v));
    bind(
        Primitive::Gather {
            axes: (0..xs.len()).collect(),
            out_dim: 0,
        },
        &operands,
    )
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

/// NumPy's broadcast of several shapes.
pub fn broadcast_shape(name: &str, shapes: &[Vec<usize>]) -> Result<Vec<usize>> {
    let rank = shapes.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = vec![1; rank];
    for s in shapes {
        for (k, &d) in s.iter().enumerate() {
            let o = &mut out[rank - s.len() + k];
            if *o == 1 {
                *o = d;
            } else if d != 1 && d != *o {
                return Err(Error::new(
                    name,
                    format!("shapes {shapes:?} do not broadcast"),
                ));
            }
        }
    }
    Ok(out)
}

pub fn broadcast_arrays(xs: &[Value]) -> Result<Vec<Value>> {
    let shapes: Vec<Vec<usize>> = xs.iter().map(|x| x.aval().shape.clone()).collect();
    let target = broadcast_shape("broadcastArrays", &shapes)?;
    xs.iter().map(|x| broadcast_to(x, target.clone())).collect()
}

/// The slices along `axis`, each without that axis.
pub fn unstack(x: &Value, axis: i64) -> Result<Vec<Value>> {
    let s = x.aval().shape.clone();
    let ax = normalize_axis("unstack", axis, s.len())?;
    let mut rest = s.clone();
    rest.remove(ax);
    (0..s[ax])
        .map(|i| {
            reshape(
                &lax::slice_axis(&mut Binder, x, ax, i, i + 1)?,
                rest.clone(),
            )
        })
        .collect()
}

/// `k` nearly equal parts along `axis` (the first `n mod k` one longer).
pub fn array_split(x: &Value, k: usize, axis: i64) -> Result<Vec<Value>> {
    if k == 0 {
        return Err(Error::new(
            "arraySplit",
            "the number of sections must be positive",
        ));
    }
    super::shape::check_parts("arraySplit", k)?;
    let ax = normalize_axis("arraySplit", axis, x.aval().shape.clone().len())?;
    let n = x.aval().shape.clone()[ax];
    let (q, r) = (n / k, n % k);
    let mut cuts = Vec::with_capacity(k);
    let mut at = 0;
    for i in 0..k - 1 {
        at += q + usize::from(i < r);
        cuts.push(at);
    }
    split(x, None, &cuts, ax as i64)
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

/// The trapezoid rule along `axis`, with sample points `x` or spacing `dx`.
pub fn trapezoid(y: &Value, x: Option<&Value>, dx: f64, axis: i64) -> Result<Value> {
    let y = super::math::float(&v(y))?;
    let ax = normalize_axis("trapezoid", axis, y.aval().shape.clone().len())?;
    let n = y.aval().shape.clone()[ax];
    if n == 0 {
        return reduce("trapezoid", K::Sum, &y, Some(&[ax as i64]), false);
    }
    let mid = lax::add(
        &mut Binder,
        &lax::slice_axis(&mut Binder, &y, ax, 1, n)?,
        &lax::slice_axis(&mut Binder, &y, ax, 0, n - 1)?,
    )?;
    let mid = lax::mul(&mut Binder, &mid, 0.5)?;
    let terms = match x {
        None => lax::mul(&mut Binder, &mid, dx)?,
        Some(x) => {
            let x = if x.aval().shape.clone().len() == 1 && y.aval().shape.clone().len() > 1 {
                let mut s = vec![1; y.aval().shape.clone().len()];
                s[ax] = x.aval().shape.clone()[0];
                reshape(x, s)?
            } else {
                x.clone()
            };
            let d = diff(
                &x,
                1,
                if x.aval().shape.clone().len() == 1 {
                    0
                } else {
                    ax as i64
                },
            )?;
            lax::mul(&mut Binder, &mid, &d)?
        }
    };
    reduce("trapezoid", K::Sum, &terms, Some(&[ax as i64]), false)
}
