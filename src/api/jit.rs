//! `jit` for TypeScript: a Jaxpr traced through `traceBegin`/`traceEnd` becomes a compiled
//! function (`jitCompile`, which takes the Jaxpr and its constants over), run by `jitRun` and
//! freed by `jitDispose`. Also the trace-state query the wrapper uses to inline nested calls,
//! the argument signature of its per-wrapper cache, the program cache controls and `setDebug`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::handles::{self, Table};
use super::js_error;
use crate::core::DType;
use crate::transform::jit::Compiled;
use crate::transform::{jit_cache, trace};
use crate::util::lru::Lru;
use crate::util::{Error, Result};

/// Argument signatures kept with their numbers (`jitSignature`).
const SIGNATURES: usize = 4096;

/// One argument's part of a signature: dtype, shape, weak type.
type ArgSignature = (DType, Vec<usize>, bool);

thread_local! {
    static COMPILED: Table<Rc<Compiled>> = Table::default();
    /// Signatures and their numbers, and the last number given.
    static INTERNED: RefCell<(Lru<Vec<ArgSignature>, f64>, f64)> =
        RefCell::new((Lru::new(SIGNATURES), 0.0));
    static DEBUG: Cell<u32> = const { Cell::new(0) };
}

/// Turns traced Jaxpr `jaxpr` (consumed) into a compiled function; returns its id.
#[wasm_bindgen(js_name = jitCompile)]
pub fn jit_compile(jaxpr: u32) -> std::result::Result<u32, JsError> {
    let closed = super::trace::take(jaxpr)
        .ok_or_else(|| js_error(Error::new("jit", "the traced program has been disposed")))?;
    let compiled = Rc::new(Compiled::new(closed));
    Ok(COMPILED.with(|c| c.insert(compiled)))
}

/// Runs compiled function `id` on argument handles; returns the output handles.
#[wasm_bindgen(js_name = jitRun)]
pub fn jit_run(id: u32, args: Vec<f64>) -> std::result::Result<Vec<f64>, JsError> {
    let run = || -> Result<Vec<f64>> {
        let compiled = COMPILED.with(|c| c.with(id, Rc::clone));
        let compiled =
            compiled.ok_or_else(|| Error::new("jit", "the jitted function has been disposed"))?;
        let values = handles::values("jit", &args)?;
        let outs = crate::transform::scope::follow(&values, || compiled.call(&values));
        log_lowered();
        Ok(handles::insert_all(outs?))
    };
    run().map_err(js_error)
}

/// Frees a compiled function and the constants it captured.
#[wasm_bindgen(js_name = jitDispose)]
pub fn jit_dispose(id: u32) -> std::result::Result<(), JsError> {
    COMPILED
        .with(|c| c.dispose(id, "jitted function"))
        .map_err(js_error)
}

/// Number of live compiled functions (for leak checks and `getCacheSizes`).
pub fn live() -> usize {
    COMPILED.with(Table::len)
}

/// True while some trace (jit, grad, vjp, makeJaxpr, …) is running.
#[wasm_bindgen(js_name = traceActive)]
pub fn trace_active() -> bool {
    trace::top_frame().is_some()
}

/// The abstract signature of argument handles (shape, dtype, weak type of each) as a number,
/// the key of a jit wrapper's cache: equal signatures get equal numbers while the signature
/// stays among the [`SIGNATURES`] most recently used; one that left gets a new number (its
/// wrappers then trace again), so a number never names two signatures.
#[wasm_bindgen(js_name = jitSignature)]
pub fn jit_signature(args: Vec<f64>) -> std::result::Result<f64, JsError> {
    let run = || -> Result<f64> {
        let mut sig = Vec::with_capacity(args.len());
        for &h in &args {
            sig.push(handles::with_value("jit", h, |v| {
                let a = v.aval();
                (a.dtype, a.shape.clone(), a.weak)
            })?);
        }
        Ok(INTERNED.with(|i| {
            let mut i = i.borrow_mut();
            if let Some(&n) = i.0.get(&sig) {
                return n;
            }
            i.1 += 1.0;
            let n = i.1;
            i.0.insert(sig, n);
            n
        }))
    };
    run().map_err(js_error)
}

/// Empties the program cache and the compiled eager compositions (part of `clearCaches()`).
#[wasm_bindgen(js_name = clearProgramCache)]
pub fn clear_program_cache() {
    jit_cache::clear();
    crate::transform::eager_jit::clear();
}

/// `setDebug(level)`: 1 logs each lowered program and scan body, 2 also its kernels, 3 also
/// the program after each lowering pass.
#[wasm_bindgen(js_name = setDebug)]
pub fn set_debug(level: u32) {
    DEBUG.with(|d| d.set(level));
    jit_cache::set_logging(level);
}

/// Logs the programs and scan bodies lowered since the last call (at the `setDebug` level).
pub(super) fn log_lowered() {
    let level = DEBUG.with(|d| d.get());
    for lowered in jit_cache::take_lowered() {
        let p = &lowered.program;
        let mut text = format!(
            "oxjax jit: lowered a {} for {}: {} kernel(s), {} fallback step(s)",
            lowered.what,
            lowered.device.name(),
            p.kernel_count(),
            p.fallback_count()
        );
        for (pass, program) in &lowered.passes {
            text.push_str(&format!("\nafter {pass}:\n{program}"));
        }
        if level >= 2 {
            text.push('\n');
            text.push_str(&p.describe());
            for (i, k) in p.kernels().enumerate() {
                text.push_str(&format!("kernel {i}: {k:?}\n"));
            }
        }
        web_sys::console::log_1(&text.into());
    }
}
