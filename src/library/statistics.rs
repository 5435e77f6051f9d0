//! numpy's statistics as compositions: `ptp`, `countNonzero`, the NaN-ignoring reductions and
//! scans, `average` and `cov`/`corrcoef`; and `isnan`/`isfinite`, which the comparisons share.

use super::emit::v;
use super::reduce::{reduce, ReduceKind as K};
use crate::core::ops::{BinaryOp as B, ReduceOp, UnaryOp as U};
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

pub(super) fn isnan(x: &Value) -> Result<Value> {
    lax::ne(&mut Binder, x, x)
}

/// Whether each element is finite. float32 tests the exponent bits (not all ones): the usual
/// `x - x == 0` is folded to `true` by GPU shader compilers once fused into one kernel (WGSL lets
/// them assume finite floats), which made `jit(isfinite)` wrong on webgpu. Other float dtypes
/// keep `x - x == 0`; integers and bools are always finite.
pub fn isfinite(x: &Value) -> Result<Value> {
    let d = x.aval().dtype;
    if d == DType::Float32 {
        let bits = lax::bitcast(&mut Binder, x, DType::Uint32)?;
        let exponent = lax::binary(&mut Binder, B::And, &bits, f64::from(0x7f80_0000u32))?;
        return lax::ne(&mut Binder, &exponent, f64::from(0x7f80_0000u32));
    }
    lax::eq(&mut Binder, &lax::sub(&mut Binder, x, x)?, 0.0)
}

/// `x` with NaN replaced by `fill` (integers unchanged).
fn fill_nan(x: &Value, fill: f64) -> Result<Value> {
    if !x.aval().dtype.is_float() {
        return Ok(x.clone());
    }
    lax::select(&mut Binder, &isnan(x)?, fill, x)
}

/// The number of non-NaN elements over `axes`, as `x`'s float dtype.
fn count_valid(x: &Value, axes: Option<&[i64]>, keepdims: bool) -> Result<Value> {
    let ok = lax::unary(&mut Binder, U::Not, &isnan(x)?)?;
    let d = if x.aval().dtype.is_float() {
        x.aval().dtype
    } else {
        DType::Float32
    };
    reduce(
        "count",
        K::Sum,
        &lax::convert(&mut Binder, &ok, d)?,
        axes,
        keepdims,
    )
}

/// The reductions by name over `axes` (`None`: all); `ddof` is nanvar/nanstd's correction.
pub fn reduction(
    name: &str,
    x: &Value,
    axes: Option<&[i64]>,
    keepdims: bool,
    ddof: f64,
) -> Result<Value> {
    match name {
        "ptp" => {
            let hi = reduce(name, K::Max, x, axes, keepdims)?;
            let lo = reduce(name, K::Min, x, axes, keepdims)?;
            lax::sub(&mut Binder, &hi, &lo)
        }
        "countNonzero" => {
            let nz = lax::ne(&mut Binder, x, 0.0)?;
            reduce(
                name,
                K::Sum,
                &lax::convert(&mut Binder, &nz, DType::Int32)?,
                axes,
                keepdims,
            )
        }
        "nansum" => reduce(name, K::Sum, &fill_nan(x, 0.0)?, axes, keepdims),
        "nanprod" => reduce(name, K::Prod, &fill_nan(x, 1.0)?, axes, keepdims),
        "nanmax" | "nanmin" => {
            let (kind, fill) = if name == "nanmax" {
                (K::Max, f64::NEG_INFINITY)
            } else {
                (K::Min, f64::INFINITY)
            };
            let m = reduce(name, kind, &fill_nan(x, fill)?, axes, keepdims)?;
            if !x.aval().dtype.is_float() {
                return Ok(m);
            }
            let none = lax::eq(&mut Binder, &count_valid(x, axes, keepdims)?, 0.0)?;
            lax::select(&mut Binder, &none, f64::NAN, &m)
        }
        "nanmean" => {
            let x = super::math::float(&v(x))?;
            let s = reduce(name, K::Sum, &fill_nan(&x, 0.0)?, axes, keepdims)?;
            lax::div(&mut Binder, &s, &count_valid(&x, axes, keepdims)?)
        }
        "nanvar" | "nanstd" => {
            let x = super::math::float(&v(x))?;
            let n = count_valid(&x, axes, true)?;
            let s = reduce(name, K::Sum, &fill_nan(&x, 0.0)?, axes, true)?;
            let mean = lax::div(&mut Binder, &s, &n)?;
            let d = fill_nan(&lax::sub(&mut Binder, &x, &mean)?, 0.0)?;
            let ss = reduce(
                name,
                K::Sum,
                &lax::mul(&mut Binder, &d, &d)?,
                axes,
                keepdims,
            )?;
            let n = count_valid(&x, axes, keepdims)?;
            let dof = lax::sub(&mut Binder, &n, ddof)?;
            let var = lax::div(&mut Binder, &ss, &lax::max(&mut Binder, &dof, 0.0)?)?;
            if name == "nanvar" {
                Ok(var)
            } else {
                lax::sqrt(&mut Binder, &var)
            }
        }
        _ => Err(Error::new(name, "unknown reduction")),
    }
}

