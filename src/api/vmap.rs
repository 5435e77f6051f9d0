//! `vmap` and `linearize` for TypeScript. vmap traces the user's function on one batch
//! member (`vmapBegin` opens the trace with the batch axes removed; `traceEnd` closes it), then
//! `vmapApply` runs the batching interpreter on the batched arguments. `linearize` keeps the
//! linear map (with its residuals) in a table until disposed, like vjp functions.

use wasm_bindgen::prelude::*;

use super::handles::{self, values, Table};
use super::js_error;
use super::trace::with_jaxpr;
use crate::core::Aval;
use crate::transform::linearize::Linearized;
use crate::transform::trace::Value;
use crate::transform::vmap;
use crate::util::{Error, Result};

thread_local! {
    static LINEAR: Table<Linearized> = Table::default();
}

/// JS batch axes: a non-negative axis, or -1 for an unbatched argument.
fn axes(function: &str, axes: &[i32]) -> Result<Vec<Option<usize>>> {
    axes.iter()
        .map(|&a| match a {
            -1 => Ok(None),
            a if a >= 0 => Ok(Some(a as usize)),
            a => Err(Error::new(function, format!("invalid batch axis {a}"))),
        })
        .collect()
}

/// Opens a trace of one batch member: returns the frame id, then one tracer handle per
/// argument (its aval without the batch axis). Errors name `function` (mismatched axes).
#[wasm_bindgen(js_name = vmapBegin)]
pub fn vmap_begin(
    function: &str,
    args: Vec<f64>,
    in_axes: Vec<i32>,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let vals = values(function, &args)?;
        let avals: Vec<&Aval> = vals.iter().map(Value::aval).collect();
        let (_, example) = vmap::example_avals(function, &avals, &axes(function, &in_axes)?)?;
        Ok(handles::begin_trace(&example, &vals))
    };
    run().map_err(js_error)
}

/// Runs Jaxpr `id` (traced by `vmapBegin`) over the batch: output handles, batch axis first.
#[wasm_bindgen(js_name = vmapApply)]
pub fn vmap_apply(
    id: u32,
    args: Vec<f64>,
    in_axes: Vec<i32>,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let closed = with_jaxpr("vmap", id, |c| c.clone())?;
        let vals = values("vmap", &args)?;
        let axes = axes("vmap", &in_axes)?;
        let outs = crate::transform::scope::follow(&vals, || vmap::vmap(&closed, &vals, &axes, 0))?;
        Ok(handles::insert_all(outs))
    };
    run().map_err(js_error)
}

/// Runs Jaxpr `id` at `primals` and keeps its linear map: returns the map's handle followed
/// by the output handles (the first `n_diff` outputs are differentiated).
#[wasm_bindgen(js_name = linearizeBegin)]
pub fn linearize_begin(
    id: u32,
    primals: Vec<f64>,
    n_diff: u32,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let closed = with_jaxpr("linearize", id, |c| c.clone())?;
        let vals = values("linearize", &primals)?;
        let (lin, outs) = crate::transform::scope::follow(&vals, || {
            Linearized::new(closed, &vals, n_diff as usize)
        })?;
        let lid = LINEAR.with(|l| l.insert(lin));
        let mut result = vec![lid as f64];
        result.extend(handles::insert_all(outs));
        Ok(result)
    };
    run().map_err(js_error)
}

/// The output tangents of linear map `lid` for input tangents `tangents`.
#[wasm_bindgen(js_name = linearizeApply)]
pub fn linearize_apply(lid: u32, tangents: Vec<f64>) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let ts = values("linearize", &tangents)?;
        let outs = LINEAR.with(|l| {
            l.run(lid, |lin| {
                crate::transform::scope::follow(&ts, || lin.apply(&ts))
            })
        });
        let outs = outs
            .ok_or_else(|| Error::new("linearize", "the linearized function has been disposed"))?;
        Ok(handles::insert_all(outs?))
    };
    run().map_err(js_error)
}

/// Frees a linear map's residuals.
#[wasm_bindgen(js_name = linearizeDispose)]
pub fn linearize_dispose(lid: u32) -> std::result::Result<(), JsError> {
    LINEAR
        .with(|l| l.dispose(lid, "linearized function"))
        .map_err(js_error)
}

/// Number of live linearized functions (for leak checks).
pub fn live() -> usize {
    LINEAR.with(Table::len)
}
