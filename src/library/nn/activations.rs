//! The hard and sparse activations, mish, selu, celu, squareplus and log1mexp as compositions
//! of primitives with `jax.nn`'s formulas (`nn::activation` dispatches the rest here).

use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

fn relu6(x: &Value) -> Result<Value> {
    lax::min(&mut Binder, &lax::max(&mut Binder, x, 0.0)?, 6.0)
}

fn hard_sigmoid(x: &Value) -> Result<Value> {
    lax::div(&mut Binder, &relu6(&lax::add(&mut Binder, x, 3.0)?)?, 6.0)
}

fn expm1(x: &Value) -> Result<Value> {
    lax::sub(&mut Binder, &lax::exp(&mut Binder, x)?, 1.0)
}

/// The activations of this file (`x` already float); `a` is the parameter of those with one.
pub fn activation(name: &str, x: &Value, a: f64) -> Result<Value> {
    match name {
        "hardSigmoid" => hard_sigmoid(x),
        "hardSilu" | "hardSwish" => lax::mul(&mut Binder, x, &hard_sigmoid(x)?),
        "hardTanh" => lax::max(&mut Binder, &lax::min(&mut Binder, x, 1.0)?, -1.0),
        "mish" => lax::mul(
            &mut Binder,
            x,
            &lax::tanh(&mut Binder, &crate::library::nn::softplus(x)?)?,
        ),
        "selu" => {
            const ALPHA: f64 = 1.673_263_242_354_377_3;
            const SCALE: f64 = 1.050_700_987_355_480_5;
            let pos = lax::lt(&mut Binder, 0.0, x)?;
            let neg = lax::mul(&mut Binder, &expm1(x)?, ALPHA)?;
            lax::mul(
                &mut Binder,
                &lax::select(&mut Binder, &pos, x, &neg)?,
                SCALE,
            )
        }
        "celu" => {
            let low = lax::div(&mut Binder, &lax::min(&mut Binder, x, 0.0)?, a)?;
            let neg = lax::mul(&mut Binder, &expm1(&low)?, a)?;
            lax::add(&mut Binder, &lax::max(&mut Binder, x, 0.0)?, &neg)
        }
        "squareplus" => {
            let x2 = lax::mul(&mut Binder, x, x)?;
            let r = lax::sqrt(&mut Binder, &lax::add(&mut Binder, &x2, a)?)?;
            lax::div(&mut Binder, &lax::add(&mut Binder, x, &r)?, 2.0)
        }
        "sparsePlus" => {
            let x1 = lax::add(&mut Binder, x, 1.0)?;
            let quad = lax::div(&mut Binder, &lax::mul(&mut Binder, &x1, &x1)?, 4.0)?;
            let high = lax::le(&mut Binder, 1.0, x)?;
            let mid = lax::select(&mut Binder, &high, x, &quad)?;
            lax::select(&mut Binder, &lax::le(&mut Binder, x, -1.0)?, 0.0, &mid)
        }
        "sparseSigmoid" => {
            let c = lax::min(&mut Binder, &lax::max(&mut Binder, x, -1.0)?, 1.0)?;
            lax::mul(&mut Binder, &lax::add(&mut Binder, &c, 1.0)?, 0.5)
        }
        "log1mexp" => {
            // log(1 − exp(−x)): log(−expm1(−x)) below ln 2, log1p(−exp(−x)) above.
            let e = lax::exp(&mut Binder, &lax::neg(&mut Binder, x)?)?;
            let small = lax::log(&mut Binder, &lax::sub(&mut Binder, 1.0, &e)?)?;
            let nx = lax::neg(&mut Binder, x)?;
            let near = lax::log(&mut Binder, &lax::neg(&mut Binder, &expm1(&nx)?)?)?;
            let below = lax::lt(&mut Binder, x, std::f64::consts::LN_2)?;
            lax::select(&mut Binder, &below, &near, &small)
        }
        other => Err(Error::new(other, "unknown activation")),
    }
}
