//! Array creation, operations, readback and ownership, by handle.

use wasm_bindgen::prelude::*;

use super::{convert, handles, js_error, to_shape};
use crate::core::{DType, Device};
use crate::library::{self, ReduceKind};
use crate::rules::lax;
use crate::transform::trace::{Binder, Operand};
use crate::transform::{ArrayValue, Value};
use crate::util::{Error, Result};

/// A new array from little-endian element bytes (a view of the caller's typed array, copied
/// once, straight into the device's memory).
#[wasm_bindgen(js_name = arrayFromBytes)]
pub fn array_from_bytes(
    function: &str,
    bytes: &js_sys::Uint8Array,
    shape: &[f64],
    dtype: &str,
    device: &str,
) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let shape = to_shape(function, shape)?;
        let dtype = DType::parse(function, dtype)?;
        let (device, committed) = super::placement(function, device)?;
        let mut v = ArrayValue::from_js_bytes(function, bytes, shape, dtype, device)?;
        v.committed = committed;
        Ok(handles::insert(Value::Concrete(v)))
    };
    run().map_err(js_error)
}

/// A weakly typed 0-d array from a JS number.
#[wasm_bindgen(js_name = weakScalar)]
pub fn weak_scalar(value: f64, dtype: &str, device: &str) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let dtype = DType::parse("scalar", dtype)?;
        let (device, _) = super::placement("scalar", device)?;
        let v = ArrayValue::weak_scalar("scalar", value, dtype, device)?;
        Ok(handles::insert(Value::Concrete(v)))
    };
    run().map_err(js_error)
}

/// Applies a named operation (a primitive or a library composition). Operand `i` is the
/// array with handle `handles[i]`, or, where `is_literal[i]` is set, the JS number
/// `literals[i]` (weakly typed: it adopts its partner's dtype).
#[wasm_bindgen]
pub fn apply(
    op: &str,
    handles: Vec<f64>,
    literals: Vec<f64>,
    is_literal: Vec<u8>,
) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let values: Vec<Option<Value>> = handles
            .iter()
            .zip(&is_literal)
            .map(|(&h, &lit)| {
                if lit != 0 {
                    Ok(None)
                } else {
                    handles::get(op, h).map(Some)
                }
            })
            .collect::<Result<_>>()?;
        let operands: Vec<Operand> = values
            .iter()
            .zip(&literals)
            .map(|(v, &x)| v.as_ref().map_or(Operand::Literal(x), Operand::Value))
            .collect();
        Ok(handles::insert(library::apply_eager(op, &operands)?))
    };
    run().map_err(js_error)
}

/// Converts to a dtype (`astype`) or reinterprets the bits (`bitcast`).
#[wasm_bindgen]
pub fn convert(handle: f64, dtype: &str, bitcast: bool) -> std::result::Result<f64, JsError> {
    let function = if bitcast { "bitcast" } else { "astype" };
    let run = || -> Result<f64> {
        let d = DType::parse(function, dtype)?;
        let x = handles::get(function, handle)?;
        let y = if bitcast {
            lax::bitcast(&mut Binder, &x, d)?
        } else {
            lax::cast(&mut Binder, &x, d)?
        };
        Ok(handles::insert(y))
    };
    run().map_err(js_error)
}

/// A numpy reduction (`sum`, `prod`, `max`, `min`, `mean`, `all`, `any`) over `axes`
/// (`None`: all axes; negative axes count from the end).
#[wasm_bindgen]
pub fn reduce(
    kind: &str,
    handle: f64,
    axes: Option<Vec<i32>>,
    keepdims: bool,
) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let k = ReduceKind::parse(kind)?;
        let x = handles::get(kind, handle)?;
        let axes: Option<Vec<i64>> = axes.map(|a| a.into_iter().map(i64::from).collect());
        Ok(handles::insert(library::reduce(
            kind,
            k,
            &x,
            axes.as_deref(),
            keepdims,
        )?))
    };
    run().map_err(js_error)
}

