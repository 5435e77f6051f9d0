//! Trace brackets for TypeScript (decision 1): `traceBegin` → the user's function runs in JS on
//! tracer handles → `traceEnd` (or `traceAbort` if it threw). Closed Jaxprs live in their own
//! table, owned by their JS object until disposed.

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen::prelude::*;

use super::{handles, js_error};
use crate::transform::trace::{self, ClosedJaxpr, Value};
use crate::util::{Error, Result};

thread_local! {
    static JAXPRS: RefCell<(u32, HashMap<u32, ClosedJaxpr>)> = RefCell::new((1, HashMap::new()));
}

/// Starts a trace whose inputs have the avals of `inputs` (arrays or tracers). Returns the
/// frame id followed by one tracer handle per input.
#[wasm_bindgen(js_name = traceBegin)]
pub fn trace_begin(function: &str, inputs: Vec<f64>) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let avals = inputs
            .iter()
            .map(|&h| handles::get(function, h).map(|v| v.aval().clone()))
            .collect::<Result<Vec<_>>>()?;
        let (frame, tracers) = trace::begin(&avals);
        let mut out = vec![frame as f64];
        out.extend(
            tracers
                .into_iter()
                .map(|t| handles::insert(Value::Tracer(t))),
        );
        Ok(out)
    };
    run().map_err(js_error)
}

/// Ends trace `frame` with the given output handles; returns a Jaxpr handle.
#[wasm_bindgen(js_name = traceEnd)]
pub fn trace_end(
    function: &str,
    frame: f64,
    outputs: Vec<f64>,
) -> std::result::Result<u32, JsError> {
    let run = || -> Result<u32> {
        let outs = outputs
            .iter()
            .map(|&h| handles::get(function, h))
            .collect::<Result<Vec<_>>>();
        let outs = match outs {
            Ok(o) => o,
            Err(e) => {
                trace_abort(frame);
                return Err(e);
            }
        };
        let closed = trace::end(function, frame as u64, &outs);
        handles::release_frame(frame as u64);
        let closed = closed?;
        Ok(JAXPRS.with(|j| {
            let mut j = j.borrow_mut();
            let id = j.0;
            j.0 += 1;
            j.1.insert(id, closed);
            id
        }))
    };
    run().map_err(js_error)
}

/// Abandons trace `frame` (the traced function threw).
#[wasm_bindgen(js_name = traceAbort)]
pub fn trace_abort(frame: f64) {
    trace::abort(frame as u64);
    handles::release_frame(frame as u64);
}

pub(super) fn with_jaxpr<R>(
    function: &str,
    id: u32,
    f: impl FnOnce(&ClosedJaxpr) -> R,
) -> Result<R> {
    JAXPRS.with(|j| {
        j.borrow()
            .1
            .get(&id)
            .map(f)
            .ok_or_else(|| Error::new(function, "the jaxpr has been disposed (use-after-free)"))
    })
}

/// The printed Jaxpr.
#[wasm_bindgen(js_name = jaxprText)]
pub fn jaxpr_text(id: u32) -> std::result::Result<String, JsError> {
    with_jaxpr("toString", id, |c| c.jaxpr.to_string()).map_err(js_error)
}

/// Frees a Jaxpr and the constants it owns.
#[wasm_bindgen(js_name = jaxprDispose)]
pub fn jaxpr_dispose(id: u32) -> std::result::Result<(), JsError> {
    let removed = JAXPRS.with(|j| j.borrow_mut().1.remove(&id));
    match removed {
        Some(closed) => {
            drop(closed); // outside the borrow: dropping constants frees buffers
            Ok(())
        }
        None => Err(js_error(Error::new(
            "dispose",
            "the jaxpr has already been disposed",
        ))),
    }
}

/// Takes Jaxpr `id` out of the table (jit takes it over).
pub(super) fn take(id: u32) -> Option<ClosedJaxpr> {
    JAXPRS.with(|j| j.borrow_mut().1.remove(&id))
}

/// Number of live Jaxprs (for leak checks).
pub fn live() -> usize {
    JAXPRS.with(|j| j.borrow().1.len())
}

