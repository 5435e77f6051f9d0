//! `vmap` and `linearize` for TypeScript. vmap traces the user's function on one batch
//! member (`vmapBegin` opens the trace with the batch axes removed; `traceEnd` closes it), then
//! `vmapApply` runs the batching interpreter on the batched arguments. `linearize` keeps the
//! linear map (with its residuals) in a table until disposed, like vjp functions.

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen::prelude::*;

use super::trace::with_jaxpr;
use super::{handles, js_error};
use crate::core::Aval;
use crate::transform::linearize::Linearized;
use crate::transform::trace::{self, Value};
use crate::transform::vmap;
use crate::util::{Error, Result};

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

fn values(function: &str, hs: &[f64]) -> Result<Vec<Value>> {
    hs.iter().map(|&h| handles::get(function, h)).collect()
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
        let (frame, tracers) = trace::begin(&example);
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

/// Runs Jaxpr `id` (traced by `vmapBegin`) over the batch: output handles, batch axis first.
#[wasm_bindgen(js_name = vmapApply)]
pub fn vmap_apply(
    id: u32,
    args: Vec<f64>,
    in_axes: Vec<i32>,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let closed = with_jaxpr("vmap", id, |c| c.clone())?;
        let outs = vmap::vmap(
            &closed,
            &values("vmap", &args)?,
            &axes("vmap", &in_axes)?,
            0,
        )?;
        Ok(outs.into_iter().map(handles::insert).collect())
    };
    run().map_err(js_error)
}

thread_local! {
    static LINEAR: RefCell<(u32, HashMap<u32, Linearized>)> = RefCell::new((1, HashMap::new()));
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
        let (lin, outs) =
            Linearized::new(closed, &values("linearize", &primals)?, n_diff as usize)?;
        let lid = LINEAR.with(|l| {
            let mut l = l.borrow_mut();
            let id = l.0;
            l.0 += 1;
            l.1.insert(id, lin);
            id
        });
        let mut result = vec![lid as f64];
        result.extend(outs.into_iter().map(handles::insert));
        Ok(result)
    };
    run().map_err(js_error)
}

/// The output tangents of linear map `lid` for input tangents `tangents`.
#[wasm_bindgen(js_name = linearizeApply)]
pub fn linearize_apply(lid: u32, tangents: Vec<f64>) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let ts = values("linearize", &tangents)?;
        // Taken out while it runs (it binds operations), then put back.
        let lin = LINEAR.with(|l| l.borrow_mut().1.remove(&lid));
        let lin = lin
            .ok_or_else(|| Error::new("linearize", "the linearized function has been disposed"))?;
        let outs = lin.apply(&ts);
        LINEAR.with(|l| l.borrow_mut().1.insert(lid, lin));
        Ok(outs?.into_iter().map(handles::insert).collect())
    };
    run().map_err(js_error)
}

/// Frees a linear map's residuals.
#[wasm_bindgen(js_name = linearizeDispose)]
pub fn linearize_dispose(lid: u32) -> std::result::Result<(), JsError> {
    let removed = LINEAR.with(|l| l.borrow_mut().1.remove(&lid));
    match removed {
        Some(lin) => {
            drop(lin);
            Ok(())
        }
        None => Err(js_error(Error::new(
            "dispose",
            "the linearized function has already been disposed",
        ))),
    }
}

/// Number of live linearized functions (for leak checks).
pub fn live() -> usize {
    LINEAR.with(|l| l.borrow().1.len())
}
