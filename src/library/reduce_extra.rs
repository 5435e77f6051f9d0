//! More numpy reductions and statistics as compositions: `ptp`, `countNonzero`, the NaN-
//! ignoring reductions and scans, `average`, `allclose`/`arrayEqual`, `cov`/`corrcoef`, and the
//! two-output `frexp`/`modf`.

use super::call::Params;
use super::emit::{bin, cmp, lit, select, un, v};
use super::reduce::{reduce, ReduceKind as K};
use crate::core::ops::{BinaryOp as B, CompareOp as C, ReduceOp, UnaryOp as U};
use crate::core::{DType, Primitive};
use crate::rules::lax;
use crate::transform::trace::bind;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

fn isnan(x: &Value) -> Result<Value> {
    cmp(C::Ne, v(x), v(x))
}

/// Whether each element is finite. float32 tests the exponent bits (not all ones): the usual
/// `x - x == 0` is folded to `true` by GPU shader compilers once fused into one kernel (WGSL lets
/// them assume finite floats), which made `jit(isfinite)` wrong on webgpu. Other float dtypes
/// keep `x - x == 0`; integers and bools are always finite.
pub fn isfinite(x: &Value) -> Result<Value> {
    let d = x.aval().dtype;
    if d == DType::Float32 {
        let bits = bind(Primitive::Bitcast(DType::Uint32), &[v(x)])?;
        let exponent = bin(B::And, v(&bits), lit(f64::from(0x7f80_0000u32)))?;
        return cmp(C::Ne, v(&exponent), lit(f64::from(0x7f80_0000u32)));
    }
    cmp(C::Eq, v(&bin(B::Sub, v(x), v(x))?), lit(0.0))
}

/// `x` with NaN replaced by `fill` (integers unchanged).
fn fill_nan(x: &Value, fill: f64) -> Result<Value> {
    if !x.aval().dtype.is_float() {
        return Ok(x.clone());
    }
    select(&isnan(x)?, lit(fill), v(x))
}

/// The number of non-NaN elements over `axes`, as `x`'s float dtype.
fn count_valid(x: &Value, axes: Option<&[i64]>, keepdims: bool) -> Result<Value> {
    let ok = un(U::Not, &isnan(x)?)?;
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

/// Parameters: keepdims, correction (nanvar/nanstd), then the axes (count, axes…).
pub fn reduction(name: &str, x: &Value, p: &Params) -> Result<Value> {
    let keepdims = p.flag(0);
    let axes = p.axes(2)?;
    let axes = axes.as_deref();
    match name {
        "ptp" => {
            let hi = reduce(name, K::Max, x, axes, keepdims)?;
            let lo = reduce(name, K::Min, x, axes, keepdims)?;
            bin(B::Sub, v(&hi), v(&lo))
        }
        "countNonzero" => {
            let nz = cmp(C::Ne, v(x), lit(0.0))?;
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
            let none = cmp(C::Eq, v(&count_valid(x, axes, keepdims)?), lit(0.0))?;
            select(&none, lit(f64::NAN), v(&m))
        }
        "nanmean" => {
            let x = super::math::float(&v(x))?;
            let s = reduce(name, K::Sum, &fill_nan(&x, 0.0)?, axes, keepdims)?;
            bin(B::Div, v(&s), v(&count_valid(&x, axes, keepdims)?))
        }
        "nanvar" | "nanstd" => {
            let x = super::math::float(&v(x))?;
            let n = count_valid(&x, axes, true)?;
            let s = reduce(name, K::Sum, &fill_nan(&x, 0.0)?, axes, true)?;
            let mean = bin(B::Div, v(&s), v(&n))?;
            let d = fill_nan(&bin(B::Sub, v(&x), v(&mean))?, 0.0)?;
            let ss = reduce(name, K::Sum, &bin(B::Mul, v(&d), v(&d))?, axes, keepdims)?;
            let n = count_valid(&x, axes, keepdims)?;
            let dof = bin(B::Sub, v(&n), lit(p.num(1, 0.0)))?;
            let var = bin(B::Div, v(&ss), v(&bin(B::Max, v(&dof), lit(0.0))?))?;
            if name == "nanvar" {
                Ok(var)
            } else {
                un(U::Sqrt, &var)
            }
        }
        _ => Err(Error::new(name, "unknown reduction")),
    }
}

/// `nanargmax`/`nanargmin` (NaN never wins) and `nancumsum`/`nancumprod` (NaN counts as the
/// identity) along `axis` (`None`: the flattened array).
pub fn nan_scan(name: &str, x: &Value, axis: Option<i64>) -> Result<Value> {
    use super::indexing::{arg_extreme, cumulative};
    match name {
        "nanargmax" => arg_extreme(name, &fill_nan(x, f64::NEG_INFINITY)?, axis, false, true),
        "nanargmin" => arg_extreme(name, &fill_nan(x, f64::INFINITY)?, axis, false, false),
        "nancumsum" => cumulative(name, ReduceOp::Sum, &fill_nan(x, 0.0)?, axis),
        _ => cumulative(name, ReduceOp::Prod, &fill_nan(x, 1.0)?, axis),
    }
}

/// The weighted mean over the axes of parameter 0 on (count, axes…); weights shaped like `x`,
/// or 1-D along a single axis.
pub fn average(x: &Value, weights: Option<&Value>, p: &Params) -> Result<Value> {
    let axes = p.axes(0)?;
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
        &bin(B::Mul, v(&x), v(&w))?,
        axes.as_deref(),
        false,
    )?;
    let wb = super::shape::broadcast_to(&w, x.aval().shape.clone())?;
    let den = reduce("average", K::Sum, &wb, axes.as_deref(), false)?;
    bin(B::Div, v(&num), v(&den))
}

