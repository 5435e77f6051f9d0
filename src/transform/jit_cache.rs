//! The global cache of lowered Programs (decision 7): bounded (LRU), keyed by a Jaxpr's
//! structural key and the device, so a fresh closure of the same code reuses the Program.
//! Counters are reported by `memoryStats()` and `getCacheSizes()`; `clearCaches()` empties it.

use crate::util::panic_cell::PanicCell;
use std::rc::Rc;

use crate::backend::registry;
use crate::core::jaxpr::Jaxpr;
use crate::core::key::StructuralKey;
use crate::core::Device;
use crate::lower::{self, Program};
use crate::util::lru::{CacheStats, Lru};

/// The most Programs kept.
pub const CAPACITY: usize = 256;

thread_local! {
    static PROGRAMS: PanicCell<Lru<(StructuralKey, Device), Rc<Program>>> = PanicCell::new(Lru::new(CAPACITY));
    /// Programs lowered since the last [`take_lowered`] (for `setDebug` logs).
    static LOWERED: PanicCell<Vec<(Device, Rc<Program>)>> = const { PanicCell::new(Vec::new()) };
    static LOG: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The Program of `jaxpr` (whose structural key is `key`) for `device`.
pub fn get_or_lower(key: &StructuralKey, jaxpr: &Jaxpr, device: Device) -> Rc<Program> {
    let k = (key.clone(), device);
    if let Some(p) = PROGRAMS.with(|c| c.borrow_mut().get(&k).cloned()) {
        return p;
    }
    let program = Rc::new(lower::lower(jaxpr, registry::limits(device)));
    if LOG.with(|l| l.get()) {
        LOWERED.with(|l| l.borrow_mut().push((device, program.clone())));
    }
    PROGRAMS.with(|c| c.borrow_mut().insert(k, program.clone()));
    program
}

pub fn stats() -> CacheStats {
    PROGRAMS.with(|c| c.borrow().stats())
}

pub fn clear() {
    PROGRAMS.with(|c| c.borrow_mut().clear());
}

/// Turns recording of newly lowered Programs on or off.
pub fn set_logging(on: bool) {
    LOG.with(|l| l.set(on));
    if !on {
        LOWERED.with(|l| l.borrow_mut().clear());
    }
}

/// The Programs lowered since the last call.
pub fn take_lowered() -> Vec<(Device, Rc<Program>)> {
    LOWERED.with(|l| std::mem::take(&mut *l.borrow_mut()))
}
