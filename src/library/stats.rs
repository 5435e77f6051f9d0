//! numpy functions built from reductions and elementwise primitives: `power`, `var`, `std`,
//! and the matrix helpers `diagonal`, `trace`, `tril`, `triu` (diagonals as views: a flattened
//! matrix padded by one row reads its diagonal as a column).

use super::reduce::{reduce, ReduceKind};
use super::shape::{normalize_axis, transpose};
use crate::core::ops::BinaryOp as B;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::{Binder, Operand};
use crate::transform::Value;
use crate::util::{Error, Result};

/// `x ** y`. Small integer exponents given as numbers multiply exactly (JAX's integer_pow);
/// otherwise `exp(y·log|x|)`, negated for a negative base with an odd integer exponent, NaN
/// for a negative base with a fractional one, and `x ** 0 = 1`.
pub fn power(o: &[Operand]) -> Result<Value> {
    let base;
    let x = match (&o[0], &o[1]) {
        (Operand::Value(x), _) => *x,
        (Operand::Literal(b), Operand::Value(y)) => {
            base = number_base(*b, y)?;
            &base
        }
        _ => return Err(Error::new("power", "needs an array operand")),
    };
    if let Operand::Literal(y) = o[1] {
        if y.fract() == 0.0 && y.abs() <= 16.0 {
            return integer_power(x, y as i64);
        }
    }
    let int = |d: DType| matches!(d, DType::Int32 | DType::Uint32);
    if let Operand::Value(y) = &o[1] {
        if int(x.aval().dtype) && int(y.aval().dtype) {
            return int_int_power(x, y);
        }
    }
    let x = if x.aval().dtype.is_float() {
        x.clone()
    } else {
        lax::cast(&mut Binder, x, DType::Float32)?
    };
    let ax = lax::abs(&mut Binder, &x)?;
    let log = lax::log(&mut Binder, &ax)?;
    let mag = lax::exp(&mut Binder, &lax::mul(&mut Binder, o[1].clone(), &log)?)?;
    let negated = lax::neg(&mut Binder, &mag)?;
    let is_neg = lax::lt(&mut Binder, &x, 0.0)?;
    let y = match &o[1] {
        // A numeric exponent: its integrality and parity are known here.
        Operand::Literal(y) if y.fract() != 0.0 => {
            return lax::select(&mut Binder, &is_neg, f64::NAN, &mag)
        }
        Operand::Literal(y) if y.rem_euclid(2.0) == 1.0 => {
            return lax::select(&mut Binder, &is_neg, &negated, &mag)
        }
        Operand::Literal(_) => return Ok(mag),
        Operand::Value(y) => lax::cast(&mut Binder, y, x.aval().dtype)?,
    };
    let floor = lax::floor(&mut Binder, &y)?;
    let is_int = lax::eq(&mut Binder, &floor, &y)?;
    let odd = lax::ne(&mut Binder, &lax::rem(&mut Binder, &y, 2.0)?, 0.0)?;
    let signed = lax::select(&mut Binder, &odd, &negated, &mag)?;
    let neg_base = lax::select(&mut Binder, &is_int, &signed, f64::NAN)?;
    let r = lax::select(&mut Binder, &is_neg, &neg_base, &mag)?;
    // `x ** 0 = 1` changes the value only where `y·log|x|` is NaN (x zero, infinite or NaN);
    // elsewhere `r` is already 1 and keeps the derivative in `y` (`log x`).
    let zero_exp = lax::eq(&mut Binder, &y, 0.0)?;
    let one = lax::select(&mut Binder, &zero_exp, 1.0, &r)?;
    let finite = lax::lt(&mut Binder, &ax, f64::INFINITY)?;
    let nonzero = lax::ne(&mut Binder, &x, 0.0)?;
    let regular = lax::binary(&mut Binder, B::And, &finite, &nonzero)?;
    lax::select(&mut Binder, &regular, &r, &one)
}

/// A JS number base `b` of `b ** y` as a scalar array: of `y`'s dtype where the weak number
/// takes it (a float `y`, or an integer `y` and an integral `b`), float32 otherwise.
fn number_base(b: f64, y: &Value) -> Result<Value> {
    let dy = y.aval().dtype;
    let dtype = if dy.is_float() || (dy != DType::Bool && b.fract() == 0.0) {
        dy
    } else {
        DType::Float32
    };
    let zero = lax::iota(&mut Binder, vec![1], 0, dtype)?;
    let scalar = lax::reshape(&mut Binder, &zero, vec![])?;
    lax::add(&mut Binder, &scalar, b)
}

