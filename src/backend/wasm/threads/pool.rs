//! The calls into the worker pool (`js/wasm-pool.ts`) on wasm32, and the split dispatch that
//! uses them: publish the chunks, claim and compute chunks on the calling thread until none is
//! left, wait for the workers' chunks, compute again the ones they did not complete.

use js_sys::{Array, Function, Reflect, Uint32Array, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

use super::split;
use crate::backend::wasm::module::KernelModule;
use crate::util::Result;

/// The pool's entry points: `threads()`, `begin(id, bytes, args, strides, chunks)`,
/// `claim()` and `finish()`.
struct Pool {
    threads: Function,
    begin: Function,
    claim: Function,
    finish: Function,
}

thread_local! {
    static POOL: RefCell<Option<Pool>> = const { RefCell::new(None) };
}

fn function(pool: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(pool, &name.into()).ok()?.dyn_into().ok()
}

/// Attaches the pool object TypeScript made (replacing any earlier one).
pub fn attach(pool: &JsValue) {
    let entry = (|| {
        Some(Pool {
            threads: function(pool, "threads")?,
            begin: function(pool, "begin")?,
            claim: function(pool, "claim")?,
            finish: function(pool, "finish")?,
        })
    })();
    POOL.with(|p| *p.borrow_mut() = entry);
}

fn with_pool<T>(none: T, f: impl FnOnce(&Pool) -> T) -> T {
    POOL.with(|p| p.borrow().as_ref().map_or(none, f))
}

/// Threads that can run a dispatch now, the calling thread included (1: no pool yet; asking
/// starts it where it is enabled).
fn threads() -> usize {
    with_pool(1, |pool| {
        pool.threads
            .call0(&JsValue::NULL)
            .ok()
            .and_then(|v| v.as_f64())
            .map_or(1, |t| t.max(1.0) as usize)
    })
}

/// Publishes `chunks` of module `id` (its pool id) to the pool. False when the pool took none of them.
fn begin(
    id: u64,
    bytes: &Uint8Array,
    args: &[u32],
    strides: &[u32],
    chunks: &[(u32, u32)],
) -> bool {
    let flat: Vec<u32> = chunks.iter().flat_map(|&(a, b)| [a, b]).collect();
    let call_args = Array::of5(
        &JsValue::from(id as f64),
        bytes,
        &Uint32Array::from(args),
        &Uint32Array::from(strides),
        &Uint32Array::from(&flat[..]),
    );
    with_pool(false, |pool| {
        pool.begin
            .apply(&JsValue::NULL, &call_args)
            .is_ok_and(|v| v.is_truthy())
    })
}

/// The next chunk the calling thread claims, or None when none is left.
fn claim() -> Option<usize> {
    with_pool(None, |pool| {
        let i = pool.claim.call0(&JsValue::NULL).ok()?.as_f64()?;
        (i >= 0.0).then_some(i as usize)
    })
}

/// Waits for the chunks the workers claimed; returns the chunks the calling thread must still
/// compute (`count` of them all if the pool is gone).
fn finish(count: usize) -> Vec<usize> {
    with_pool((0..count).collect(), |pool| {
        match pool.finish.call0(&JsValue::NULL) {
            Ok(v) => Array::from(&v)
                .iter()
                .filter_map(|x| x.as_f64())
                .map(|x| x as usize)
                .collect(),
            Err(_) => (0..count).collect(),
        }
    })
}

/// Runs `module` (a kernel, or a batched routine) on `addresses` split across threads, when it
/// is split and the pool has threads now. False (nothing run) when it stays on the calling
/// thread.
pub fn run_split(module: &KernelModule, addresses: &[u32]) -> Result<bool> {
    let Some(how) = module.split() else {
        return Ok(false);
    };
    let available = threads();
    if available < 2 {
        return Ok(false);
    }
    let chunks = split(module.size(), how.align, how.work, available);
    if chunks.len() < 2 || !begin(how.pool_id, &how.bytes, addresses, &how.strides, &chunks) {
        return Ok(false);
    }
    let run = |c: (u32, u32)| module.call_chunk(c, addresses, &how.strides);
    let mut own = Ok(());
    while own.is_ok() {
        let Some(i) = claim() else { break };
        own = run(chunks[i]);
    }
    // Always wait for the workers before returning, even when an own chunk failed.
    let missed = finish(chunks.len());
    own?;
    for i in missed {
        run(chunks[i])?;
    }
    Ok(true)
}
