//! `lax`'s dynamic slicing and updating with traced offsets (gather + select, so they work
//! under every transformation).

use super::shape::normalize_axis;
use crate::core::ops::BinaryOp as B;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

/// A scalar start index as int32, clamped to `[0, hi]`.
fn start_index(name: &str, s: &Value, hi: usize) -> Result<Value> {
    if !s.aval().shape.is_empty() {
        return Err(Error::new(name, "start indices must be scalars"));
    }
    let s = lax::cast(&mut Binder, s, DType::Int32)?;
    lax::min(&mut Binder, &lax::max(&mut Binder, &s, 0.0)?, hi as f64)
}

fn gather_all(x: &Value, index: &[Value]) -> Result<Value> {
    lax::gather(&mut Binder, x, index, (0..index.len()).collect(), 0)
}

/// `x[s0:s0+n0, s1:s1+n1, …]` with traced starts, clamped so the slice fits (as XLA).
pub fn dynamic_slice(x: &Value, starts: &[Value], sizes: &[usize]) -> Result<Value> {
    let s = x.aval().shape.clone();
    if starts.len() != s.len() || sizes.len() != s.len() {
        return Err(Error::new(
            "dynamicSlice",
            format!("needs {} start indices and sizes", s.len()),
        ));
    }
    let mut index = Vec::with_capacity(s.len());
    for k in 0..s.len() {
        if sizes[k] > s[k] {
            return Err(Error::new(
                "dynamicSlice",
                format!("size {} exceeds axis {k} of length {}", sizes[k], s[k]),
            ));
        }
        let st = start_index("dynamicSlice", &starts[k], s[k] - sizes[k])?;
        index.push(lax::add(
            &mut Binder,
            &lax::iota_i32(&mut Binder, sizes.to_vec(), k)?,
            &st,
        )?);
    }
    gather_all(x, &index)
}

/// `dst` with `src` written at `offset` along `axis` (offset clamped so `src` fits).
pub fn dynamic_update_slice(dst: &Value, src: &Value, offset: &Value, axis: i64) -> Result<Value> {
    let (ds, ss) = (dst.aval().shape.clone(), src.aval().shape.clone());
    let ax = normalize_axis("dynamicUpdateSlice", axis, ds.len())?;
    let fits = ds.len() == ss.len()
        && ds
            .iter()
            .zip(&ss)
            .enumerate()
            .all(|(k, (a, b))| if k == ax { b <= a } else { a == b });
    if !fits {
        return Err(Error::new(
            "dynamicUpdateSlice",
            format!("cannot place {ss:?} into {ds:?} along axis {ax}"),
        ));
    }
    let m = ss[ax];
    if m == 0 {
        return Ok(dst.clone());
    }
    let off = start_index("dynamicUpdateSlice", offset, ds[ax] - m)?;
    let i = lax::iota_i32(&mut Binder, ds.clone(), ax)?;
    let rel = lax::sub(&mut Binder, &i, &off)?;
    let inside = lax::binary(
        &mut Binder,
        B::And,
        &lax::le(&mut Binder, 0.0, &rel)?,
        &lax::lt(&mut Binder, &rel, m as f64)?,
    )?;
    let clamped = lax::min(
        &mut Binder,
        &lax::max(&mut Binder, &rel, 0.0)?,
        (m - 1) as f64,
    )?;
    let index: Vec<Value> = (0..ds.len())
        .map(|k| {
            if k == ax {
                Ok(clamped.clone())
            } else {
                lax::iota_i32(&mut Binder, ds.clone(), k)
            }
        })
        .collect::<Result<_>>()?;
    let placed = gather_all(src, &index)?;
    lax::select(&mut Binder, &inside, &placed, dst)
}
