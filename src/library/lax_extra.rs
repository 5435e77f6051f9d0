//! More `lax` functions as compositions: `dot` with dimension numbers (through einsum),
//! dynamic slicing and updating with traced offsets (gather + select, so they work under every
//! transformation), and `topK` (stable argsort). Also `random.multivariateNormal`.

use super::emit::v;
use super::shape::{normalize_axis, reshape};
use crate::core::ops::BinaryOp as B;
use crate::core::{DType, Primitive};
use crate::rules::lax;
use crate::transform::trace::{bind, Binder, Operand};
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
    let mut ops = vec![v(x)];
    ops.extend(index.iter().map(v));
    bind(
        Primitive::Gather {
            axes: (0..index.len()).collect(),
            out_dim: 0,
        },
        &ops,
    )
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
    let values = super::shape_extra::take_along_axis(x, &idx, ax as i64)?;
    Ok(vec![values, idx])
}

const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// `lax.dot` (dot_general) with contracting axes `lc`/`rc` and batch axes `lb`/`rb`. Output
/// axes: batch, lhs free, rhs free. Default contracting axes: lhs's last with rhs's
/// second-to-last (or only) one.
pub fn dot_general(
    lhs: &Value,
    rhs: &Value,
    lc: Option<&[i64]>,
    rc: Option<&[i64]>,
    lb: &[i64],
    rb: &[i64],
) -> Result<Value> {
    let (rl, rr) = (
        lhs.aval().shape.clone().len(),
        rhs.aval().shape.clone().len(),
    );
    if rl + rr > LETTERS.len() || rl == 0 || rr == 0 {
        return Err(Error::new("dot", "needs operands of rank 1 or more"));
    }
    let norm = |list: &[i64], r: usize| -> Result<Vec<usize>> {
        list.iter().map(|&a| normalize_axis("dot", a, r)).collect()
    };
    let lc = norm(lc.unwrap_or(&[-1]), rl)?;
    let rc = norm(rc.unwrap_or(&[if rr >= 2 { -2 } else { 0 }]), rr)?;
    let lb = norm(lb, rl)?;
    let rb = norm(rb, rr)?;
    if lc.len() != rc.len() || lb.len() != rb.len() {
        return Err(Error::new(
            "dot",
            "contracting and batch axis lists must pair up",
        ));
    }
    let ll: Vec<char> = (0..rl).map(|k| LETTERS[k] as char).collect();
    let mut lr: Vec<char> = (0..rr).map(|k| LETTERS[rl + k] as char).collect();
    for (&a, &b) in lc.iter().zip(&rc).chain(lb.iter().zip(&rb)) {
        if lhs.aval().shape.clone()[a] != rhs.aval().shape.clone()[b] {
            return Err(Error::new(
                "dot",
                format!("axis {a} and axis {b} differ in size"),
            ));
        }
        lr[b] = ll[a];
    }
    let free_l: Vec<char> = (0..rl)
        .filter(|k| !lc.contains(k) && !lb.contains(k))
        .map(|k| ll[k])
        .collect();
    let free_r: Vec<char> = (0..rr)
        .filter(|k| !rc.contains(k) && !rb.contains(k))
        .map(|k| lr[k])
        .collect();
    let out: String = lb
        .iter()
        .map(|&k| ll[k])
        .chain(free_l)
        .chain(free_r)
        .collect();
    let spec = format!(
        "{},{}->{}",
        ll.iter().collect::<String>(),
        lr.iter().collect::<String>(),
        out
    );
    super::einsum::einsum(&spec, &[lhs.clone(), rhs.clone()])
}

/// `mean + L·z` with `L = cholesky(cov)` and `z` standard normal of shape `shape + [n]`
/// (`sample_shape`; default: the broadcast batch shape).
pub fn multivariate_normal(
    key: &Value,
    mean: &Value,
    cov: &Value,
    sample_shape: Option<&[usize]>,
) -> Result<Value> {
    let (ms, cs) = (mean.aval().shape.clone(), cov.aval().shape.clone());
    let n = *ms
        .last()
        .ok_or_else(|| Error::new("multivariateNormal", "mean must be at least 1-D"))?;
    if cs.len() < 2 || cs[cs.len() - 2..] != [n, n] {
        return Err(Error::new(
            "multivariateNormal",
            format!("cov must have shape [..., {n}, {n}], got {cs:?}"),
        ));
    }
    let batch: Vec<usize> = match sample_shape {
        Some(s) => s.to_vec(),
        None => super::shape_extra::broadcast_shape(
            "multivariateNormal",
            &[ms[..ms.len() - 1].to_vec(), cs[..cs.len() - 2].to_vec()],
        )?,
    };
    let mut zs = batch.clone();
    zs.push(n);
    let z = super::random::normal(key, &zs)?;
    let l = super::lax_linalg::cholesky_lower("multivariateNormal", cov)?;
    let mut col = zs.clone();
    col.push(1);
    let lz = super::apply("matmul", &[v(&l), Operand::Value(&reshape(&z, col)?)])?;
    let mut out = lz.aval().shape.clone();
    out.pop();
    lax::add(&mut Binder, mean, &reshape(&lz, out)?)
}
