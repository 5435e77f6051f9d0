//! Cyclic Jacobi sweeps as compositions of primitives, for `eigh` (two-sided rotations of a
//! symmetric matrix) and `svd` (one-sided rotations of the columns, Hestenes' method). They run
//! on every device and under every transformation (under `jit` the sweeps become a program of
//! thousands of small kernels, slow to compile: eager calls are the fast path).
//!
//! The rounds follow the circle method, so each round rotates `N/2` disjoint index pairs at
//! once with elementwise operations: the `N` (even) indices are kept in a two-row layout
//! `[2, N/2]` whose column `k` is the pair `(top[k], bottom[k])`, starting from
//! `top = 0..N/2`, `bottom = N-1..N/2`. Between rounds every index but `top[0]` moves one
//! place around the circle (slices and concatenations), and after the `N - 1` rounds of a sweep
//! the layout is back where it started. An odd order is padded with a zero row and column,
//! which no rotation touches (its angle is 0).
//!
//! Each pair is rotated by `J = [[c, s], [-s, c]]` with `t = s / c` the smaller root that
//! zeroes the pair's off-diagonal element (Golub & Van Loan, Algorithm 8.5.2).

use super::emit::v;
use crate::core::ops::ReduceOp;
use crate::core::{DType, Primitive};
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::trace::{self, bind, Value};
use crate::util::Result;

fn shrink_axis(x: &Value, axis: usize, lo: usize, hi: usize) -> Result<Value> {
    let mut ranges: Vec<(usize, usize)> = x.aval().shape.iter().map(|&d| (0, d)).collect();
    ranges[axis] = (lo, hi);
    barrier(&lax::shrink(&mut Binder, x, ranges)?)
}

fn concat(xs: &[Value], axis: usize) -> Result<Value> {
    let parts: Vec<&Value> = xs.iter().filter(|x| x.aval().shape[axis] > 0).collect();
    if parts.len() == 1 {
        return Ok(parts[0].clone());
    }
    let ops: Vec<_> = parts.into_iter().map(v).collect();
    barrier(&bind(Primitive::Concatenate(axis), &ops)?)
}

/// An identity mask of `shape` (in `dtype`) that is one where the indices along axes `a` and
/// `b` agree.
pub fn identity_mask(shape: Vec<usize>, a: usize, b: usize, dtype: DType) -> Result<Value> {
    let iota = |axis| lax::iota_i32(&mut Binder, shape.clone(), axis);
    let eq = lax::eq(&mut Binder, &iota(a)?, &iota(b)?)?;
    lax::cast(&mut Binder, &eq, dtype)
}

/// [`identity_mask`] computed into its own buffer when traced (see [`barrier`]).
pub fn eye_mask(shape: Vec<usize>, a: usize, b: usize, dtype: DType) -> Result<Value> {
    barrier(&identity_mask(shape, a, b, dtype)?)
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
    bind(
        Primitive::Reduce {
            op: ReduceOp::Sum,
            axes,
        },
        &[v(x)],
    )
}

/// The number of sweeps for order `n`: Jacobi converges quadratically once the off-diagonal
/// part is small, which takes a few sweeps more than `log₂ n` in practice.
pub fn sweeps(n: usize, dtype: DType) -> usize {
    let log = usize::BITS as usize - n.max(1).leading_zeros() as usize;
    (log + 4 + usize::from(dtype == DType::Float64)).max(6)
}

/// `x` computed into its own buffer when traced (a reduction over a unit axis). Every slice
/// and concatenation is followed by one: `jit`'s fusion pass treats a view as cheap and would
/// otherwise compose the index arithmetic of the chained views of many rounds (a tree without
/// sharing, growing geometrically) into kernels too large to compile.
fn barrier(x: &Value) -> Result<Value> {
    if trace::top_frame().is_none() {
        return Ok(x.clone()); // eager values are computed already
    }
    let mut shape = x.aval().shape.clone();
    shape.push(1);
    let r = shape.len();
    sum(&lax::reshape(&mut Binder, x, shape)?, vec![r - 1])
}

/// `(c, s)` of the rotation that zeroes `apq` in `[[app, apq], [apq, aqq]]`; `(1, 0)` when
/// there is nothing to rotate.
fn rotation(app: &Value, aqq: &Value, apq: &Value) -> Result<(Value, Value)> {
    let d = lax::sub(&mut Binder, aqq, app)?;
    let neg = lax::lt(&mut Binder, &d, 0.0)?;
    let sign = lax::select(&mut Binder, &neg, -1.0, 1.0)?;
    let a2 = lax::mul(&mut Binder, apq, apq)?;
    let root = lax::sqrt(
        &mut Binder,
        &lax::add(
            &mut Binder,
            &lax::mul(&mut Binder, &d, &d)?,
            &lax::mul(&mut Binder, &a2, 4.0)?,
        )?,
    )?;
    let den = lax::add(&mut Binder, &lax::abs(&mut Binder, &d)?, &root)?;
    let zero = lax::eq(&mut Binder, &den, 0.0)?;
    let safe = lax::select(&mut Binder, &zero, 1.0, &den)?;
    let num = lax::mul(&mut Binder, &lax::mul(&mut Binder, apq, &sign)?, 2.0)?;
    let t = lax::select(
        &mut Binder,
        &zero,
        0.0,
        &lax::div(&mut Binder, &num, &safe)?,
    )?;
    let t2 = lax::add(&mut Binder, &lax::mul(&mut Binder, &t, &t)?, 1.0)?;
    let c = lax::div(&mut Binder, 1.0, &lax::sqrt(&mut Binder, &t2)?)?;
    let s = lax::mul(&mut Binder, &t, &c)?;
    Ok((c, s))
}

