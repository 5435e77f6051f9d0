//! numpy functions built from reductions and elementwise primitives: `power`, `var`, `std`,
//! and the matrix helpers `diagonal`, `trace`, `tril`, `triu` (diagonals as views: a flattened
//! matrix padded by one row reads its diagonal as a column).

use super::emit::{bin as binary, lit, v};
use super::reduce::{reduce, ReduceKind};
use super::shape::{normalize_axis, transpose};
use crate::core::ops::{BinaryOp as B, CompareOp as C, UnaryOp as U};
use crate::core::{DType, Primitive};
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::trace::{bind, Operand};
use crate::transform::Value;
use crate::util::{Error, Result};

/// `x ** y`. Small integer exponents given as numbers multiply exactly (JAX's integer_pow);
/// otherwise `exp(y·log|x|)`, negated for a negative base with an odd integer exponent, NaN
/// for a negative base with a fractional one, and `x ** 0 = 1`.
pub fn power(o: &[Operand]) -> Result<Value> {
    let x = o[0]
        .value()
        .ok_or_else(|| Error::new("power", "the base must be an array"))?;
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
        bind(Primitive::Cast(DType::Float32), &[v(x)])?
    };
    let ax = bind(Primitive::Unary(U::Abs), &[v(&x)])?;
    let log = bind(Primitive::Unary(U::Log), &[v(&ax)])?;
    let mag = bind(
        Primitive::Unary(U::Exp),
        &[v(&binary(B::Mul, o[1].clone(), v(&log))?)],
    )?;
    let negated = bind(Primitive::Unary(U::Neg), &[v(&mag)])?;
    let is_neg = bind(Primitive::Compare(C::Lt), &[v(&x), lit(0.0)])?;
    let y = match &o[1] {
        // A numeric exponent: its integrality and parity are known here.
        Operand::Literal(y) if y.fract() != 0.0 => {
            return bind(Primitive::Where, &[v(&is_neg), lit(f64::NAN), v(&mag)])
        }
        Operand::Literal(y) if y.rem_euclid(2.0) == 1.0 => {
            return bind(Primitive::Where, &[v(&is_neg), v(&negated), v(&mag)])
        }
        Operand::Literal(_) => return Ok(mag),
        Operand::Value(y) => bind(Primitive::Cast(x.aval().dtype), &[v(y)])?,
    };
    let floor = bind(Primitive::Unary(U::Floor), &[v(&y)])?;
    let is_int = bind(Primitive::Compare(C::Eq), &[v(&floor), v(&y)])?;
    let odd = bind(
        Primitive::Compare(C::Ne),
        &[v(&binary(B::Rem, v(&y), lit(2.0))?), lit(0.0)],
    )?;
    let signed = bind(Primitive::Where, &[v(&odd), v(&negated), v(&mag)])?;
    let neg_base = bind(Primitive::Where, &[v(&is_int), v(&signed), lit(f64::NAN)])?;
    let r = bind(Primitive::Where, &[v(&is_neg), v(&neg_base), v(&mag)])?;
    let zero_exp = bind(Primitive::Compare(C::Eq), &[v(&y), lit(0.0)])?;
    bind(Primitive::Where, &[v(&zero_exp), lit(1.0), v(&r)])
}

/// Integer `x ** y` for an integer array `y` (JAX: an integer result), by squaring over the
/// 32 bits of `y`; a negative exponent gives 0, or ±1 for a base of ±1.
fn int_int_power(x: &Value, y: &Value) -> Result<Value> {
    let zero = binary(B::Mul, v(&binary(B::Mul, v(x), v(y))?), lit(0.0))?;
    let (mut base, mut e) = (
        binary(B::Add, v(x), v(&zero))?,
        binary(B::Add, v(y), v(&zero))?,
    );
    let mut acc = binary(B::Add, v(&zero), lit(1.0))?;
    for _ in 0..32 {
        let bit = binary(B::And, v(&e), lit(1.0))?;
        let odd = bind(Primitive::Compare(C::Ne), &[v(&bit), lit(0.0)])?;
        let times = binary(B::Mul, v(&acc), v(&base))?;
        acc = bind(Primitive::Where, &[v(&odd), v(&times), v(&acc)])?;
        base = binary(B::Mul, v(&base), v(&base))?;
        e = binary(B::Shr, v(&e), lit(1.0))?;
    }
    if y.aval().dtype == DType::Uint32 {
        return Ok(acc);
    }
    // (-1) ** y: 1 - 2·(y & 1), in y's integer dtype.
    let twice_odd = binary(B::Mul, v(&binary(B::And, v(y), lit(1.0))?), lit(2.0))?;
    let minus_one = binary(
        B::Add,
        v(&zero),
        v(&binary(B::Sub, lit(1.0), v(&twice_odd))?),
    )?;
    let is_minus_one = bind(Primitive::Compare(C::Eq), &[v(x), lit(-1.0)])?;
    let is_one = bind(Primitive::Compare(C::Eq), &[v(x), lit(1.0)])?;
    let unit = bind(
        Primitive::Where,
        &[v(&is_minus_one), v(&minus_one), v(&zero)],
    )?;
    let unit = bind(Primitive::Where, &[v(&is_one), lit(1.0), v(&unit)])?;
    let negative = bind(Primitive::Compare(C::Lt), &[v(y), lit(0.0)])?;
    bind(Primitive::Where, &[v(&negative), v(&unit), v(&acc)])
}

