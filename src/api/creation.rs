//! Array creation entry points: `full` (zeros, ones, full), `arange`, `linspace`, `eye`.

use wasm_bindgen::prelude::*;

use super::{handles, js_error};
use crate::core::{DType, Device};
use crate::library::creation;
use crate::transform::{ArrayValue, Value};
use crate::util::{Error, Result};

fn finish(v: Result<ArrayValue>) -> std::result::Result<f64, JsError> {
    v.map(|v| handles::insert(Value::Concrete(v)))
        .map_err(js_error)
}

fn count(function: &str, what: &str, n: f64) -> Result<usize> {
    if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= u32::MAX as f64 {
        Ok(n as usize)
    } else {
        Err(Error::new(
            function,
            format!("{what} must be a non-negative integer, got {n}"),
        ))
    }
}

fn parse(function: &str, dtype: &str, device: &str) -> Result<(DType, Device)> {
    Ok((
        DType::parse(function, dtype)?,
        Device::parse(function, device)?,
    ))
}

#[wasm_bindgen]
pub fn full(
    function: &str,
    shape: Vec<f64>,
    value: f64,
    dtype: &str,
    device: &str,
) -> std::result::Result<f64, JsError> {
    finish((|| {
        let shape = shape
            .iter()
            .map(|&d| count(function, "each dimension", d))
            .collect::<Result<_>>()?;
        let (dtype, device) = parse(function, dtype, device)?;
        creation::full(function, shape, value, dtype, device)
    })())
}

#[wasm_bindgen]
pub fn arange(
    start: f64,
    stop: f64,
    step: f64,
    dtype: &str,
    device: &str,
) -> std::result::Result<f64, JsError> {
    finish((|| {
        let (dtype, device) = parse("arange", dtype, device)?;
        creation::arange(start, stop, step, dtype, device)
    })())
}

#[wasm_bindgen]
pub fn linspace(
    start: f64,
    stop: f64,
    num: f64,
    endpoint: bool,
    dtype: &str,
    device: &str,
) -> std::result::Result<f64, JsError> {
    finish((|| {
        let num = count("linspace", "num", num)?;
        let (dtype, device) = parse("linspace", dtype, device)?;
        creation::linspace(start, stop, num, endpoint, dtype, device)
    })())
}

#[wasm_bindgen]
pub fn eye(n: f64, m: f64, k: f64, dtype: &str, device: &str) -> std::result::Result<f64, JsError> {
    finish((|| {
        let (n, m) = (count("eye", "N", n)?, count("eye", "M", m)?);
        if !k.is_finite() || k.fract() != 0.0 {
            return Err(Error::new("eye", format!("k must be an integer, got {k}")));
        }
        let (dtype, device) = parse("eye", dtype, device)?;
        creation::eye(n, m, k as i64, dtype, device)
    })())
}