/// Rotates the pairs of axis `e` (size 2) of `x`: `p ← c p − s q`, `q ← s p + c q`; `c` and
/// `s` broadcast against either half.
fn rotate(x: &Value, e: usize, c: &Value, s: &Value) -> Result<Value> {
    let p = shrink_axis(x, e, 0, 1)?;
    let q = shrink_axis(x, e, 1, 2)?;
    let mul = |a: &Value, b: &Value| lax::mul(&mut Binder, a, b);
    let np = lax::sub(&mut Binder, &mul(c, &p)?, &mul(s, &q)?)?;
    let nq = lax::add(&mut Binder, &mul(s, &p)?, &mul(c, &q)?)?;
    concat(&[np, nq], e)
}

/// One step around the circle of the two-row layout at axes `e` (the row) and `e + 1`.
fn advance(x: &Value, e: usize) -> Result<Value> {
    let h = x.aval().shape[e + 1];
    if h < 2 {
        return Ok(x.clone());
    }
    let k = e + 1;
    let top = shrink_axis(x, e, 0, 1)?;
    let bot = shrink_axis(x, e, 1, 2)?;
    let new_top = concat(
        &[
            shrink_axis(&top, k, 0, 1)?,
            shrink_axis(&bot, k, 0, 1)?,
            shrink_axis(&top, k, 1, h - 1)?,
        ],
        k,
    )?;
    let new_bot = concat(
        &[shrink_axis(&bot, k, 1, h)?, shrink_axis(&top, k, h - 1, h)?],
        k,
    )?;
    concat(&[new_top, new_bot], e)
}

/// Axis `axis` (even length `N`) of `x` as the two axes `[2, N/2]` of the starting layout.
fn to_layout(x: &Value, axis: usize) -> Result<Value> {
    let shape = x.aval().shape.clone();
    let h = shape[axis] / 2;
    let mut half = shape[..axis].to_vec();
    half.extend([1, h]);
    half.extend_from_slice(&shape[axis + 1..]);
    let top = barrier(&lax::reshape(
        &mut Binder,
        &shrink_axis(x, axis, 0, h)?,
        half.clone(),
    )?)?;
    let bot = shrink_axis(x, axis, h, 2 * h)?;
    let bot = barrier(&lax::flip(&mut Binder, &bot, vec![axis])?)?;
    concat(
        &[top, barrier(&lax::reshape(&mut Binder, &bot, half)?)?],
        axis,
    )
}

/// The inverse of [`to_layout`]: axes `axis, axis + 1` back to one axis in index order.
fn from_layout(x: &Value, axis: usize) -> Result<Value> {
    let shape = x.aval().shape.clone();
    let mut one = shape[..axis].to_vec();
    one.extend_from_slice(&shape[axis + 1..]);
    let top = barrier(&lax::reshape(
        &mut Binder,
        &shrink_axis(x, axis, 0, 1)?,
        one.clone(),
    )?)?;
    let bot = barrier(&lax::reshape(
        &mut Binder,
        &shrink_axis(x, axis, 1, 2)?,
        one,
    )?)?;
    let bot = barrier(&lax::flip(&mut Binder, &bot, vec![axis])?)?;
    concat(&[top, bot], axis)
}

/// Pads the last `k` axes of `x` by one trailing zero each when `odd`.
fn pad_odd(x: &Value, k: usize, odd: bool) -> Result<Value> {
    if !odd {
        return Ok(x.clone());
    }
    let r = x.aval().shape.len();
    let pads = (0..r).map(|i| (0, usize::from(i >= r - k))).collect();
    lax::pad(&mut Binder, x, pads)
}

/// The identity `[N, N]` with its columns in the starting layout `[N, 2, N/2]`, broadcast to
/// batch `b`.
fn eye_layout(b: usize, n: usize, dtype: DType) -> Result<Value> {
    let eye = eye_mask(vec![n, n], 0, 1, dtype)?;
    let eye = to_layout(&eye, 1)?;
    bind(
        Primitive::Broadcast {
            shape: vec![b, n, 2, n / 2],
            axes: vec![1, 2, 3],
        },
        &[v(&eye)],
    )
}

