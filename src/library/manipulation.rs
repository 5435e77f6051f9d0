//! numpy's array manipulation beyond single movement primitives: repeat, roll, rot90, append,
//! broadcastShapes/broadcastArrays, unstack and arraySplit, as compositions of movement
//! primitives and gathers.

use super::shape::{broadcast_to, concatenate, flip, normalize_axis, reshape, split, transpose};
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

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
