//! `libCall`: the library functions JavaScript calls by typed id (`library::call`), with their
//! array arguments as handles and their other arguments as numbers, both laid out by the
//! generated call layer (`js/lib-calls.ts`) in the argument buffer (`libCallBuffer`), so a
//! call copies no list across the boundary; `libCall1` for functions of one result returns
//! its handle without a list. Also `promoteTypes` and `resultType`.

use wasm_bindgen::prelude::*;

use super::{handles, js_error};
use crate::library::call::{self, CallId};
use crate::transform::Value;
use crate::util::panic_cell::PanicCell;
use crate::util::{Error, Result};

thread_local! {
    /// The argument buffer: JavaScript writes a call's handles, then its numbers, into this
    /// memory through a view (`libCallBuffer`), so a call passes only counts.
    static ARGS: PanicCell<Vec<f64>> = const { PanicCell::new(Vec::new()) };
}

/// The address of the argument buffer, grown to hold at least `len` values (a new address
/// when it grows).
#[wasm_bindgen(js_name = libCallBuffer)]
pub fn lib_call_buffer(len: u32) -> u32 {
    ARGS.with(|b| {
        let mut b = b.borrow_mut();
        if b.len() < len as usize {
            b.resize(len as usize, 0.0);
        }
        b.as_ptr() as usize as u32
    })
}

/// Runs library function `id` on the `arrays` handles and the `nums` numbers that follow them
/// in the argument buffer.
fn run(id: u32, arrays: u32, nums: u32) -> Result<Vec<Value>> {
    let id = CallId::from_index(id)
        .ok_or_else(|| Error::new("libCall", format!("unknown library function id {id}")))?;
    // Borrowed for the whole call: nothing else reads the buffer while Rust runs.
    ARGS.with(|b| {
        let b = b.borrow();
        let (a, n) = (arrays as usize, nums as usize);
        let (Some(handles), Some(nums)) = (b.get(..a), b.get(a..a + n)) else {
            return Err(Error::new(
                id.name(),
                "arguments beyond the argument buffer",
            ));
        };
        let values = handles::values(id.name(), handles)?;
        crate::transform::scope::follow(&values, || call::call(id, &values, nums))
    })
}

/// Runs library function `id` (see [`run`]); returns the handles of its results.
#[wasm_bindgen(js_name = libCall)]
pub fn lib_call(id: u32, arrays: u32, nums: u32) -> std::result::Result<Vec<f64>, JsError> {
    let outs = run(id, arrays, nums).map_err(js_error)?;
    Ok(handles::insert_all(outs))
}

/// Runs library function `id` of one result (see [`run`]); returns its handle.
#[wasm_bindgen(js_name = libCall1)]
pub fn lib_call1(id: u32, arrays: u32, nums: u32) -> std::result::Result<f64, JsError> {
    let mut outs = run(id, arrays, nums).map_err(js_error)?;
    match (outs.pop(), outs.is_empty()) {
        (Some(out), true) => Ok(handles::insert(out)),
        _ => Err(js_error(Error::new("libCall1", "expected one result"))),
    }
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

/// NumPy's `result_type` of operands with dtypes `dtypes` and weak-type flags `weak` (one byte
/// each): the dtype name.
#[wasm_bindgen(js_name = resultType)]
pub fn result_type(dtypes: Vec<String>, weak: &[u8]) -> std::result::Result<String, JsError> {
    use crate::core::DType;
    let run = || -> Result<String> {
        if dtypes.len() != weak.len() {
            return Err(Error::new("resultType", "one weak flag per dtype"));
        }
        let operands = dtypes
            .iter()
            .zip(weak)
            .map(|(d, &w)| DType::parse("resultType", d).map(|d| (d, w != 0)));
        let operands = operands.collect::<Result<Vec<_>>>()?;
        let (d, _) = crate::core::dtype::result_type(operands)
            .ok_or_else(|| Error::new("resultType", "needs at least one argument"))?;
        Ok(d.name().to_string())
    };
    run().map_err(js_error)
}