/// `allclose` (parameters rtol, atol; NaN positions must coincide), `arrayEqual`/`arrayEquiv`
/// (parameter equalNan): one bool scalar.
pub fn compare(name: &str, a: &Value, b: &Value, p: &Params) -> Result<Value> {
    let same = if name == "allclose" {
        let (rtol, atol) = (p.num(0, 1e-5), p.num(1, 1e-7));
        let diff = un(U::Abs, &bin(B::Sub, v(a), v(b))?)?;
        let tol = bin(
            B::Add,
            v(&bin(B::Mul, v(&un(U::Abs, b)?), lit(rtol))?),
            lit(atol),
        )?;
        let close = cmp(C::Le, v(&diff), v(&tol))?;
        let equal = cmp(C::Eq, v(a), v(b))?; // equal infinities
        let both_nan = bin(B::And, v(&isnan(a)?), v(&isnan(b)?))?;
        bin(B::Or, v(&bin(B::Or, v(&close), v(&equal))?), v(&both_nan))?
    } else {
        let equal = cmp(C::Eq, v(a), v(b))?;
        if p.flag(0) {
            let both_nan = bin(B::And, v(&isnan(a)?), v(&isnan(b)?))?;
            bin(B::Or, v(&equal), v(&both_nan))?
        } else {
            equal
        }
    };
    reduce(name, K::All, &same, None, false)
}

