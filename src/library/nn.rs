//! `nn`: activations and normalisers as compositions of primitives (JAX's formulas, so values
//! agree with `jax.nn`), with axis parameters resolved here.

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
        other => super::nn_extra::activation(other, &x, a),
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
