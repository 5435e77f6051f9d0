//! Array creation entry points: `full` (zeros, ones, full), `fullLike` (the `*Like` functions
//! without overrides), `arange`, `linspace`, `eye`.
//! An empty device name means the default device, uncommitted (see `ArrayValue::committed`).

use wasm_bindgen::prelude::*;

use super::{handles, js_error, placement};
use crate::core::{DType, Device};
use crate::library::creation;
use crate::transform::{ArrayValue, Value};
use crate::util::{Error, Result};

/// Parses the dtype and placement, makes the array, and stores it.
fn create(
    function: &str,
    dtype: &str,
    device: &str,
    make: impl FnOnce(DType, Device) -> Result<ArrayValue>,
) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let (device, committed) = placement(function, device)?;
        let mut v = make(DType::parse(function, dtype)?, device)?;
        v.committed = committed;
        Ok(handles::insert(Value::Concrete(v)))
    };
    run().map_err(js_error)
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

#[wasm_bindgen]
pub fn full(
    function: &str,
    shape: Vec<f64>,
    value: f64,
    dtype: &str,
    device: &str,
) -> std::result::Result<f64, JsError> {
    create(function, dtype, device, |dtype, device| {
        let shape = shape.iter().map(|&d| count(function, "each dimension", d));
        creation::full(
            function,
            shape.collect::<Result<_>>()?,
            value,
            dtype,
            device,
        )
    })
}

/// `zerosLike`/`onesLike`/`fullLike` without overrides: an array of `x`'s shape and dtype
/// filled with `value`, committed to `x`'s device (a tracer's: its trace's, else the default),
/// in one call.
#[wasm_bindgen(js_name = fullLike)]
pub fn full_like(function: &str, x: f64, value: f64) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let x = handles::get(function, x)?;
        let device = match &x {
            Value::Concrete(c) => c.device,
            Value::Tracer(t) => crate::transform::trace::device(t.frame)
                .unwrap_or_else(crate::backend::registry::default_device),
        };
        let aval = x.aval();
        let mut v = creation::full(function, aval.shape.clone(), value, aval.dtype, device)?;
        v.committed = true;
        Ok(handles::insert(Value::Concrete(v)))
    };
    run().map_err(js_error)
}

#[wasm_bindgen]
pub fn arange(
    start: f64,
    stop: f64,
    step: f64,
    dtype: &str,
    device: &str,
) -> std::result::Result<f64, JsError> {
    create("arange", dtype, device, |dtype, device| {
        creation::arange(start, stop, step, dtype, device)
    })
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
    create("linspace", dtype, device, |dtype, device| {
        let num = count("linspace", "num", num)?;
        creation::linspace(start, stop, num, endpoint, dtype, device)
    })
}

#[wasm_bindgen]
pub fn eye(n: f64, m: f64, k: f64, dtype: &str, device: &str) -> std::result::Result<f64, JsError> {
    create("eye", dtype, device, |dtype, device| {
        let (n, m) = (count("eye", "N", n)?, count("eye", "M", m)?);
        if !k.is_finite() || k.fract() != 0.0 {
            return Err(Error::new("eye", format!("k must be an integer, got {k}")));
        }
        creation::eye(n, m, k as i64, dtype, device)
    })
}

/// An array of `shape` from JS numbers, converted once to `dtype` (as NumPy does; how
/// `array(…, { dtype: float16 })` rounds where the runtime has no `Float16Array`).
#[wasm_bindgen(js_name = arrayFromNumbers)]
pub fn array_from_numbers(
    function: &str,
    values: &[f64],
    shape: &[f64],
    dtype: &str,
    device: &str,
) -> std::result::Result<f64, JsError> {
    create(function, dtype, device, |dtype, device| {
        let shape = super::to_shape(function, shape)?;
        let bytes = creation::encode(dtype, values.iter().copied());
        ArrayValue::from_bytes(function, &bytes, shape, dtype, device)
    })
}