fn integer_power(x: &Value, n: i64) -> Result<Value> {
    if n == 0 {
        let z = binary(B::Mul, v(x), lit(0.0))?;
        return binary(B::Add, v(&z), lit(1.0));
    }
    // Square-and-multiply on |n|, then a reciprocal for negative exponents.
    let (mut base, mut acc): (Value, Option<Value>) = (x.clone(), None);
    let mut k = n.unsigned_abs();
    while k > 0 {
        if k & 1 == 1 {
            acc = Some(match acc {
                None => base.clone(),
                Some(a) => binary(B::Mul, v(&a), v(&base))?,
            });
        }
        k >>= 1;
        if k > 0 {
            base = binary(B::Mul, v(&base), v(&base))?;
        }
    }
    let acc = acc.expect("n != 0");
    if n > 0 {
        Ok(acc)
    } else {
        binary(B::Div, lit(1.0), v(&acc))
    }
}

/// Variance with `correction` (ddof): mean of squared deviations over `axes`.
pub fn var(x: &Value, axes: Option<&[i64]>, correction: f64, keepdims: bool) -> Result<Value> {
    let x = if x.aval().dtype.is_float() {
        x.clone()
    } else {
        bind(Primitive::Cast(DType::Float32), &[v(x)])?
    };
    let m = reduce("var", ReduceKind::Mean, &x, axes, true)?;
    let d = binary(B::Sub, v(&x), v(&m))?;
    let d2 = binary(B::Mul, v(&d), v(&d))?;
    let total = reduce("var", ReduceKind::Sum, &d2, axes, keepdims)?;
    let n = x.aval().size() / total.aval().size().max(1);
    let count = n as f64 - correction;
    if count <= 0.0 {
        return Err(Error::new(
            "var",
            format!("{n} elements leave no degrees of freedom"),
        ));
    }
    binary(B::Div, v(&total), lit(count))
}

pub fn std(x: &Value, axes: Option<&[i64]>, correction: f64, keepdims: bool) -> Result<Value> {
    let s = var(x, axes, correction, keepdims)?;
    bind(Primitive::Unary(U::Sqrt), &[v(&s)])
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
    let sub = bind(Primitive::Shrink(ranges), &[v(&t)])?;
    let (n, m) = (rows.len(), cols.len());
    let k = n.min(m);
    let mut flat_shape = batch.to_vec();
    flat_shape.push(n * m);
    let flat = bind(Primitive::Reshape(flat_shape), &[v(&sub)])?;
    // [.., n·m] padded to [.., k·(m+1)] then read as [.., k, m+1]: column 0 is the diagonal.
    let mut pad: Vec<(usize, usize)> = batch.iter().map(|_| (0, 0)).collect();
    pad.push((0, (k * (m + 1)).saturating_sub(n * m)));
    let padded = bind(Primitive::Pad(pad), &[v(&flat)])?;
    let mut keep: Vec<(usize, usize)> = batch.iter().map(|&d| (0, d)).collect();
    keep.push((0, k * (m + 1)));
    let trimmed = bind(Primitive::Shrink(keep), &[v(&padded)])?;
    let mut rows_shape = batch.to_vec();
    rows_shape.extend([k, m + 1]);
    let grid = bind(Primitive::Reshape(rows_shape), &[v(&trimmed)])?;
    let mut col0: Vec<(usize, usize)> = batch.iter().map(|&d| (0, d)).collect();
    col0.extend([(0, k), (0, 1)]);
    let column = bind(Primitive::Shrink(col0), &[v(&grid)])?;
    let mut out_shape = batch.to_vec();
    out_shape.push(k);
    bind(Primitive::Reshape(out_shape), &[v(&column)])
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
    let diff = binary(B::Sub, v(&j), v(&i))?; // j - i
    let keep = if lower {
        bind(Primitive::Compare(C::Le), &[v(&diff), lit(k as f64)])?
    } else {
        bind(Primitive::Compare(C::Le), &[lit(k as f64), v(&diff)])?
    };
    keep_or_zero(&keep, x)
}

/// `x` where `keep`, else zero of `x`'s dtype (`false` for bool, as jax-js's `zerosLike`; a
/// bare 0 meeting a bool array would be an int32 number).
fn keep_or_zero(keep: &Value, x: &Value) -> Result<Value> {
    if x.aval().dtype == DType::Bool {
        binary(B::And, v(keep), v(x))
    } else {
        bind(Primitive::Where, &[v(keep), v(x), lit(0.0)])
    }
}

/// NumPy's `diag`: the `k` diagonal of a matrix, or a matrix with vector `x` on diagonal `k`.
pub fn diag(x: &Value, k: i64) -> Result<Value> {
    match x.aval().shape.len() {
        2 => diagonal(x, k, 0, 1),
        1 => {
            let n = x.aval().shape[0];
            let size = n + k.unsigned_abs() as usize;
            // out[i, j] = x[i] (k ≥ 0) or x[j] (k < 0) where j − i = k.
            let padded = bind(Primitive::Pad(vec![(0, size - n)]), &[v(x)])?;
            let axes = vec![if k >= 0 { 0 } else { 1 }];
            let grid = bind(
                Primitive::Broadcast {
                    shape: vec![size, size],
                    axes,
                },
                &[v(&padded)],
            )?;
            let iota = |axis| lax::iota_i32(&mut Binder, vec![size, size], axis);
            let diff = binary(B::Sub, v(&iota(1)?), v(&iota(0)?))?;
            let on = bind(Primitive::Compare(C::Eq), &[v(&diff), lit(k as f64)])?;
            keep_or_zero(&on, &grid)
        }
        r => Err(Error::new(
            "diag",
            format!("needs a 1-D or 2-D array, got rank {r}"),
        )),
    }
}