/// Reshapes (one `-1` is inferred). Contiguous arrays share their buffer.
#[wasm_bindgen]
pub fn reshape(handle: f64, shape: Vec<f64>) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let x = handles::get("reshape", handle)?;
        let size = x.aval().size();
        let known: Vec<f64> = shape.iter().copied().filter(|&d| d != -1.0).collect();
        let known = to_shape("reshape", &known)?;
        let inferred = match shape.iter().filter(|&&d| d == -1.0).count() {
            0 => None,
            1 => {
                let rest = crate::core::shape::size(&known);
                if rest == 0 || size % rest != 0 {
                    return Err(Error::new(
                        "reshape",
                        format!("cannot reshape {:?} into {shape:?}", x.aval().shape),
                    ));
                }
                Some(size / rest)
            }
            _ => return Err(Error::new("reshape", "only one dimension can be -1")),
        };
        let mut known = known.into_iter();
        let new_shape: Vec<usize> = shape
            .iter()
            .map(|&d| {
                if d == -1.0 {
                    inferred.unwrap_or(0)
                } else {
                    known.next().unwrap_or(0)
                }
            })
            .collect();
        Ok(handles::insert(lax::reshape(&mut Binder, &x, new_shape)?))
    };
    run().map_err(js_error)
}

#[wasm_bindgen]
pub fn shape(handle: f64) -> std::result::Result<Vec<f64>, JsError> {
    handles::with_value("shape", handle, |v| {
        v.aval().shape.iter().map(|&d| d as f64).collect()
    })
    .map_err(js_error)
}

#[wasm_bindgen]
pub fn dtype(handle: f64) -> std::result::Result<String, JsError> {
    handles::with_value("dtype", handle, |v| v.aval().dtype.name().to_string()).map_err(js_error)
}

#[wasm_bindgen(js_name = weakType)]
pub fn weak_type(handle: f64) -> std::result::Result<bool, JsError> {
    handles::with_value("weakType", handle, |v| v.aval().weak).map_err(js_error)
}

/// The device of a concrete array; `None` for a tracer.
#[wasm_bindgen]
pub fn device(handle: f64) -> std::result::Result<Option<String>, JsError> {
    match handles::get("device", handle).map_err(js_error)? {
        Value::Concrete(c) => Ok(Some(c.device.name().to_string())),
        Value::Tracer(_) => Ok(None),
    }
}

