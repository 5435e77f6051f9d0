//! The handle slab: every JS `Array` holds a numeric handle to an entry here (its value — a
//! concrete array or a tracer — and a reference count). A handle is `generation · 2²⁴ + slot`, passed as an f64 (exact up to
//! 2⁵³), so a stale handle to a reused slot is detected instead of reading someone else's data.
//! Also the helpers that turn handle lists into values and back, and [`Table`], the id table
//! of the other Rust objects JS owns.

use crate::util::panic_cell::PanicCell;

use crate::transform::Value;
use crate::util::{Error, Result};

const SLOT_BITS: f64 = 16_777_216.0; // 2^24

struct Entry {
    value: Value,
    rc: u32,
    /// The trace frame that was running when the handle was made: the handle is released when
    /// that trace ends (traces own what is made inside them).
    frame: Option<u64>,
}

struct Slot {
    generation: u32,
    entry: Option<Entry>,
}

#[derive(Default)]
struct Slab {
    slots: Vec<Slot>,
    free: Vec<usize>,
    live: usize,
}

thread_local! {
    static SLAB: PanicCell<Slab> = PanicCell::new(Slab::default());
}

fn decode(handle: f64) -> Option<(usize, u32)> {
    if !(handle.is_finite() && handle >= 0.0 && handle.fract() == 0.0) {
        return None;
    }
    let slot = (handle % SLOT_BITS) as usize;
    let generation = (handle / SLOT_BITS).floor() as u32;
    Some((slot, generation))
}

fn disposed(function: &str) -> Error {
    Error::new(function, "the array has been disposed (use-after-free)")
}

/// Runs `f` with the handle table borrowed (for `debugPanicHoldingState`).
pub(super) fn while_borrowed(f: impl FnOnce()) {
    SLAB.with(|s| {
        let _held = s.borrow_mut();
        f()
    })
}

/// Stores a new value with a reference count of one.
pub fn insert(value: Value) -> f64 {
    SLAB.with(|s| {
        let mut s = s.borrow_mut();
        s.live += 1;
        let frame = crate::transform::trace::top_frame();
        let entry = Some(Entry {
            value,
            rc: 1,
            frame,
        });
        let slot = match s.free.pop() {
            Some(i) => {
                s.slots[i].generation += 1;
                s.slots[i].entry = entry;
                i
            }
            None => {
                s.slots.push(Slot {
                    generation: 0,
                    entry,
                });
                s.slots.len() - 1
            }
        };
        s.slots[slot].generation as f64 * SLOT_BITS + slot as f64
    })
}

/// Runs `f` on the live entry of `handle`; `None` when it is freed (no error is built).
fn try_with_entry<R>(handle: f64, f: impl FnOnce(&mut Entry) -> R) -> Option<R> {
    SLAB.with(|s| {
        let mut s = s.borrow_mut();
        let (slot, generation) = decode(handle)?;
        match s.slots.get_mut(slot) {
            Some(Slot {
                generation: g,
                entry: Some(e),
            }) if *g == generation => Some(f(e)),
            _ => None,
        }
    })
}

/// Runs `f` on the live entry of `handle`, or fails naming `function`.
fn with_entry<R>(function: &str, handle: f64, f: impl FnOnce(&mut Entry) -> R) -> Result<R> {
    try_with_entry(handle, f).ok_or_else(|| disposed(function))
}

/// A clone of the value (cheap: buffers are shared).
pub fn get(function: &str, handle: f64) -> Result<Value> {
    with_entry(function, handle, |e| e.value.clone())
}

/// Runs `f` on the value without cloning it (metadata queries), or fails naming `function`.
pub fn with_value<R>(function: &str, handle: f64, f: impl FnOnce(&Value) -> R) -> Result<R> {
    with_entry(function, handle, |e| f(&e.value))
}

/// The reference count; 0 for a freed handle (asked of every collected `Array`: no error
/// message is formatted for the freed ones).
pub fn ref_count(handle: f64) -> u32 {
    try_with_entry(handle, |e| e.rc).unwrap_or(0)
}

pub fn inc_ref(handle: f64) -> Result<()> {
    with_entry("ref", handle, |e| e.rc += 1)
}

/// Drops one reference; frees the value at zero. Errors on a disposed handle.
pub fn dispose(handle: f64) -> Result<()> {
    let freed = SLAB.with(|s| -> Result<Option<Value>> {
        let mut s = s.borrow_mut();
        let (slot, generation) = decode(handle).ok_or_else(|| disposed("dispose"))?;
        let entry = match s.slots.get_mut(slot) {
            Some(Slot {
                generation: g,
                entry,
            }) if *g == generation && entry.is_some() => entry,
            _ => return Err(disposed("dispose")),
        };
        let e = entry.as_mut().expect("checked above");
        e.rc -= 1;
        if e.rc > 0 {
            return Ok(None);
        }
        let value = entry.take().map(|e| e.value);
        s.free.push(slot);
        s.live -= 1;
        Ok(value)
    })?;
    // The value (and its buffer) drops here, outside the slab borrow.
    drop(freed);
    Ok(())
}

