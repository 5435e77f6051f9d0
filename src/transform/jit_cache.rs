//! The global cache of lowered Programs (decision 7): bounded (LRU), keyed by a Jaxpr's
//! structural key, the device and how it fuses (`lower::Fusion`), so a fresh closure of the same code reuses the Program (with
//! its runtime state, `runnable`). Counters are reported by `memoryStats()` and
//! `getCacheSizes()`; `clearCaches()` empties it. For `setDebug`, [`lower_logged`] records the
//! Programs lowered here and the scan bodies `scan_fused` plans (and, at level 3, the Program
//! after each lowering pass).

use crate::util::panic_cell::PanicCell;
use std::rc::Rc;

use super::runnable::Runnable;
use crate::backend::registry;
use crate::core::jaxpr::Jaxpr;
use crate::core::key::StructuralKey;
use crate::core::Device;
use crate::lower::{self, Fusion};
use crate::util::lru::{CacheStats, Lru};

/// The most Programs kept.
pub const CAPACITY: usize = 256;

thread_local! {
    static PROGRAMS: PanicCell<Lru<(StructuralKey, Device, Fusion), Rc<Runnable>>> = PanicCell::new(Lru::new(CAPACITY));
    /// Programs lowered since the last [`take_lowered`] (for `setDebug` logs).
    static LOWERED: PanicCell<Vec<Lowered>> = const { PanicCell::new(Vec::new()) };
    /// The `setDebug` level: 0 records nothing, 1 and up each lowered Program, 3 and up also
    /// the Program after each pass.
    static LOG: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A Program lowered while logging was on.
pub struct Lowered {
    /// What was lowered: `"program"` (a jitted program) or `"scan body"`.
    pub what: &'static str,
    pub device: Device,
    pub program: lower::Program,
    /// Each pass's name and the Program after it (`Program::describe`), at level 3.
    pub passes: Vec<(&'static str, String)>,
}

/// The Program of `jaxpr` (whose structural key is `key`) for `device`, lowered with `fusion`.
pub fn get_or_lower(
    key: &StructuralKey,
    jaxpr: &Jaxpr,
    device: Device,
    fusion: Fusion,
) -> Rc<Runnable> {
    let k = (key.clone(), device, fusion);
    if let Some(p) = PROGRAMS.with(|c| c.borrow_mut().get(&k).cloned()) {
        return p;
    }
    let limits = registry::limits(device);
    let lowered = lower_logged("program", device, jaxpr, limits, fusion);
    let program = Rc::new(Runnable::new(lowered));
    PROGRAMS.with(|c| c.borrow_mut().insert(k, program.clone()));
    program
}

/// [`lower::lower_traced`] of `jaxpr` (a jitted program or a scan body, `what`) for `device`,
/// whose limits are `limits`, with `fusion`; while logging is on, the lowered Program is
/// recorded (at level 3 with the Program after each pass) for [`take_lowered`].
pub fn lower_logged(
    what: &'static str,
    device: Device,
    jaxpr: &Jaxpr,
    limits: crate::kernel::DeviceLimits,
    fusion: Fusion,
) -> lower::Program {
    let level = LOG.with(|l| l.get());
    if level == 0 {
        return lower::lower_traced(jaxpr, limits, fusion, &mut |_, _| {});
    }
    let mut passes = Vec::new();
    let mut after = |name: &'static str, p: &lower::Program| {
        if level >= 3 {
            passes.push((name, p.describe()));
        }
    };
    let program = lower::lower_traced(jaxpr, limits, fusion, &mut after);
    LOWERED.with(|l| {
        l.borrow_mut().push(Lowered {
            what,
            device,
            program: program.clone(),
            passes,
        })
    });
    program
}

pub fn stats() -> CacheStats {
    PROGRAMS.with(|c| c.borrow().stats())
}

pub fn clear() {
    PROGRAMS.with(|c| c.borrow_mut().clear());
}

/// Sets what is recorded of newly lowered Programs (the `setDebug` level; 0: nothing).
pub fn set_logging(level: u32) {
    LOG.with(|l| l.set(level));
    if level == 0 {
        LOWERED.with(|l| l.borrow_mut().clear());
    }
}

/// The Programs lowered since the last call.
pub fn take_lowered() -> Vec<Lowered> {
    LOWERED.with(|l| std::mem::take(&mut *l.borrow_mut()))
}