/// Runs traced Jaxpr `id` on `args` and differentiates its first (scalar) output: returns
/// handles of all its outputs followed by the gradients for `argnums`.
#[wasm_bindgen(js_name = valueAndGrad)]
pub fn value_and_grad(
    id: u32,
    args: Vec<f64>,
    argnums: Vec<u32>,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let closed = with_jaxpr("grad", id, |c| c.clone())?;
        let values = args
            .iter()
            .map(|&h| handles::get("grad", h))
            .collect::<Result<Vec<_>>>()?;
        let nums: Vec<usize> = argnums.iter().map(|&i| i as usize).collect();
        let outs = crate::transform::autodiff::value_and_grad(&closed, &values, &nums)?;
        Ok(outs.into_iter().map(handles::insert).collect())
    };
    run().map_err(js_error)
}

thread_local! {
    static VJPS: RefCell<(u32, HashMap<u32, crate::transform::autodiff::Vjp>)> =
        RefCell::new((1, HashMap::new()));
}

/// Runs Jaxpr `id` forward on `args`, keeping the residuals: returns the vjp handle followed
/// by the output handles.
#[wasm_bindgen(js_name = vjpBegin)]
pub fn vjp_begin(id: u32, args: Vec<f64>) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let closed = with_jaxpr("vjp", id, |c| c.clone())?;
        let values = args
            .iter()
            .map(|&h| handles::get("vjp", h))
            .collect::<Result<Vec<_>>>()?;
        let (vjp, outs) = crate::transform::autodiff::Vjp::new(closed, &values)?;
        let vid = VJPS.with(|v| {
            let mut v = v.borrow_mut();
            let id = v.0;
            v.0 += 1;
            v.1.insert(id, vjp);
            id
        });
        let mut result = vec![vid as f64];
        result.extend(outs.into_iter().map(handles::insert));
        Ok(result)
    };
    run().map_err(js_error)
}

/// The input cotangents for output cotangents `cts` (NaN handle: zero).
#[wasm_bindgen(js_name = vjpApply)]
pub fn vjp_apply(vid: u32, cts: Vec<f64>) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let values = cts
            .iter()
            .map(|&h| {
                if h.is_nan() {
                    Ok(None)
                } else {
                    handles::get("vjp", h).map(Some)
                }
            })
            .collect::<Result<Vec<_>>>()?;
        // The vjp is taken out while it runs (it binds operations), then put back.
        let vjp = VJPS.with(|v| v.borrow_mut().1.remove(&vid));
        let vjp = vjp.ok_or_else(|| Error::new("vjp", "the vjp function has been disposed"))?;
        let grads = vjp.pull(&values);
        VJPS.with(|v| v.borrow_mut().1.insert(vid, vjp));
        Ok(grads?.into_iter().map(handles::insert).collect())
    };
    run().map_err(js_error)
}

/// Frees a vjp function's residuals.
#[wasm_bindgen(js_name = vjpDispose)]
pub fn vjp_dispose(vid: u32) -> std::result::Result<(), JsError> {
    let removed = VJPS.with(|v| v.borrow_mut().1.remove(&vid));
    match removed {
        Some(vjp) => {
            drop(vjp);
            Ok(())
        }
        None => Err(js_error(Error::new(
            "dispose",
            "the vjp function has already been disposed",
        ))),
    }
}

/// Number of live vjp functions (for leak checks).
pub fn live_vjps() -> usize {
    VJPS.with(|v| v.borrow().1.len())
}

/// Forward-mode derivative of Jaxpr `id` at `primals` along `tangents`: the output handles
/// followed by the tangents of the first `n_diff` outputs (the others are aux values).
#[wasm_bindgen]
pub fn jvp(
    id: u32,
    primals: Vec<f64>,
    tangents: Vec<f64>,
    n_diff: u32,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let closed = with_jaxpr("jvp", id, |c| c.clone())?;
        let get = |hs: &[f64]| {
            hs.iter()
                .map(|&h| handles::get("jvp", h))
                .collect::<Result<Vec<_>>>()
        };
        let (outs, tans) = crate::transform::autodiff::jvp(
            closed,
            &get(&primals)?,
            &get(&tangents)?,
            n_diff as usize,
        )?;
        Ok(outs.into_iter().chain(tans).map(handles::insert).collect())
    };
    run().map_err(js_error)
}
