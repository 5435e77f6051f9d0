//! More `nn` functions as compositions of primitives with `jax.nn`'s formulas: hard and sparse
//! activations, mish, selu, celu, squareplus, log1mexp, glu, logmeanexp, standardize.

use super::emit::{bin, cmp, lit, select, un, v};
use super::reduce::{reduce, ReduceKind};
use crate::core::ops::{BinaryOp as B, CompareOp as C, UnaryOp as U};
use crate::core::Primitive;
use crate::transform::trace::bind;
use crate::transform::Value;
use crate::util::{Error, Result};

fn relu6(x: &Value) -> Result<Value> {
    bin(B::Min, v(&bin(B::Max, v(x), lit(0.0))?), lit(6.0))
}

fn hard_sigmoid(x: &Value) -> Result<Value> {
    bin(B::Div, v(&relu6(&bin(B::Add, v(x), lit(3.0))?)?), lit(6.0))
}

fn expm1(x: &Value) -> Result<Value> {
    bin(B::Sub, v(&un(U::Exp, x)?), lit(1.0))
}

/// `max(x, 0) + log1p(exp(-|x|))`.
fn softplus(x: &Value) -> Result<Value> {
    let relu = bin(B::Max, v(x), lit(0.0))?;
    let e = un(U::Exp, &un(U::Neg, &un(U::Abs, x)?)?)?;
    bin(
        B::Add,
        v(&relu),
        v(&un(U::Log, &bin(B::Add, lit(1.0), v(&e))?)?),
    )
}

/// The activations of this file (`x` already float); `a` is the parameter of those with one.
pub fn activation(name: &str, x: &Value, a: f64) -> Result<Value> {
    match name {
        "hardSigmoid" => hard_sigmoid(x),
        "hardSilu" | "hardSwish" => bin(B::Mul, v(x), v(&hard_sigmoid(x)?)),
        "hardTanh" => bin(B::Max, v(&bin(B::Min, v(x), lit(1.0))?), lit(-1.0)),
        "mish" => bin(B::Mul, v(x), v(&un(U::Tanh, &softplus(x)?)?)),
        "selu" => {
            const ALPHA: f64 = 1.673_263_242_354_377_3;
            const SCALE: f64 = 1.050_700_987_355_480_5;
            let pos = cmp(C::Lt, lit(0.0), v(x))?;
            let neg = bin(B::Mul, v(&expm1(x)?), lit(ALPHA))?;
            bin(B::Mul, v(&select(&pos, v(x), v(&neg))?), lit(SCALE))
        }
        "celu" => {
            let low = bin(B::Div, v(&bin(B::Min, v(x), lit(0.0))?), lit(a))?;
            let neg = bin(B::Mul, v(&expm1(&low)?), lit(a))?;
            bin(B::Add, v(&bin(B::Max, v(x), lit(0.0))?), v(&neg))
        }
        "squareplus" => {
            let x2 = bin(B::Mul, v(x), v(x))?;
            let r = un(U::Sqrt, &bin(B::Add, v(&x2), lit(a))?)?;
            bin(B::Div, v(&bin(B::Add, v(x), v(&r))?), lit(2.0))
        }
        "sparsePlus" => {
            let x1 = bin(B::Add, v(x), lit(1.0))?;
            let quad = bin(B::Div, v(&bin(B::Mul, v(&x1), v(&x1))?), lit(4.0))?;
            let high = cmp(C::Le, lit(1.0), v(x))?;
            let mid = select(&high, v(x), v(&quad))?;
            select(&cmp(C::Le, v(x), lit(-1.0))?, lit(0.0), v(&mid))
        }
        "sparseSigmoid" => {
            let c = bin(B::Min, v(&bin(B::Max, v(x), lit(-1.0))?), lit(1.0))?;
            bin(B::Mul, v(&bin(B::Add, v(&c), lit(1.0))?), lit(0.5))
        }
        "log1mexp" => {
            // log(1 − exp(−x)): log(−expm1(−x)) below ln 2, log1p(−exp(−x)) above.
            let e = un(U::Exp, &un(U::Neg, x)?)?;
            let small = un(U::Log, &bin(B::Sub, lit(1.0), v(&e))?)?;
            let nx = un(U::Neg, x)?;
            let near = un(U::Log, &un(U::Neg, &expm1(&nx)?)?)?;
            let below = cmp(C::Lt, v(x), lit(std::f64::consts::LN_2))?;
            select(&below, v(&near), v(&small))
        }
        other => Err(Error::new(other, "unknown activation")),
    }
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
    let e = un(U::Exp, &un(U::Neg, &parts[1])?)?;
    let s = bin(B::Div, lit(1.0), v(&bin(B::Add, lit(1.0), v(&e))?))?;
    bin(B::Mul, v(&parts[0]), v(&s))
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
    bin(B::Sub, v(&lse), lit(count.ln()))
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
            let x2 = bin(B::Mul, v(&x), v(&x))?;
            let ex2 = reduce("standardize", ReduceKind::Mean, &x2, Some(axes), true)?;
            let d = bin(B::Sub, v(&ex2), v(&bin(B::Mul, v(&m), v(&m))?))?;
            bin(B::Max, v(&d), lit(0.0))?
        }
    };
    let inv = bind(
        Primitive::Unary(U::Sqrt),
        &[v(&bin(B::Add, v(&var), lit(epsilon))?)],
    )?;
    bin(B::Div, v(&bin(B::Sub, v(&x), v(&m))?), v(&inv))
}