/// Integer `x ** y` for an integer array `y` (JAX: an integer result), by squaring over the
/// 32 bits of `y`; a negative exponent gives 0, or ±1 for a base of ±1.
fn int_int_power(x: &Value, y: &Value) -> Result<Value> {
    let zero = lax::mul(&mut Binder, &lax::mul(&mut Binder, x, y)?, 0.0)?;
    let (mut base, mut e) = (
        lax::add(&mut Binder, x, &zero)?,
        lax::add(&mut Binder, y, &zero)?,
    );
    let mut acc = lax::add(&mut Binder, &zero, 1.0)?;
    for _ in 0..32 {
        let bit = lax::binary(&mut Binder, B::And, &e, 1.0)?;
        let odd = lax::ne(&mut Binder, &bit, 0.0)?;
        let times = lax::mul(&mut Binder, &acc, &base)?;
        acc = lax::select(&mut Binder, &odd, &times, &acc)?;
        base = lax::mul(&mut Binder, &base, &base)?;
        e = lax::binary(&mut Binder, B::Shr, &e, 1.0)?;
    }
    if y.aval().dtype == DType::Uint32 {
        return Ok(acc);
    }
    // (-1) ** y: 1 - 2·(y & 1), in y's integer dtype.
    let twice_odd = lax::mul(&mut Binder, &lax::binary(&mut Binder, B::And, y, 1.0)?, 2.0)?;
    let minus_one = lax::add(&mut Binder, &zero, &lax::sub(&mut Binder, 1.0, &twice_odd)?)?;
    let is_minus_one = lax::eq(&mut Binder, x, -1.0)?;
    let is_one = lax::eq(&mut Binder, x, 1.0)?;
    let unit = lax::select(&mut Binder, &is_minus_one, &minus_one, &zero)?;
    let unit = lax::select(&mut Binder, &is_one, 1.0, &unit)?;
    let negative = lax::lt(&mut Binder, y, 0.0)?;
    lax::select(&mut Binder, &negative, &unit, &acc)
}

fn integer_power(x: &Value, n: i64) -> Result<Value> {
    if n == 0 {
        let z = lax::mul(&mut Binder, x, 0.0)?;
        return lax::add(&mut Binder, &z, 1.0);
    }
    // Square-and-multiply on |n|, then a reciprocal for negative exponents.
    let (mut base, mut acc): (Value, Option<Value>) = (x.clone(), None);
    let mut k = n.unsigned_abs();
    while k > 0 {
        if k & 1 == 1 {
            acc = Some(match acc {
                None => base.clone(),
                Some(a) => lax::mul(&mut Binder, &a, &base)?,
            });
        }
        k >>= 1;
        if k > 0 {
            base = lax::mul(&mut Binder, &base, &base)?;
        }
    }
    let acc = acc.expect("n != 0");
    if n > 0 {
        Ok(acc)
    } else {
        lax::div(&mut Binder, 1.0, &acc)
    }
}

/// Variance with `correction` (ddof): mean of squared deviations over `axes`.
pub fn var(x: &Value, axes: Option<&[i64]>, correction: f64, keepdims: bool) -> Result<Value> {
    let x = if x.aval().dtype.is_float() {
        x.clone()
    } else {
        lax::cast(&mut Binder, x, DType::Float32)?
    };
    let m = reduce("var", ReduceKind::Mean, &x, axes, true)?;
    let d = lax::sub(&mut Binder, &x, &m)?;
    let d2 = lax::mul(&mut Binder, &d, &d)?;
    let total = reduce("var", ReduceKind::Sum, &d2, axes, keepdims)?;
    let n = x.aval().size() / total.aval().size().max(1);
    let count = n as f64 - correction;
    if count <= 0.0 {
        return Err(Error::new(
            "var",
            format!("{n} elements leave no degrees of freedom"),
        ));
    }
    lax::div(&mut Binder, &total, count)
}

pub fn std(x: &Value, axes: Option<&[i64]>, correction: f64, keepdims: bool) -> Result<Value> {
    let s = var(x, axes, correction, keepdims)?;
    lax::sqrt(&mut Binder, &s)
}

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
