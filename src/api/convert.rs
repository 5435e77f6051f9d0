//! Element bytes ↔ JS typed arrays, by dtype (jax-js's conventions: bool reads as Int32Array).

use js_sys::{Float32Array, Float64Array, Int32Array, Uint32Array, Uint8Array};
use wasm_bindgen::JsValue;

use crate::core::DType;
use crate::util::{Error, Result};

pub fn typed_array(function: &str, dtype: DType, bytes: &[u8]) -> Result<JsValue> {
    let raw = Uint8Array::from(bytes).buffer();
    Ok(match dtype {
        DType::Float32 => Float32Array::new(&raw).into(),
        DType::Float64 => Float64Array::new(&raw).into(),
        DType::Int32 | DType::Bool => Int32Array::new(&raw).into(),
        DType::Uint32 => Uint32Array::new(&raw).into(),
        DType::Float16 => {
            return Err(Error::new(
                function,
                "reading float16 arrays is not supported yet",
            ))
        }
    })
}
