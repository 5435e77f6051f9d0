//! `lax.scan` for TypeScript: `scanBegin` opens a trace whose inputs are tracers of the carry
//! and of one row of each xs, the body runs in JS, and `scanEnd` closes the trace and binds
//! the `scan` primitive (eagerly: the loop runs here; under a trace: one equation). Path
//! reporting for `setScanPathCallback` is drained by `scanPathEvents`.

use wasm_bindgen::prelude::*;

use super::{handles, js_error, trace::trace_abort};
use crate::core::scan::{sqrt_segment, AcceptPaths};
use crate::core::Aval;
use crate::transform::scan::{bind_scan, Loop};
use crate::transform::scan_eval;
use crate::transform::trace::{self, Value};
use crate::util::{Error, Result};

fn values(hs: &[f64]) -> Result<Vec<Value>> {
    handles::values("scan", hs)
}

/// Opens the body's trace: returns the frame id, then tracers for the carry leaves and for one
/// row of each xs leaf (each xs leaf must have `length` rows).
#[wasm_bindgen(js_name = scanBegin)]
pub fn scan_begin(
    carry: Vec<f64>,
    xs: Vec<f64>,
    length: f64,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let mut args = values(&carry)?;
        let mut avals: Vec<Aval> = args.iter().map(|v| v.aval().clone()).collect();
        let xs = values(&xs)?;
        for (i, x) in xs.iter().enumerate() {
            let a = x.aval();
            if a.shape.first().map(|&d| d as f64) != Some(length) {
                return Err(Error::new(
                    "scan",
                    format!(
                        "xs leaf {i} is {}: every xs leaf needs a leading axis of length {length}",
                        a.describe()
                    ),
                ));
            }
            avals.push(Aval {
                shape: a.shape[1..].to_vec(),
                dtype: a.dtype,
                weak: a.weak,
            });
        }
        args.extend(xs);
        Ok(handles::begin_trace(&avals, &args))
    };
    run().map_err(js_error)
}

/// Closes the body's trace on its outputs (`new carry ++ y leaves`) and runs (or stages) the
/// scan of `init` and `xs`. `checkpoint`: 0 for ⌈√length⌉-step segments, else the segment
/// length. `accept`: bit 0 fused, bit 1 fallback. Returns `final carry ++ ys` handles.
#[wasm_bindgen(js_name = scanEnd)]
#[allow(clippy::too_many_arguments)]
pub fn scan_end(
    frame: f64,
    init: Vec<f64>,
    xs: Vec<f64>,
    outputs: Vec<f64>,
    length: u32,
    reverse: bool,
    checkpoint: u32,
    accept: u32,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let outs = match values(&outputs) {
            Ok(o) => o,
            Err(e) => {
                trace_abort(frame);
                return Err(e);
            }
        };
        let closed = trace::end("scan", frame as u64, &outs);
        handles::release_frame(frame as u64);
        let closed = closed?;
        let length = length as usize;
        let segment = match checkpoint {
            0 => sqrt_segment(length),
            s => s as usize,
        };
        let lp = Loop {
            length,
            reverse,
            segment,
            accept: AcceptPaths {
                fused: accept & 1 != 0,
                fallback: accept & 2 != 0,
            },
        };
        let results = bind_scan(closed, &[], &values(&init)?, &values(&xs)?, lp);
        super::jit::log_lowered();
        Ok(handles::insert_all(results?))
    };
    run().map_err(js_error)
}

/// Turns path events on or off (`setScanPathCallback` with a function or `null`).
#[wasm_bindgen(js_name = setScanPathReporting)]
pub fn set_scan_path_reporting(on: bool) {
    scan_eval::set_reporting(on);
}

/// The scans run since the last call, oldest first: `path, backend, detail, length` for each,
/// flat (strings only: no JS object is built inside the call, see `stats.rs`).
#[wasm_bindgen(js_name = scanPathEvents)]
pub fn scan_path_events() -> Vec<String> {
    let mut out = Vec::new();
    for e in scan_eval::drain_events() {
        out.extend([
            e.path.to_string(),
            e.device.to_string(),
            e.detail.to_string(),
            e.length.to_string(),
        ]);
    }
    out
}
