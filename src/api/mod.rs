//! L6: the only `#[wasm_bindgen]` code. Arrays cross the boundary as numeric handles (see
//! `handles`); errors cross as JS `Error`s whose message names the function and the problem.
//! Rust never calls back into user JavaScript.

mod convert;
mod creation;
mod devices;
mod handles;
mod nn;
mod ops;
mod panic;
mod random;
mod shape;
mod stats;
mod trace;

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

/// An `Error` for JavaScript from an oxjax error.
fn js_error(e: crate::util::Error) -> JsError {
    JsError::new(e.message())
}