/// The device of a concrete array; for a tracer, that of the arrays its trace was opened on
/// (`None` when unknown: TypeScript reports the default device).
#[wasm_bindgen(js_name = placedOn)]
pub fn placed_on(handle: f64) -> std::result::Result<Option<String>, JsError> {
    match handles::get("device", handle).map_err(js_error)? {
        Value::Concrete(c) => Ok(Some(c.device.name().to_string())),
        Value::Tracer(t) => Ok(crate::transform::trace::device(t.frame).map(|d| d.name().into())),
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

/// A new handle, with one reference of its own, to the same value (no copy): what identity
/// functions (`np.positive`, `nn.identity`) return, so that disposing the result leaves the
/// argument alive.
#[wasm_bindgen]
pub fn share(function: &str, handle: f64) -> std::result::Result<f64, JsError> {
    let value = handles::get(function, handle).map_err(js_error)?;
    Ok(handles::insert(value))
}

#[wasm_bindgen]
pub fn dispose(handle: f64) -> std::result::Result<(), JsError> {
    handles::dispose(handle).map_err(js_error)
}

/// How the consuming entry drops a reference: `strict` (its `dispose()`) as [`dispose`];
/// otherwise (an array an operation consumed) only of a live concrete array, never failing (a
/// tracer or a freed handle is left alone). When that was the last reference of a concrete
/// array, returns its aval as `"dtype|weak|d0,d1,…"` (upstream code may still read the shape
/// and dtype of a consumed array): one call instead of a count, three reads and a dispose.
#[wasm_bindgen(js_name = releaseConsumed)]
pub fn release_consumed(handle: f64, strict: bool) -> std::result::Result<Option<String>, JsError> {
    let value = match handles::get("dispose", handle) {
        Ok(v) => v,
        Err(e) if strict => return Err(js_error(e)),
        Err(_) => return Ok(None),
    };
    if !strict && matches!(value, Value::Tracer(_)) {
        return Ok(None);
    }
    let last = handles::ref_count(handle) == 1;
    handles::dispose(handle).map_err(js_error)?;
    Ok(match value {
        Value::Concrete(c) if last => {
            let shape: Vec<String> = c.aval.shape.iter().map(usize::to_string).collect();
            let weak = u8::from(c.aval.weak);
            Some(format!(
                "{}|{weak}|{}",
                c.aval.dtype.name(),
                shape.join(",")
            ))
        }
        _ => None,
    })
}

/// What `using` calls: drops one reference of a live concrete array. A no-op for tracers
/// (their handles die with their trace, so `using` in traced code never invalidates a value
/// the function returns: decision 3) and for freed handles. Never fails.
#[wasm_bindgen(js_name = disposeScoped)]
pub fn dispose_scoped(handle: f64) {
    if let Ok(Value::Concrete(_)) = handles::get("dispose", handle) {
        let _ = handles::dispose(handle);
    }
}

/// The elements as a typed array, read synchronously where the device allows it (`dataSync`,
/// and `data()` on devices whose reads are synchronous; see `reads`).
#[wasm_bindgen(js_name = readSync)]
pub fn read_sync(function: &str, handle: f64) -> std::result::Result<JsValue, JsError> {
    let run = || -> Result<JsValue> {
        let v = handles::get(function, handle)?;
        let v = v.concrete(function)?;
        let bytes = v.read_sync_host(function)?;
        convert::host_typed_array(function, v.aval.dtype, bytes)
    };
    run().map_err(js_error)
}

/// `argmax`/`argmin` along `axis` (`None`: the flattened array).
#[wasm_bindgen(js_name = argExtreme)]
pub fn arg_extreme(
    name: &str,
    handle: f64,
    axis: Option<i32>,
    keepdims: bool,
    max: bool,
) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let x = [handles::get(name, handle)?];
        let out = crate::transform::scope::follow(&x, || {
            crate::library::indexing::arg_extreme(name, &x[0], axis.map(i64::from), keepdims, max)
        })?;
        Ok(handles::insert(out))
    };
    run().map_err(js_error)
}

/// `cumsum`/`cumprod`/`cummax`/`cummin` along `axis` (`None`: the flattened array).
#[wasm_bindgen]
pub fn cumulative(
    name: &str,
    op: &str,
    handle: f64,
    axis: Option<i32>,
) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let op = match op {
            "sum" => crate::core::ops::ReduceOp::Sum,
            "prod" => crate::core::ops::ReduceOp::Prod,
            "max" => crate::core::ops::ReduceOp::Max,
            "min" => crate::core::ops::ReduceOp::Min,
            other => {
                return Err(Error::new(
                    name,
                    format!("unknown running reduction {other:?}"),
                ))
            }
        };
        let x = [handles::get(name, handle)?];
        Ok(handles::insert(crate::transform::scope::follow(
            &x,
            || crate::library::indexing::cumulative(name, op, &x[0], axis.map(i64::from)),
        )?))
    };
    run().map_err(js_error)
}

/// The device new arrays go to when none is named.
#[wasm_bindgen(js_name = getDefaultDevice)]
pub fn get_default_device() -> String {
    crate::backend::registry::default_device()
        .name()
        .to_string()
}

/// Sets the device that operations without array operands use.
#[wasm_bindgen(js_name = setDefaultDevice)]
pub fn set_default_device(device: &str) -> std::result::Result<(), JsError> {
    let d = Device::parse("defaultDevice", device).map_err(js_error)?;
    crate::backend::registry::set_default_device("defaultDevice", d).map_err(js_error)
}

/// `sort` (or `argsort` when `indices`) along `axis`.
#[wasm_bindgen]
pub fn sort(handle: f64, axis: i32, indices: bool) -> std::result::Result<f64, JsError> {
    let name = if indices { "argsort" } else { "sort" };
    let run = || -> Result<f64> {
        // argsort's iota goes to x's device (not the default one, which may be another).
        let x = [handles::get(name, handle)?];
        Ok(handles::insert(crate::transform::scope::follow(
            &x,
            || crate::library::indexing::sort(name, &x[0], axis.into(), indices),
        )?))
    };
    run().map_err(js_error)
}
