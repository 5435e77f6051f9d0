//! Library compositions called eagerly, run as cached compiled programs. A composition (a random
//! draw is ~130 integer and float operations) applied eagerly pays one dispatch per primitive;
//! [`run`] instead traces it once into a Jaxpr, keyed by the caller's tag and parameters and by
//! the avals and devices of its array operands, and runs that as a jitted [`Compiled`] program
//! (on wasm one module call) on later calls with the same key.
//!
//! A key is compiled on its second eager call (the first runs eagerly, so a stream of distinct
//! parameters never compiles anything), at any size — except on webgpu operands kept on the
//! device, where it compiles on its first: there every new kernel is a pipeline compile of
//! tens of milliseconds, and the eager run would compile one per operation where the program
//! compiles one fused shader ([`set_compile_first_on_webgpu`] turns this off, for tests that
//! compare the two). A composition that fails to trace,
//! captures constants (they would hold device memory in the cache) or is a single operation
//! stays eager for that key; so does one whose webgpu operands and results are all small and
//! held on the host (`eval_host`) and whose work there is within its budget, while its
//! operands are. The cache is bounded (decision 7),
//! reported by `memoryStats().compiledCalls` and emptied by `clearCaches()`. Compiled programs
//! compute exactly what the eager operations do: the same kernels, fused, with a fusion
//! barrier before every float reduction whose operand is computed (`lower::barrier`: fusing it
//! could change the reduction's summation order), so `random.maxwell`'s sum of squares sums
//! the buffer of squares as eagerly; `tests/api/compiled_calls.test.mjs` compares the bits.

use std::rc::Rc;

use super::jit::Compiled;
use super::trace::{self, Value};
use crate::core::{Aval, Device};
use crate::lower::Fusion;
use crate::util::lru::{CacheStats, Lru};
use crate::util::panic_cell::PanicCell;
use crate::util::Result;

/// The most keys remembered.
pub const CAPACITY: usize = 128;

/// What one eager call of a composition is: the caller's tag (which composition), its
/// parameters as bits, and per array operand its aval, device and whether it is committed.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    tag: String,
    params: Vec<u64>,
    arrays: Vec<(Aval, Device, bool)>,
}

#[derive(Clone)]
enum Entry {
    /// Called eagerly once.
    Seen,
    /// Runs eagerly: not traceable, captures constants, or one operation.
    Eager,
    /// Called eagerly on webgpu operands held on the host, and every result was too, within
    /// the host's budget of work in all (`eval_host`): runs eagerly, on the host, while its
    /// operands are; compiles otherwise.
    Host,
    Compiled(Rc<Compiled>),
}

#[derive(Default, Clone, Copy)]
struct Counters {
    compiles: u64,
    runs: u64,
}

