//! Trace brackets for TypeScript (decision 1): `traceBegin` → the user's function runs in JS on
//! tracer handles → `traceEnd` (or `traceAbort` if it threw). Closed Jaxprs live in their own
//! table, owned by their JS object until disposed.

use wasm_bindgen::prelude::*;

use super::handles::{self, Table};
use super::js_error;
use crate::transform::autodiff::Vjp;
use crate::transform::trace::{self, ClosedJaxpr};
use crate::util::{Error, Result};

thread_local! {
    static JAXPRS: Table<ClosedJaxpr> = Table::default();
    static VJPS: Table<Vjp> = Table::default();
}

/// Starts a trace whose inputs have the avals of `inputs` (arrays or tracers). Returns the
/// frame id followed by one tracer handle per input.
#[wasm_bindgen(js_name = traceBegin)]
pub fn trace_begin(function: &str, inputs: Vec<f64>) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let values = handles::values(function, &inputs)?;
        let avals: Vec<_> = values.iter().map(|v| v.aval().clone()).collect();
        Ok(handles::begin_trace(&avals, &values))
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
        let outs = match handles::values(function, &outputs) {
            Ok(o) => o,
            Err(e) => {
                trace_abort(frame);
                return Err(e);
            }
        };
        let closed = trace::end(function, frame as u64, &outs);
        handles::release_frame(frame as u64);
        let closed = closed?;
        Ok(JAXPRS.with(|j| j.insert(closed)))
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
    JAXPRS
        .with(|j| j.with(id, f))
        .ok_or_else(|| Error::new(function, "the jaxpr has been disposed (use-after-free)"))
}

/// The printed Jaxpr.
#[wasm_bindgen(js_name = jaxprText)]
pub fn jaxpr_text(id: u32) -> std::result::Result<String, JsError> {
    with_jaxpr("toString", id, |c| c.jaxpr.to_string()).map_err(js_error)
}

/// Frees a Jaxpr and the constants it owns.
#[wasm_bindgen(js_name = jaxprDispose)]
pub fn jaxpr_dispose(id: u32) -> std::result::Result<(), JsError> {
    JAXPRS.with(|j| j.dispose(id, "jaxpr")).map_err(js_error)
}

/// Takes Jaxpr `id` out of the table (jit takes it over).
pub(super) fn take(id: u32) -> Option<ClosedJaxpr> {
    JAXPRS.with(|j| j.take(id))
}

/// Number of live Jaxprs (for leak checks).
pub fn live() -> usize {
    JAXPRS.with(Table::len)
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
        let values = handles::values("grad", &args)?;
        let nums: Vec<usize> = argnums.iter().map(|&i| i as usize).collect();
        let outs = crate::transform::scope::follow(&values, || {
            crate::transform::autodiff::value_and_grad(&closed, &values, &nums)
        })?;
        Ok(handles::insert_all(outs))
    };
    run().map_err(js_error)
}

/// Runs Jaxpr `id` forward on `args`, keeping the residuals: returns the vjp handle followed
/// by the output handles.
#[wasm_bindgen(js_name = vjpBegin)]
pub fn vjp_begin(id: u32, args: Vec<f64>) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let closed = with_jaxpr("vjp", id, |c| c.clone())?;
        let values = handles::values("vjp", &args)?;
        let (vjp, outs) = crate::transform::scope::follow(&values, || Vjp::new(closed, &values))?;
        let vid = VJPS.with(|v| v.insert(vjp));
        let mut result = vec![vid as f64];
        result.extend(handles::insert_all(outs));
        Ok(result)
    };
    run().map_err(js_error)
}

/// The input cotangents for output cotangents `cts` (NaN handle: zero).
#[wasm_bindgen(js_name = vjpApply)]
pub fn vjp_apply(vid: u32, cts: Vec<f64>) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let values = handles::optional_values("vjp", &cts)?;
        let present: Vec<_> = values.iter().flatten().cloned().collect();
        let grads = VJPS.with(|v| {
            v.run(vid, |vjp| {
                crate::transform::scope::follow(&present, || vjp.pull(&values))
            })
        });
        let grads = grads.ok_or_else(|| Error::new("vjp", "the vjp function has been disposed"))?;
        Ok(handles::insert_all(grads?))
    };
    run().map_err(js_error)
}

/// Frees a vjp function's residuals.
#[wasm_bindgen(js_name = vjpDispose)]
pub fn vjp_dispose(vid: u32) -> std::result::Result<(), JsError> {
    VJPS.with(|v| v.dispose(vid, "vjp function"))
        .map_err(js_error)
}

/// Number of live vjp functions (for leak checks).
pub fn live_vjps() -> usize {
    VJPS.with(Table::len)
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
        let (outs, tans) = crate::transform::linearize::jvp(
            closed,
            &handles::values("jvp", &primals)?,
            &handles::values("jvp", &tangents)?,
            n_diff as usize,
        )?;
        Ok(handles::insert_all(outs.into_iter().chain(tans)))
    };
    run().map_err(js_error)
}
