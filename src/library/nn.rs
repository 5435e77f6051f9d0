//! `nn`: activations (the rest in `nn/activations.rs`) and the functions over axes —
//! logsumexp, softmax, glu, logmeanexp, standardize, oneHot — as compositions of primitives
//! (JAX's formulas, so values agree with `jax.nn`), with axis parameters resolved here;
//! attention in `nn/attention.rs`.

mod activations;
pub(super) mod attention;

use super::emit::v;
use super::reduce::{reduce, ReduceKind};
use crate::core::ops::UnaryOp as U;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

fn float(name: &str, x: &Value) -> Result<Value> {
    match x.aval().dtype {
        d if d.is_float() => Ok(x.clone()),
        DType::Bool | DType::Int32 | DType::Uint32 => lax::cast(&mut Binder, x, DType::Float32),
        d => Err(Error::new(name, format!("unsupported dtype {}", d.name()))),
    }
}

fn sigmoid(x: &Value) -> Result<Value> {
    let e = lax::exp(&mut Binder, &lax::neg(&mut Binder, x)?)?;
    lax::div(&mut Binder, 1.0, &lax::add(&mut Binder, 1.0, &e)?)
}

/// `max(x, 0) + log1p(exp(-|x|))`, stable for large |x|.
pub(super) fn softplus(x: &Value) -> Result<Value> {
    let relu = lax::max(&mut Binder, x, 0.0)?;
    let e = lax::exp(
        &mut Binder,
        &lax::neg(&mut Binder, &lax::abs(&mut Binder, x)?)?,
    )?;
    let l = lax::log(&mut Binder, &lax::add(&mut Binder, 1.0, &e)?)?;
    lax::add(&mut Binder, &relu, &l)
}

/// Elementwise activations; `a` is the parameter of those that take one.
pub fn activation(name: &str, x: &Value, a: f64) -> Result<Value> {
    let x = float(name, x)?;
    match name {
        "relu" => lax::max(&mut Binder, &x, 0.0),
        "relu6" => lax::min(&mut Binder, &lax::max(&mut Binder, &x, 0.0)?, 6.0),
        "sigmoid" => sigmoid(&x),
        "softplus" => softplus(&x),
        "logSigmoid" => lax::neg(&mut Binder, &softplus(&lax::neg(&mut Binder, &x)?)?),
        "silu" | "swish" => lax::mul(&mut Binder, &x, &sigmoid(&x)?),
        "softSign" => {
            let d = lax::add(&mut Binder, &lax::abs(&mut Binder, &x)?, 1.0)?;
            lax::div(&mut Binder, &x, &d)
        }
        "leakyRelu" => {
            let pos = lax::le(&mut Binder, 0.0, &x)?;
            lax::select(&mut Binder, &pos, &x, &lax::mul(&mut Binder, &x, a)?)
        }
        "elu" => {
            let pos = lax::lt(&mut Binder, 0.0, &x)?;
            let em1 = lax::sub(&mut Binder, &lax::exp(&mut Binder, &x)?, 1.0)?;
            lax::select(&mut Binder, &pos, &x, &lax::mul(&mut Binder, &em1, a)?)
        }
        "gelu" if a != 0.0 => {
            // tanh approximation: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
            let x3 = lax::mul(&mut Binder, &lax::mul(&mut Binder, &x, &x)?, &x)?;
            let inner = lax::add(&mut Binder, &x, &lax::mul(&mut Binder, &x3, 0.044715)?)?;
            let t = lax::tanh(
                &mut Binder,
                &lax::mul(&mut Binder, &inner, (2.0 / std::f64::consts::PI).sqrt())?,
            )?;
            let half = lax::mul(&mut Binder, &x, 0.5)?;
            lax::mul(&mut Binder, &half, &lax::add(&mut Binder, &t, 1.0)?)
        }
        "gelu" => {
            let e = lax::unary(
                &mut Binder,
                U::Erf,
                &lax::mul(&mut Binder, &x, std::f64::consts::FRAC_1_SQRT_2)?,
            )?;
            let half = lax::mul(&mut Binder, &x, 0.5)?;
            lax::mul(&mut Binder, &half, &lax::add(&mut Binder, &e, 1.0)?)
        }
        other => activations::activation(other, &x, a),
    }
}

