//! L7: the only `#[wasm_bindgen]` code. Arrays cross the boundary as numeric handles (see
//! `handles`); errors cross as JS `Error`s whose message names the function and the problem.
//! Rust never calls back into user JavaScript.

mod convert;
mod creation;
mod devices;
mod handles;
mod jit;
mod library;
mod nn;
mod ops;
mod panic;
mod random;
mod read_span;
mod reads;
mod scan;
mod shape;
mod stats;
mod trace;
mod vmap;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
fn start() {
    panic::install_hook();
}

/// Where a new array goes: `""` means the default device, uncommitted; a name commits it.
fn placement(function: &str, device: &str) -> crate::util::Result<(crate::core::Device, bool)> {
    if device.is_empty() {
        Ok((crate::backend::registry::default_device(), false))
    } else {
        Ok((crate::core::Device::parse(function, device)?, true))
    }
}

/// Sizes given by JavaScript as numbers: each a non-negative integer within u32.
fn to_shape(function: &str, shape: &[f64]) -> crate::util::Result<Vec<usize>> {
    shape
        .iter()
        .map(|&d| {
            if d.is_finite() && d >= 0.0 && d.fract() == 0.0 && d <= u32::MAX as f64 {
                Ok(d as usize)
            } else {
                let problem = format!("invalid dimension {d} in shape {shape:?}");
                Err(crate::util::Error::new(function, problem))
            }
        })
        .collect()
}

/// An `Error` for JavaScript from an oxjax error.
fn js_error(e: crate::util::Error) -> JsError {
    JsError::new(e.message())
}
