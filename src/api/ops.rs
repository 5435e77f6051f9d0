//! Array creation, operations, readback and ownership, by handle.

use wasm_bindgen::prelude::*;

use super::{convert, handles, js_error};
use crate::core::{DType, Device, Primitive};
use crate::transform::trace::{self, Operand};
use crate::transform::{ArrayValue, Value};
use crate::util::{Error, Result};

fn to_shape(function: &str, shape: &[f64]) -> Result<Vec<usize>> {
    shape
        .iter()
        .map(|&d| {
            if d.is_finite() && d >= 0.0 && d.fract() == 0.0 && d <= u32::MAX as f64 {
                Ok(d as usize)
            } else {
                Err(Error::new(
                    function,
                    format!("invalid dimension {d} in shape {shape:?}"),
                ))
            }
        })
        .collect()
}

/// A new array from little-endian element bytes.
#[wasm_bindgen(js_name = arrayFromBytes)]
pub fn array_from_bytes(
    function: &str,
    bytes: &[u8],
    shape: &[f64],
    dtype: &str,
    device: &str,
) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let shape = to_shape(function, shape)?;
        let dtype = DType::parse(function, dtype)?;
        let device = Device::parse(function, device)?;
        let v = ArrayValue::from_bytes(function, bytes, shape, dtype, device)?;
        Ok(handles::insert(Value::Concrete(v)))
    };
    run().map_err(js_error)
}

/// A weakly typed 0-d array from a JS number.
#[wasm_bindgen(js_name = weakScalar)]
pub fn weak_scalar(value: f64, dtype: &str, device: &str) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let dtype = DType::parse("scalar", dtype)?;
        let device = Device::parse("scalar", device)?;
        let v = ArrayValue::weak_scalar("scalar", value, dtype, device)?;
        Ok(handles::insert(Value::Concrete(v)))
    };
    run().map_err(js_error)
}

fn primitive(name: &str) -> Result<Primitive> {
    match name {
        "add" => Ok(Primitive::Add),
        "mul" => Ok(Primitive::Mul),
        other => Err(Error::new(other, "unknown operation")),
    }
}

/// Applies a binary primitive; the operands are not consumed.
#[wasm_bindgen]
pub fn binary(op: &str, a: f64, b: f64) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let prim = primitive(op)?;
        let (a, b) = (handles::get(op, a)?, handles::get(op, b)?);
        let out = trace::bind(prim, &[Operand::Value(&a), Operand::Value(&b)])?;
        Ok(handles::insert(out))
    };
    run().map_err(js_error)
}

/// Applies a binary primitive to an array and a JS number (weakly typed: it takes the array's
/// dtype and device). `scalar_first` puts the number on the left.
#[wasm_bindgen(js_name = binaryScalar)]
pub fn binary_scalar(
    op: &str,
    a: f64,
    value: f64,
    scalar_first: bool,
) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let prim = primitive(op)?;
        let a = handles::get(op, a)?;
        let (a, s) = (Operand::Value(&a), Operand::Literal(value));
        let operands = if scalar_first { [s, a] } else { [a, s] };
        Ok(handles::insert(trace::bind(prim, &operands)?))
    };
    run().map_err(js_error)
}

#[wasm_bindgen]
pub fn shape(handle: f64) -> std::result::Result<Vec<f64>, JsError> {
    let v = handles::get("shape", handle).map_err(js_error)?;
    Ok(v.aval().shape.iter().map(|&d| d as f64).collect())
}

#[wasm_bindgen]
pub fn dtype(handle: f64) -> std::result::Result<String, JsError> {
    let v = handles::get("dtype", handle).map_err(js_error)?;
    Ok(v.aval().dtype.name().to_string())
}

#[wasm_bindgen(js_name = weakType)]
pub fn weak_type(handle: f64) -> std::result::Result<bool, JsError> {
    let v = handles::get("weakType", handle).map_err(js_error)?;
    Ok(v.aval().weak)
}

/// The device of a concrete array; `None` for a tracer (TypeScript reports the default).
#[wasm_bindgen]
pub fn device(handle: f64) -> std::result::Result<Option<String>, JsError> {
    match handles::get("device", handle).map_err(js_error)? {
        Value::Concrete(c) => Ok(Some(c.device.name().to_string())),
        Value::Tracer(_) => Ok(None),
    }
}

#[wasm_bindgen(js_name = refCount)]
pub fn ref_count(handle: f64) -> u32 {
    handles::ref_count(handle)
}

#[wasm_bindgen(js_name = incRef)]
pub fn inc_ref(handle: f64) -> std::result::Result<(), JsError> {
    handles::inc_ref(handle).map_err(js_error)
}

#[wasm_bindgen]
pub fn dispose(handle: f64) -> std::result::Result<(), JsError> {
    handles::dispose(handle).map_err(js_error)
}

/// The elements as a typed array, read synchronously where the device allows it.
#[wasm_bindgen(js_name = readSync)]
pub fn read_sync(function: &str, handle: f64) -> std::result::Result<JsValue, JsError> {
    let run = || -> Result<JsValue> {
        let v = handles::get(function, handle)?;
        let v = v.concrete(function)?;
        let bytes = v.read_sync(function)?;
        convert::typed_array(function, v.aval.dtype, &bytes)
    };
    run().map_err(js_error)
}

/// The elements as a typed array, read asynchronously (works on every device).
#[wasm_bindgen]
pub async fn read(function: String, handle: f64) -> std::result::Result<JsValue, JsError> {
    // The value is cloned out of the slab, so nothing is borrowed across the await and the
    // buffer stays alive even if the array is disposed meanwhile.
    let v = handles::get(&function, handle).map_err(js_error)?;
    let v = v.concrete(&function).map_err(js_error)?.clone();
    let bytes = v.read(&function).await.map_err(js_error)?;
    convert::typed_array(&function, v.aval.dtype, &bytes).map_err(js_error)
}
