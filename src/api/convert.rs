//! Element bytes ↔ JS typed arrays, by dtype (jax-js's conventions: bool reads as Int32Array;
//! float16 as Float16Array, or Float32Array where the runtime lacks it).

use js_sys::{ArrayBuffer, Float32Array, Float64Array, Int32Array, Uint32Array, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

use crate::backend::HostBytes;
use crate::core::{f16, DType};
use crate::util::{Error, Result};

/// A typed array of a copy of `bytes`.
pub fn typed_array(function: &str, dtype: DType, bytes: &[u8]) -> Result<JsValue> {
    over_buffer(function, dtype, Uint8Array::from(bytes).buffer())
}

/// A typed array of bytes read back: a JavaScript `ArrayBuffer` becomes the typed array's own
/// buffer (no copy).
pub fn host_typed_array(function: &str, dtype: DType, bytes: HostBytes) -> Result<JsValue> {
    match bytes {
        HostBytes::Heap(v) => typed_array(function, dtype, &v),
        HostBytes::Js(raw) => over_buffer(function, dtype, raw),
    }
}

/// A typed array viewing all of `raw`.
fn over_buffer(function: &str, dtype: DType, raw: ArrayBuffer) -> Result<JsValue> {
    Ok(match dtype {
        DType::Float32 => Float32Array::new(&raw).into(),
        DType::Float64 => Float64Array::new(&raw).into(),
        DType::Int32 | DType::Bool => Int32Array::new(&raw).into(),
        DType::Uint32 => Uint32Array::new(&raw).into(),
        DType::Float16 => float16_array(function, &raw)?,
    })
}

/// float16 elements as a `Float16Array` where the runtime has one (browsers, Deno, Node ≥ 24),
/// else as a `Float32Array` of the same values (exact: every float16 is a float32), since
/// Node 20/22 have no `Float16Array` (jax-js assumes one and fails there).
fn float16_array(function: &str, raw: &ArrayBuffer) -> Result<JsValue> {
    let ctor = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("Float16Array"))
        .ok()
        .filter(JsValue::is_function);
    match ctor {
        Some(ctor) => {
            let args = js_sys::Array::of1(raw);
            js_sys::Reflect::construct(ctor.unchecked_ref::<js_sys::Function>(), &args)
                .map_err(|_| Error::new(function, "could not make a Float16Array"))
        }
        None => {
            let bytes = Uint8Array::new(raw).to_vec();
            let values: Vec<f32> = bytes
                .chunks_exact(2)
                .map(|b| f16::from_bits(u16::from_le_bytes([b[0], b[1]])) as f32)
                .collect();
            Ok(Float32Array::from(&values[..]).into())
        }
    }
}
