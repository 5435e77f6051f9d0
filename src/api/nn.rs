//! `nn` entry points: activations, logsumexp, softmax/logSoftmax, oneHot.

use wasm_bindgen::prelude::*;

use super::{handles, js_error};
use crate::library::nn;
use crate::transform::eager_jit;
use crate::util::{Error, Result};

type JsResult<T> = std::result::Result<T, JsError>;

/// An elementwise activation by name; `a` is its parameter (slope, alpha, approximate).
#[wasm_bindgen]
pub fn activation(name: &str, h: f64, a: f64) -> JsResult<f64> {
    let run = || -> Result<f64> {
        let x = [handles::get(name, h)?];
        // A cached compiled program from the second call of this aval (`eager_jit`).
        let mut outs = eager_jit::run(name, &[a], &x, |x| {
            Ok(vec![nn::activation(name, &x[0], a)?])
        })?;
        let y = outs
            .pop()
            .ok_or_else(|| Error::new(name, "internal error: no result"))?;
        Ok(handles::insert(y))
    };
    run().map_err(js_error)
}

/// `logsumexp` (kind "logsumexp"), `softmax` or `logSoftmax` over `axes`.
#[wasm_bindgen(js_name = nnReduce)]
pub fn nn_reduce(kind: &str, h: f64, axes: Option<Vec<i32>>, keepdims: bool) -> JsResult<f64> {
    let run = || -> Result<f64> {
        let x = handles::get(kind, h)?;
        let axes: Option<Vec<i64>> = axes.map(|a| a.into_iter().map(i64::from).collect());
        let out = match kind {
            "logsumexp" => nn::logsumexp(&x, axes.as_deref(), keepdims)?,
            "softmax" | "logSoftmax" => {
                let axes = axes.unwrap_or_else(|| vec![-1]);
                nn::softmax(&x, &axes, kind == "logSoftmax")?
            }
            other => return Err(Error::new(other, "unknown nn reduction")),
        };
        Ok(handles::insert(out))
    };
    run().map_err(js_error)
}

#[wasm_bindgen(js_name = oneHot)]
pub fn one_hot(h: f64, num: f64) -> JsResult<f64> {
    let run = || -> Result<f64> {
        if !(num.is_finite() && num >= 0.0 && num.fract() == 0.0) {
            return Err(Error::new(
                "oneHot",
                format!("numClasses must be a non-negative integer, got {num}"),
            ));
        }
        let x = [handles::get("oneHot", h)?];
        // One fused kernel from the second call of this aval and class count (`eager_jit`).
        let mut outs = crate::transform::scope::follow(&x, || {
            eager_jit::run("oneHot", &[num], &x, |x| {
                Ok(vec![nn::one_hot(&x[0], num as usize)?])
            })
        })?;
        let y = outs
            .pop()
            .ok_or_else(|| Error::new("oneHot", "internal error: no result"))?;
        Ok(handles::insert(y))
    };
    run().map_err(js_error)
}
