//! `nn`: activations and normalisers as compositions of primitives (JAX's formulas, so values
//! agree with `jax.nn`), with axis parameters resolved here.

use super::emit::{bin, cmp, lit, select, un, v};
use super::reduce::{reduce, ReduceKind};
use crate::core::ops::{BinaryOp as B, CompareOp as C, UnaryOp as U};
use crate::core::{DType, Primitive};
use crate::rules::lax;
use crate::transform::trace::bind;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

fn float(name: &str, x: &Value) -> Result<Value> {
    match x.aval().dtype {
        d if d.is_float() => Ok(x.clone()),
        DType::Bool | DType::Int32 | DType::Uint32 => {
            bind(Primitive::Cast(DType::Float32), &[v(x)])
        }
        d => Err(Error::new(name, format!("unsupported dtype {}", d.name()))),
    }
}

fn sigmoid(x: &Value) -> Result<Value> {
    let e = un(U::Exp, &un(U::Neg, x)?)?;
    bin(B::Div, lit(1.0), v(&bin(B::Add, lit(1.0), v(&e))?))
}

/// `max(x, 0) + log1p(exp(-|x|))`, stable for large |x|.
fn softplus(x: &Value) -> Result<Value> {
    let relu = bin(B::Max, v(x), lit(0.0))?;
    let e = un(U::Exp, &un(U::Neg, &un(U::Abs, x)?)?)?;
    let l = un(U::Log, &bin(B::Add, lit(1.0), v(&e))?)?;
    bin(B::Add, v(&relu), v(&l))
}

/// Elementwise activations; `a` is the parameter of those that take one.
pub fn activation(name: &str, x: &Value, a: f64) -> Result<Value> {
    let x = float(name, x)?;
    match name {
        "relu" => bin(B::Max, v(&x), lit(0.0)),
        "relu6" => bin(B::Min, v(&bin(B::Max, v(&x), lit(0.0))?), lit(6.0)),
        "sigmoid" => sigmoid(&x),
        "softplus" => softplus(&x),
        "logSigmoid" => un(U::Neg, &softplus(&un(U::Neg, &x)?)?),
        "silu" | "swish" => bin(B::Mul, v(&x), v(&sigmoid(&x)?)),
        "softSign" => {
            let d = bin(B::Add, v(&un(U::Abs, &x)?), lit(1.0))?;
            bin(B::Div, v(&x), v(&d))
        }
        "leakyRelu" => {
            let pos = cmp(C::Le, lit(0.0), v(&x))?;
            select(&pos, v(&x), v(&bin(B::Mul, v(&x), lit(a))?))
        }
        "elu" => {
            let pos = cmp(C::Lt, lit(0.0), v(&x))?;
            let em1 = bin(B::Sub, v(&un(U::Exp, &x)?), lit(1.0))?;
            select(&pos, v(&x), v(&bin(B::Mul, v(&em1), lit(a))?))
        }
        "gelu" if a != 0.0 => {
            // tanh approximation: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
            let x3 = bin(B::Mul, v(&bin(B::Mul, v(&x), v(&x))?), v(&x))?;
            let inner = bin(B::Add, v(&x), v(&bin(B::Mul, v(&x3), lit(0.044715))?))?;
            let t = un(
                U::Tanh,
                &bin(B::Mul, v(&inner), lit((2.0 / std::f64::consts::PI).sqrt()))?,
            )?;
            let half = bin(B::Mul, v(&x), lit(0.5))?;
            bin(B::Mul, v(&half), v(&bin(B::Add, v(&t), lit(1.0))?))
        }
        "gelu" => {
            let e = un(
                U::Erf,
                &bin(B::Mul, v(&x), lit(std::f64::consts::FRAC_1_SQRT_2))?,
            )?;
            let half = bin(B::Mul, v(&x), lit(0.5))?;
            bin(B::Mul, v(&half), v(&bin(B::Add, v(&e), lit(1.0))?))
        }
        other => super::nn_extra::activation(other, &x, a),
    }
}

/// `log(sum(exp(x)))` over `axes`, shifted by the (finite) maximum for stability.
pub fn logsumexp(x: &Value, axes: Option<&[i64]>, keepdims: bool) -> Result<Value> {
    let x = float("logsumexp", x)?;
    let m = reduce("logsumexp", ReduceKind::Max, &x, axes, true)?;
    let finite = cmp(C::Eq, v(&bin(B::Sub, v(&m), v(&m))?), lit(0.0))?;
    let m = bind(
        Primitive::StopGradient,
        &[v(&select(&finite, v(&m), lit(0.0))?)],
    )?;
    let e = un(U::Exp, &bin(B::Sub, v(&x), v(&m))?)?;
    let s = reduce("logsumexp", ReduceKind::Sum, &e, axes, keepdims)?;
    let m = if keepdims {
        m
    } else {
        reduce("logsumexp", ReduceKind::Max, &m, axes, false)?
    };
    bin(B::Add, v(&un(U::Log, &s)?), v(&m))
}

/// softmax (or its log) along `axes`.
pub fn softmax(x: &Value, axes: &[i64], log: bool) -> Result<Value> {
    let x = float("softmax", x)?;
    let m = reduce("softmax", ReduceKind::Max, &x, Some(axes), true)?;
    let m = bind(Primitive::StopGradient, &[v(&m)])?;
    let shifted = bin(B::Sub, v(&x), v(&m))?;
    let e = un(U::Exp, &shifted)?;
    let s = reduce("softmax", ReduceKind::Sum, &e, Some(axes), true)?;
    if log {
        bin(B::Sub, v(&shifted), v(&un(U::Log, &s)?))
    } else {
        bin(B::Div, v(&e), v(&s))
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
    let xi = bind(Primitive::Cast(DType::Int32), &[v(x)])?;
    let xb = bind(Primitive::Broadcast { shape, axes }, &[v(&xi)])?;
    let eq = cmp(C::Eq, v(&xb), v(&classes))?;
    bind(Primitive::Cast(DType::Float32), &[v(&eq)])
}
