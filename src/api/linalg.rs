//! `lax.linalg`, `numpy.linalg` and `scipyLinalg` entry points: one call by name with array
//! handles and numeric options, returning one handle per result (`lu` and `slogdet` return
//! several).

use wasm_bindgen::prelude::*;

use super::{handles, js_error};
use crate::library::lax_linalg;
use crate::util::Result;

#[wasm_bindgen(js_name = linalgCall)]
pub fn linalg_call(
    name: &str,
    arrays: Vec<f64>,
    opts: Vec<f64>,
    text: &str,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let short = name.rsplit('.').next().unwrap_or(name);
        let args = handles::values(short, &arrays)?;
        let outs =
            crate::transform::scope::follow(&args, || lax_linalg::call(name, &args, &opts, text))?;
        Ok(handles::insert_all(outs))
    };
    run().map_err(js_error)
}
