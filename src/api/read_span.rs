//! `data()` and `dataSync()` of wasm arrays whose elements are one contiguous range of their
//! buffer — dense arrays, and views such as a leading slice or one part of a split: Rust says
//! where the range lies in the data memory and TypeScript copies it out itself, in one copy
//! (`js/reads.ts`), with no kernel, no intermediate array and no JS objects made by Rust.
//! Every other array is read by `readBegin` (`reads.rs`) or `readSync`.

use std::cell::Cell;

use wasm_bindgen::prelude::*;

use super::handles;
use crate::backend::{registry, transfers};
use crate::core::{DType, Device};

thread_local! {
    /// The byte length of the last span `readSpan` returned.
    static BYTES: Cell<f64> = const { Cell::new(0.0) };
}

/// Where `handle`'s elements lie in the wasm data memory, as `address · 8 + kind` (kind 0:
/// float32, 1: float64, 2: int32 and bool, 3: uint32), with their length in bytes kept for
/// `readSpanBytes`; -1 when the array is read otherwise (another device, float16, a view that
/// is not one range, a tracer or a freed array, whose error the other read reports).
#[wasm_bindgen(js_name = readSpan)]
pub fn read_span(function: &str, handle: f64) -> f64 {
    let span = || -> Option<(u32, usize, u32)> {
        // Read in place: no clone of the value.
        let (id, start, bytes, kind) = handles::with_value(function, handle, |v| {
            let v = v.concrete(function).ok()?;
            let kind = match v.aval.dtype {
                DType::Float32 => 0,
                DType::Float64 => 1,
                DType::Int32 | DType::Bool => 2,
                DType::Uint32 => 3,
                DType::Float16 => return None,
            };
            if v.device != Device::Wasm {
                return None;
            }
            let bytes = v.aval.byte_size();
            let start = v.view.dense_start()? * v.aval.dtype.byte_size();
            (start.checked_add(bytes)? <= v.buffer.bytes).then_some((
                v.buffer.id,
                start,
                bytes,
                kind,
            ))
        })
        .ok()??;
        let address =
            registry::with_backend(function, Device::Wasm, |b| Ok(b.data_address(id))).ok()??;
        let address = address.checked_add(u32::try_from(start).ok()?)?;
        Some((address, bytes, kind))
    };
    match span() {
        Some((address, bytes, kind)) => {
            transfers::note_readback(Device::Wasm, bytes);
            BYTES.with(|b| b.set(bytes as f64));
            f64::from(address) * 8.0 + f64::from(kind)
        }
        None => -1.0,
    }
}

/// The byte length of the span the last `readSpan` returned.
#[wasm_bindgen(js_name = readSpanBytes)]
pub fn read_span_bytes() -> f64 {
    BYTES.with(|b| b.get())
}