thread_local! {
    static CACHE: PanicCell<Lru<Key, Entry>> = PanicCell::new(Lru::new(CAPACITY));
    static COUNTERS: PanicCell<Counters> = PanicCell::new(Counters::default());
    /// The frame a composition is being traced in by [`compile`], if any.
    static COMPILING: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// Whether a key on webgpu operands kept on the device compiles on its first call.
    static COMPILE_FIRST_ON_WEBGPU: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether keys on webgpu operands kept on the device compile on their first call (the
/// default) or, as elsewhere, on their second (for tests comparing eager and compiled bits).
pub fn set_compile_first_on_webgpu(on: bool) {
    COMPILE_FIRST_ON_WEBGPU.with(|c| c.set(on));
}

/// Whether trace `frame` is a composition being compiled for eager calls: its program only
/// ever runs on concrete arrays, so nothing will differentiate it (compositions may leave out
/// derivative terms that are zero in value).
pub fn evaluated_only(frame: u64) -> bool {
    COMPILING.with(|c| c.get() == Some(frame))
}

/// The cache's counters and how many compositions were compiled and how many calls ran compiled.
pub fn stats() -> (CacheStats, u64, u64) {
    let c = COUNTERS.with(|c| *c.borrow());
    (CACHE.with(|c| c.borrow().stats()), c.compiles, c.runs)
}

/// Forgets every key and its program (`clearCaches()`).
pub fn clear() {
    let old = CACHE.with(|c| std::mem::replace(&mut *c.borrow_mut(), Lru::new(CAPACITY)));
    drop(old);
}

/// Runs composition `f` on `arrays`: eagerly, or as the program it was compiled into for this
/// key (see the module comment). `tag` names the composition and `params` are every other
/// input `f` depends on; `f` must depend on nothing else. Inside a trace, or on tracers, `f`
/// simply runs.
pub fn run(
    tag: &str,
    params: &[f64],
    arrays: &[Value],
    f: impl Fn(&[Value]) -> Result<Vec<Value>>,
) -> Result<Vec<Value>> {
    let Some(key) = key(tag, params, arrays) else {
        return f(arrays);
    };
    let mut found = CACHE.with(|c| c.borrow_mut().get(&key).cloned());
    let on_host = held_on_host(arrays);
    let on_gpu = key.arrays.iter().any(|a| a.1 == Device::WebGpu);
    if found.is_none() && on_gpu && !on_host && COMPILE_FIRST_ON_WEBGPU.with(|c| c.get()) {
        found = Some(Entry::Seen);
    }
    match found {
        None => {
            let terms = super::eval_host::terms_done();
            let outs = f(arrays)?;
            let terms = super::eval_host::terms_done().saturating_sub(terms);
            let within = terms <= super::eval_host::MAX_TERMS;
            let entry = if on_host && within && held_on_host(&outs) {
                Entry::Host
            } else {
                Entry::Seen
            };
            insert(key, entry);
            Ok(outs)
        }
        Some(Entry::Eager) => f(arrays),
        Some(Entry::Host) if on_host => f(arrays),
        Some(Entry::Compiled(c)) => {
            COUNTERS.with(|n| n.borrow_mut().runs += 1);
            c.call(arrays)
        }
        Some(Entry::Seen | Entry::Host) => match compile(tag, arrays, &f) {
            Some(c) => {
                let c = Rc::new(c);
                insert(key, Entry::Compiled(c.clone()));
                COUNTERS.with(|n| {
                    let mut n = n.borrow_mut();
                    n.compiles += 1;
                    n.runs += 1;
                });
                c.call(arrays)
            }
            None => {
                insert(key, Entry::Eager);
                f(arrays)
            }
        },
    }
}

/// Whether every value is a webgpu array held on the host (`eval_host::candidate`).
fn held_on_host(values: &[Value]) -> bool {
    let concrete: Option<Vec<&super::ArrayValue>> = values
        .iter()
        .map(|v| match v {
            Value::Concrete(c) if c.device == Device::WebGpu => Some(c),
            _ => None,
        })
        .collect();
    concrete.is_some_and(|c| super::eval_host::candidate(Device::WebGpu, &c))
}

fn insert(key: Key, entry: Entry) {
    let evicted = CACHE.with(|c| c.borrow_mut().insert(key, entry));
    drop(evicted); // outside the borrow
}

/// The key of an eager call, or None when something is being traced or the call's results
/// could land on another device compiled than eagerly.
fn key(tag: &str, params: &[f64], arrays: &[Value]) -> Option<Key> {
    if arrays.is_empty() || trace::top_frame().is_some() {
        return None;
    }
    let arrays = arrays
        .iter()
        .map(|v| match v {
            Value::Concrete(c) => Some((c.aval.clone(), c.device, c.committed)),
            Value::Tracer(_) => None,
        })
        .collect::<Option<Vec<_>>>()?;
    // With no committed operand, eager operations without operands run on the placement of
    // the call (`scope`), a compiled program on its first operand's device: they agree only
    // when the operands live there.
    let placed = super::scope::device();
    if arrays.iter().all(|a| !a.2) && arrays.iter().any(|a| a.1 != placed) {
        return None;
    }
    Some(Key {
        tag: tag.to_string(),
        params: params.iter().map(|x| x.to_bits()).collect(),
        arrays,
    })
}

/// `f` traced on tracers like `arrays`, if it traces, captures no constants and is more than
/// one operation.
fn compile(
    tag: &str,
    arrays: &[Value],
    f: &impl Fn(&[Value]) -> Result<Vec<Value>>,
) -> Option<Compiled> {
    let avals: Vec<Aval> = arrays.iter().map(|v| v.aval().clone()).collect();
    let device = arrays.iter().find_map(|v| match v {
        Value::Concrete(c) if c.committed => Some(c.device),
        _ => None,
    });
    let device = device.or_else(|| match &arrays[0] {
        Value::Concrete(c) => Some(c.device),
        Value::Tracer(_) => None,
    });
    let (frame, tracers) = trace::begin(&avals);
    trace::set_device(frame, device);
    let tracers: Vec<Value> = tracers.into_iter().map(Value::Tracer).collect();
    let outer = COMPILING.with(|c| c.replace(Some(frame)));
    let result = f(&tracers);
    COMPILING.with(|c| c.set(outer));
    let closed = match result {
        Ok(outs) => trace::end(tag, frame, &outs).ok()?,
        Err(_) => {
            trace::abort(frame);
            return None;
        }
    };
    let j = &closed.jaxpr;
    if !closed.consts.is_empty() || j.eqns.len() < 2 {
        return None;
    }
    Some(Compiled::with_fusion(closed, Fusion::Barriers))
}