/// Eigenvalues (unsorted, `[b, n]`) and eigenvectors (columns, `[b, n, n]`) of the symmetric
/// matrices `a [b, n, n]`.
pub fn eigh(a: &Value) -> Result<(Value, Value)> {
    let (n, dtype) = (a.aval().shape[1], a.aval().dtype);
    eigh_sweeps(a, if n < 2 { 0 } else { sweeps(n, dtype) })
}

fn eigh_sweeps(a: &Value, count: usize) -> Result<(Value, Value)> {
    let s = a.aval().shape.clone();
    let (b, n, dtype) = (s[0], s[1], a.aval().dtype);
    let big = n + n % 2;
    let h = big / 2;
    let mut x = to_layout(&to_layout(&pad_odd(a, 2, n % 2 == 1)?, 1)?, 3)?; // [b, 2, h, 2, h]
    let mut vecs = eye_layout(b, big, dtype)?; // [b, N, 2, h]
    let mask = eye_mask(vec![1, 1, h, 1, h], 2, 4, dtype)?;
    for _ in 0..count {
        for _ in 0..big - 1 {
            // The 2×2 diagonal blocks [b, 2, h, 2]: the pairs' own elements.
            let blocks = sum(&lax::mul(&mut Binder, &x, &mask)?, vec![4])?;
            let at = |e: usize, f: usize| -> Result<Value> {
                let r = shrink_axis(&shrink_axis(&blocks, 1, e, e + 1)?, 3, f, f + 1)?;
                lax::reshape(&mut Binder, &r, vec![b, h])
            };
            let (c, sn) = rotation(&at(0, 0)?, &at(1, 1)?, &at(0, 1)?)?;
            let rows = |y: &Value| lax::reshape(&mut Binder, y, vec![b, 1, h, 1, 1]);
            let cols = |y: &Value| lax::reshape(&mut Binder, y, vec![b, 1, 1, 1, h]);
            x = rotate(&x, 1, &rows(&c)?, &rows(&sn)?)?;
            x = rotate(&x, 3, &cols(&c)?, &cols(&sn)?)?;
            let vc = |y: &Value| lax::reshape(&mut Binder, y, vec![b, 1, 1, h]);
            vecs = rotate(&vecs, 2, &vc(&c)?, &vc(&sn)?)?;
            x = advance(&advance(&x, 1)?, 3)?;
            vecs = advance(&vecs, 2)?;
        }
    }
    let full = from_layout(&from_layout(&x, 3)?, 1)?; // [b, N, N]
    let w = sum(
        &lax::mul(
            &mut Binder,
            &full,
            &eye_mask(vec![1, big, big], 1, 2, dtype)?,
        )?,
        vec![2],
    )?;
    let vecs = from_layout(&vecs, 2)?;
    let w = shrink_axis(&w, 1, 0, n)?;
    let vecs = shrink_axis(&shrink_axis(&vecs, 1, 0, n)?, 2, 0, n)?;
    Ok((w, vecs))
}

/// One-sided Jacobi on the columns of `a [b, m, n]` (`m ≥ n`): `(w, v)` with `a v = w`, the
/// columns of `w [b, m, n]` mutually orthogonal and `v [b, n, n]` orthogonal. The singular
/// values are the column norms of `w`.
pub fn orthogonalize_columns(a: &Value) -> Result<(Value, Value)> {
    let s = a.aval().shape.clone();
    let (b, n, dtype) = (s[0], s[2], a.aval().dtype);
    let big = n + n % 2;
    let h = big / 2;
    let padded = if n % 2 == 1 {
        lax::pad(&mut Binder, a, vec![(0, 0), (0, 0), (0, 1)])?
    } else {
        a.clone()
    };
    let mut w = to_layout(&padded, 2)?; // [b, m, 2, h]
    let mut vecs = eye_layout(b, big, dtype)?; // [b, N, 2, h]
    for _ in 0..if n < 2 { 0 } else { sweeps(n, dtype) } {
        for _ in 0..big - 1 {
            let p = shrink_axis(&w, 2, 0, 1)?;
            let q = shrink_axis(&w, 2, 1, 2)?;
            let dot = |x: &Value, y: &Value| -> Result<Value> {
                lax::reshape(
                    &mut Binder,
                    &sum(&lax::mul(&mut Binder, x, y)?, vec![1, 2])?,
                    vec![b, h],
                )
            };
            let (c, sn) = rotation(&dot(&p, &p)?, &dot(&q, &q)?, &dot(&p, &q)?)?;
            let cols = |y: &Value| lax::reshape(&mut Binder, y, vec![b, 1, 1, h]);
            w = rotate(&w, 2, &cols(&c)?, &cols(&sn)?)?;
            vecs = rotate(&vecs, 2, &cols(&c)?, &cols(&sn)?)?;
            w = advance(&w, 2)?;
            vecs = advance(&vecs, 2)?;
        }
    }
    let w = shrink_axis(&from_layout(&w, 2)?, 2, 0, n)?;
    let vecs = from_layout(&vecs, 2)?;
    let vecs = shrink_axis(&shrink_axis(&vecs, 1, 0, n)?, 2, 0, n)?;
    Ok((w, vecs))
}