/// Frees every handle to a tracer of `frame`, and every handle made while `frame` was running
/// (called when the trace ends): traces own what is made inside them, so traced code needs no
/// `dispose()`, and a handle kept past the trace reports use-after-free instead of leaking.
pub fn release_frame(frame: u64) {
    let freed = SLAB.with(|s| {
        let mut s = s.borrow_mut();
        let mut freed = Vec::new();
        for i in 0..s.slots.len() {
            let of_frame = match &s.slots[i].entry {
                Some(Entry {
                    value: Value::Tracer(t),
                    ..
                }) if t.frame == frame => true,
                Some(Entry { frame: f, .. }) => *f == Some(frame),
                None => false,
            };
            if of_frame {
                freed.push(s.slots[i].entry.take());
                s.free.push(i);
                s.live -= 1;
            }
        }
        freed
    });
    drop(freed);
}

/// Number of live handles.
pub fn live() -> usize {
    SLAB.with(|s| s.borrow().live)
}

/// The values of `hs`, or an error naming `function` for a disposed one.
pub fn values(function: &str, hs: &[f64]) -> Result<Vec<Value>> {
    hs.iter().map(|&h| get(function, h)).collect()
}

/// The values of `hs`, where a NaN handle stands for none (e.g. a zero cotangent).
pub fn optional_values(function: &str, hs: &[f64]) -> Result<Vec<Option<Value>>> {
    hs.iter()
        .map(|&h| match h.is_nan() {
            true => Ok(None),
            false => get(function, h).map(Some),
        })
        .collect()
}

/// New handles for `values`, in order.
pub fn insert_all(values: impl IntoIterator<Item = Value>) -> Vec<f64> {
    values.into_iter().map(insert).collect()
}

/// Opens a trace on inputs of `avals`: the frame id followed by one tracer handle per input
/// (what `traceBegin`, `vmapBegin` and `scanBegin` return). The trace's tracers report the
/// device of the arrays it was opened on, `args` (see `trace::set_device`).
pub fn begin_trace(avals: &[crate::core::Aval], args: &[Value]) -> Vec<f64> {
    use crate::transform::trace;
    let device_of = |v: &Value| match v {
        Value::Concrete(c) => Some((c.committed, c.device)),
        Value::Tracer(t) => trace::device(t.frame).map(|d| (true, d)),
    };
    let found: Vec<(bool, crate::core::Device)> = args.iter().filter_map(device_of).collect();
    let device = found.iter().find(|f| f.0).or(found.first()).map(|f| f.1);
    let (frame, tracers) = trace::begin(avals);
    trace::set_device(frame, device);
    let mut out = vec![frame as f64];
    out.extend(insert_all(tracers.into_iter().map(Value::Tracer)));
    out
}

/// Rust objects owned by JS through numeric ids (traced Jaxprs, vjp functions, linear maps,
/// jitted functions): ids count up from 1 and are never reused, so a disposed id stays an
/// error. Entries are dropped outside the table's borrow (dropping constants frees buffers).
pub struct Table<T> {
    inner: PanicCell<(u32, std::collections::HashMap<u32, T>)>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            inner: PanicCell::new((1, std::collections::HashMap::new())),
        }
    }
}

impl<T> Table<T> {
    /// Stores `value`; returns its id.
    pub fn insert(&self, value: T) -> u32 {
        let mut t = self.inner.borrow_mut();
        let id = t.0;
        t.0 += 1;
        t.1.insert(id, value);
        id
    }

    /// `f` of entry `id`, or None if it has been disposed.
    pub fn with<R>(&self, id: u32, f: impl FnOnce(&T) -> R) -> Option<R> {
        self.inner.borrow().1.get(&id).map(f)
    }

    /// Takes entry `id` out of the table.
    pub fn take(&self, id: u32) -> Option<T> {
        self.inner.borrow_mut().1.remove(&id)
    }

    /// Runs `f` on entry `id` taken out of the table (it may bind operations, which use the
    /// tables), then puts it back; None if it has been disposed.
    pub fn run<R>(&self, id: u32, f: impl FnOnce(&T) -> R) -> Option<R> {
        let value = self.take(id)?;
        let result = f(&value);
        self.inner.borrow_mut().1.insert(id, value);
        Some(result)
    }

    /// Drops entry `id`; an error names `what` when it was already disposed.
    pub fn dispose(&self, id: u32, what: &str) -> Result<()> {
        match self.take(id) {
            Some(value) => {
                drop(value);
                Ok(())
            }
            None => Err(Error::new(
                "dispose",
                format!("the {what} has already been disposed"),
            )),
        }
    }

    /// The number of live entries (for leak checks).
    pub fn len(&self) -> usize {
        self.inner.borrow().1.len()
    }
}