/// `nanargmax`/`nanargmin` (NaN never wins; an all-NaN slice gives −1, as JAX) and
/// `nancumsum`/`nancumprod` (NaN counts as the identity) along `axis` (`None`: the flattened
/// array).
pub fn nan_scan(name: &str, x: &Value, axis: Option<i64>) -> Result<Value> {
    use super::indexing::{arg_extreme, cumulative};
    match name {
        "nanargmax" | "nanargmin" => {
            let max = name == "nanargmax";
            let fill = if max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            let idx = arg_extreme(name, &fill_nan(x, fill)?, axis, false, max)?;
            if !x.aval().dtype.is_float() {
                return Ok(idx);
            }
            let axes = axis.map(|a| [a]);
            let valid = count_valid(x, axes.as_ref().map(|a| &a[..]), false)?;
            let none = lax::eq(&mut Binder, &valid, 0.0)?;
            lax::select(&mut Binder, &none, -1.0, &idx)
        }
        "nancumsum" => cumulative(name, ReduceOp::Sum, &fill_nan(x, 0.0)?, axis),
        _ => cumulative(name, ReduceOp::Prod, &fill_nan(x, 1.0)?, axis),
    }
}

/// The weighted mean over `axes` (`None`: all); weights shaped like `x`, or 1-D along a
/// single axis.
pub fn average(x: &Value, weights: Option<&Value>, axes: Option<&[i64]>) -> Result<Value> {
    let axes = axes.map(<[i64]>::to_vec);
    let x = super::math::float(&v(x))?;
    let Some(w) = weights else {
        return reduce("average", K::Mean, &x, axes.as_deref(), false);
    };
    let rank = x.aval().shape.len();
    let w = if w.aval().shape == x.aval().shape {
        w.clone()
    } else {
        match (&axes, w.aval().shape.len()) {
            (Some(a), 1) if a.len() == 1 => {
                let ax = super::shape::normalize_axis("average", a[0], rank)?;
                let mut shape = vec![1; rank];
                shape[ax] = w.aval().shape[0];
                super::shape::reshape(w, shape)?
            }
            _ => {
                return Err(Error::new(
                    "average",
                    "weights must have the shape of the array, or be 1-D along one axis",
                ))
            }
        }
    };
    let num = reduce(
        "average",
        K::Sum,
        &lax::mul(&mut Binder, &x, &w)?,
        axes.as_deref(),
        false,
    )?;
    let wb = super::shape::broadcast_to(&w, x.aval().shape.clone())?;
    let den = reduce("average", K::Sum, &wb, axes.as_deref(), false)?;
    lax::div(&mut Binder, &num, &den)
}

/// Covariance of the rows (of the columns unless `rowvar`), dividing by N − `ddof`, or the
/// correlation coefficients for `corrcoef`.
pub fn cov(name: &str, x: &Value, y: Option<&Value>, rowvar: bool, ddof: f64) -> Result<Value> {
    let rows = |a: &Value| -> Result<Value> {
        let a = super::math::float(&v(a))?;
        let s = a.aval().shape.clone();
        match s.len() {
            1 => super::shape::reshape(&a, vec![1, s[0]]),
            2 if rowvar => Ok(a),
            2 => super::shape::transpose(&a, None),
            r => Err(Error::new(
                name,
                format!("needs 1-D or 2-D input, got {r}-D"),
            )),
        }
    };
    let mut m = rows(x)?;
    if let Some(y) = y {
        m = super::shape::concatenate(&[m, rows(y)?], 0)?;
    }
    let (vars, n) = (m.aval().shape[0], m.aval().shape[1]);
    let mean = reduce(name, K::Mean, &m, Some(&[1]), true)?;
    let c = lax::sub(&mut Binder, &m, &mean)?;
    let ct = super::shape::transpose(&c, None)?;
    let prod = super::half::pair_in_f32(&c, &ct, |a, b| lax::matmul(&mut Binder, a, b))?;
    let cov = lax::div(&mut Binder, &prod, n as f64 - ddof)?;
    let out = if name == "corrcoef" {
        let d = super::matrices::diagonal(&cov, 0, 0, 1)?;
        let sd = lax::sqrt(&mut Binder, &d)?;
        let col = super::shape::reshape(&sd, vec![vars, 1])?;
        let row = super::shape::reshape(&sd, vec![1, vars])?;
        let r = lax::div(&mut Binder, &lax::div(&mut Binder, &cov, &col)?, &row)?;
        lax::max(&mut Binder, &lax::min(&mut Binder, &r, 1.0)?, -1.0)?
    } else {
        cov
    };
    if vars == 1 {
        super::shape::reshape(&out, vec![])
    } else {
        Ok(out)
    }
}