/// `log(sum(exp(x)))` over `axes`, shifted by the (finite) maximum for stability.
pub fn logsumexp(x: &Value, axes: Option<&[i64]>, keepdims: bool) -> Result<Value> {
    let x = float("logsumexp", x)?;
    let m = reduce("logsumexp", ReduceKind::Max, &x, axes, true)?;
    let finite = lax::eq(&mut Binder, &lax::sub(&mut Binder, &m, &m)?, 0.0)?;
    let m = lax::stop_gradient(&mut Binder, &lax::select(&mut Binder, &finite, &m, 0.0)?)?;
    let e = lax::exp(&mut Binder, &lax::sub(&mut Binder, &x, &m)?)?;
    let s = reduce("logsumexp", ReduceKind::Sum, &e, axes, keepdims)?;
    let m = if keepdims {
        m
    } else {
        reduce("logsumexp", ReduceKind::Max, &m, axes, false)?
    };
    lax::add(&mut Binder, &lax::log(&mut Binder, &s)?, &m)
}

/// softmax (or its log) along `axes`.
pub fn softmax(x: &Value, axes: &[i64], log: bool) -> Result<Value> {
    let x = float("softmax", x)?;
    let m = reduce("softmax", ReduceKind::Max, &x, Some(axes), true)?;
    let m = lax::stop_gradient(&mut Binder, &m)?;
    let shifted = lax::sub(&mut Binder, &x, &m)?;
    let e = lax::exp(&mut Binder, &shifted)?;
    let s = reduce("softmax", ReduceKind::Sum, &e, Some(axes), true)?;
    if log {
        lax::sub(&mut Binder, &shifted, &lax::log(&mut Binder, &s)?)
    } else {
        lax::div(&mut Binder, &e, &s)
    }
}

/// One-hot float32 encoding of integer `x` with `num` classes along a new last axis.
pub fn one_hot(x: &Value, num: usize) -> Result<Value> {
    if x.aval().dtype.is_float() || x.aval().dtype == DType::Bool {
        return Err(Error::new("oneHot", "expects integer class indices"));
    }
    let mut shape = x.aval().shape.clone();
    let rank = shape.len();
    shape.push(num);
    let classes = lax::iota_i32(&mut Binder, shape.clone(), rank)?;
    let axes = (0..rank).collect();
    let xi = lax::cast(&mut Binder, x, DType::Int32)?;
    let xb = lax::broadcast(&mut Binder, &xi, shape, axes)?;
    let eq = lax::eq(&mut Binder, &xb, &classes)?;
    lax::cast(&mut Binder, &eq, DType::Float32)
}

/// `x1 · sigmoid(x2)` for the two halves of `axis`.
pub fn glu(x: &Value, axis: i64) -> Result<Value> {
    let rank = x.aval().shape.len();
    let ax = super::shape::normalize_axis("glu", axis, rank)?;
    let n = x.aval().shape[ax];
    if !n.is_multiple_of(2) {
        return Err(Error::new(
            "glu",
            format!("axis {axis} has odd length {n}; it must split in two"),
        ));
    }
    let parts = super::shape::split(x, Some(2), &[], ax as i64)?;
    let e = lax::exp(&mut Binder, &lax::neg(&mut Binder, &parts[1])?)?;
    let s = lax::div(&mut Binder, 1.0, &lax::add(&mut Binder, 1.0, &e)?)?;
    lax::mul(&mut Binder, &parts[0], &s)
}

/// `logsumexp − log(count)` over `axes`.
pub fn logmeanexp(x: &Value, axes: Option<&[i64]>, keepdims: bool) -> Result<Value> {
    let lse = super::nn::logsumexp(x, axes, keepdims)?;
    let total: usize = x.aval().shape.iter().product();
    let kept: usize = lse.aval().shape.iter().product();
    let count = if keepdims || axes.is_some() {
        total as f64 / kept.max(1) as f64
    } else {
        total as f64
    };
    lax::sub(&mut Binder, &lse, count.ln())
}

/// `(x − mean)/√(var + ε)` over `axes`, with `var = E[x²] − E[x]²` clipped at 0 (jax.nn's
/// "fast" algorithm). `mean`/`variance` replace the computed ones when given.
pub fn standardize(
    x: &Value,
    axes: &[i64],
    mean: Option<&Value>,
    variance: Option<&Value>,
    epsilon: f64,
) -> Result<Value> {
    let x = super::math::float(&v(x))?;
    let m = match mean {
        Some(m) => m.clone(),
        None => reduce("standardize", ReduceKind::Mean, &x, Some(axes), true)?,
    };
    let var = match variance {
        Some(s) => s.clone(),
        None => {
            let x2 = lax::mul(&mut Binder, &x, &x)?;
            let ex2 = reduce("standardize", ReduceKind::Mean, &x2, Some(axes), true)?;
            let d = lax::sub(&mut Binder, &ex2, &lax::mul(&mut Binder, &m, &m)?)?;
            lax::max(&mut Binder, &d, 0.0)?
        }
    };
    let inv = lax::sqrt(&mut Binder, &lax::add(&mut Binder, &var, epsilon)?)?;
    lax::div(&mut Binder, &lax::sub(&mut Binder, &x, &m)?, &inv)
}