/// Covariance of the rows (parameter 0: rowvar, default true; parameter 1: ddof, default 1),
/// or the correlation coefficients for `corrcoef`.
pub fn cov(name: &str, x: &Value, y: Option<&Value>, p: &Params) -> Result<Value> {
    let rows = |a: &Value| -> Result<Value> {
        let a = super::math::float(&v(a))?;
        let s = a.aval().shape.clone();
        match s.len() {
            1 => super::shape::reshape(&a, vec![1, s[0]]),
            2 if p.opt(0).is_none_or(|r| r != 0.0) => Ok(a),
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
    let c = bin(B::Sub, v(&m), v(&mean))?;
    let ct = super::shape::transpose(&c, None)?;
    let prod = super::half::bind_pair(Primitive::Matmul, &c, &ct)?;
    let ddof = p.num(1, 1.0);
    let cov = bin(B::Div, v(&prod), lit(n as f64 - ddof))?;
    let out = if name == "corrcoef" {
        let d = super::stats::diagonal(&cov, 0, 0, 1)?;
        let sd = un(U::Sqrt, &d)?;
        let col = super::shape::reshape(&sd, vec![vars, 1])?;
        let row = super::shape::reshape(&sd, vec![1, vars])?;
        let r = bin(B::Div, v(&bin(B::Div, v(&cov), v(&col))?), v(&row))?;
        bin(B::Max, v(&bin(B::Min, v(&r), lit(1.0))?), lit(-1.0))?
    } else {
        cov
    };
    if vars == 1 {
        super::shape::reshape(&out, vec![])
    } else {
        Ok(out)
    }
}

/// `[mantissa, exponent]` with `x = m · 2^e`, |m| in [0.5, 1) (0, ±∞ and NaN: `[x, 0]`);
/// float32 input (integers are converted). Works on the bits only: GPUs may flush subnormal
/// floats to zero in arithmetic and comparisons (SwiftShader does), so a subnormal's mantissa
/// bits `f` are converted to the (normal, exact) float `f` and `x = ±f · 2^-149`.
pub fn frexp(x: &Value) -> Result<Vec<Value>> {
    let x = super::math::float(&v(x))?;
    if x.aval().dtype != DType::Float32 {
        return Err(Error::new("frexp", "supports float32 arrays only"));
    }
    let u = |c: u32| lit(f64::from(c));
    let bits = bind(Primitive::Bitcast(DType::Uint32), &[v(&x)])?;
    let magnitude = bin(B::And, v(&bits), u(0x7fff_ffff))?;
    let sub = cmp(C::Lt, v(&magnitude), u(0x0080_0000))?;
    let fraction = lax::convert(
        &mut Binder,
        &bin(B::And, v(&bits), u(0x007f_ffff))?,
        DType::Float32,
    )?;
    let fbits = bind(Primitive::Bitcast(DType::Uint32), &[v(&fraction)])?;
    let sign = bin(B::And, v(&bits), u(0x8000_0000))?;
    let src = select(&sub, v(&bin(B::Or, v(&fbits), v(&sign))?), v(&bits))?;
    let biased = bin(B::And, v(&bin(B::Shr, v(&src), lit(23.0))?), lit(255.0))?;
    let e = lax::convert(&mut Binder, &biased, DType::Int32)?;
    let offset = select(&sub, lit(126.0 + 149.0), lit(126.0))?;
    let e = bin(
        B::Sub,
        v(&e),
        v(&lax::convert(&mut Binder, &offset, DType::Int32)?),
    )?;
    let mbits = bin(B::And, v(&src), u(0x807f_ffff))?;
    let mbits = bin(B::Or, v(&mbits), u(126 << 23))?;
    let m = bind(Primitive::Bitcast(DType::Float32), &[v(&mbits)])?;
    let zero = cmp(C::Eq, v(&magnitude), lit(0.0))?;
    let finite = isfinite(&x)?;
    let special = bin(B::Or, v(&zero), v(&un(U::Not, &finite)?))?;
    Ok(vec![
        select(&special, v(&x), v(&m))?,
        select(&special, lit(0.0), v(&e))?,
    ])
}

/// `[fractional part, integral part]`, both with the sign of `x` (±∞: `[0, ±∞]`).
pub fn modf(x: &Value) -> Result<Vec<Value>> {
    let x = super::math::float(&v(x))?;
    let int = super::apply("trunc", &[v(&x)])?;
    let frac = bin(B::Sub, v(&x), v(&int))?;
    let inf = cmp(C::Eq, v(&un(U::Abs, &x)?), lit(f64::INFINITY))?;
    Ok(vec![select(&inf, lit(0.0), v(&frac))?, int])
}
