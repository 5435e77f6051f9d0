//! `libCall`: the library functions that take arrays plus numeric parameters and return one or
//! more arrays (see `library::call`), by name.

use wasm_bindgen::prelude::*;

use super::{handles, js_error};
use crate::util::Result;

/// Runs library function `name` on the arrays `arrays` (handles) with numeric `params`
/// (NaN: not given); returns the handles of its results.
#[wasm_bindgen(js_name = libCall)]
pub fn lib_call(
    name: &str,
    arrays: Vec<f64>,
    params: Vec<f64>,
) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let values = handles::values(name, &arrays)?;
        let outs = crate::transform::scope::follow(&values, || {
            crate::library::call::call(name, &values, &params)
        })?;
        Ok(handles::insert_all(outs))
    };
    run().map_err(js_error)
}

/// The dtype of combining dtypes `a` and `b` (each possibly weakly typed), and whether the
/// result is weak: `[dtype, "weak" | ""]`.
#[wasm_bindgen(js_name = promoteTypes)]
pub fn promote_types(
    a: &str,
    a_weak: bool,
    b: &str,
    b_weak: bool,
) -> std::result::Result<Vec<String>, JsError> {
    use crate::core::DType;
    let run = || -> Result<Vec<String>> {
        let (a, b) = (
            DType::parse("promoteTypes", a)?,
            DType::parse("promoteTypes", b)?,
        );
        let (d, weak) = crate::core::dtype::promote(a, a_weak, b, b_weak);
        Ok(vec![
            d.name().to_string(),
            if weak { "weak" } else { "" }.to_string(),
        ])
    };
    run().map_err(js_error)
}
