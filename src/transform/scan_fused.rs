//! The compiled path of a scan (path `"fused"`, ARCHITECTURE.md decision 6): the body is planned
//! once per structure and device limits (`lower::scan_plan`, cached here, bounded), the
//! device's backend compiles the loop (`Backend::compile_loop`, cached there) and runs all
//! steps in one call, reading xs rows and writing ys rows in place. When the body is not
//! compilable or the device has no compiled loops, [`try_run`] says why and the caller runs
//! the host loop. Scans nested in the body run inside the same compiled loop (on devices that
//! compile nested loops); [`Outcome::Ran`] lists them ([`nested_runs`]) so that each reports
//! path "fused" too: one path event per nested scan per run of the outer loop, and its runs
//! (once per step of its enclosing scan) in the counters. A nested scan whose `acceptPath`
//! does not list "fused" is never planned inside (`lower::scan_plan`): the outer scan runs
//! as the host loop, and the nested one takes its own path.

use crate::util::panic_cell::PanicCell;
use std::rc::Rc;

use super::ArrayValue;
use super::{eval, jit_cache};
use crate::backend::{registry, BufferId, DeviceBuffer};
use crate::core::jaxpr::Jaxpr;
use crate::core::scan::{Body, ScanParams};
use crate::core::view::ShapeTracker;
use crate::core::{Aval, Device};
use crate::kernel::device_program::{DeviceProgram, LoopBody, LoopBuffers, LoopStep, SlotRole};
use crate::lower::{scan_plan, Fusion};
use crate::util::lru::{CacheStats, Lru};
use crate::util::Result;

const NAME: &str = "scan";

/// The most scan plans kept.
pub const CAPACITY: usize = 128;

/// A planned body, or why it is not compilable.
pub type Planned = std::result::Result<Rc<LoopBody>, Rc<str>>;

thread_local! {
    static PLANS: PanicCell<Lru<(Body, usize), Planned>> = PanicCell::new(Lru::new(CAPACITY));
}

/// The plan of `p`'s body for `device` (cached by body structure and the device's limits).
pub fn plan(p: &ScanParams, device: Device) -> Planned {
    let limits = registry::limits(device);
    let key = (p.body.clone(), limits.max_kernel_inputs);
    if let Some(found) = PLANS.with(|c| c.borrow_mut().get(&key).cloned()) {
        return found;
    }
    // Each body (nested ones too) is lowered through the jit cache's logging lowering, so
    // `setDebug` reports it like a jitted program.
    let mut lowering = |jaxpr: &Jaxpr, limits| {
        jit_cache::lower_logged("scan body", device, jaxpr, limits, Fusion::Full)
    };
    let made: Planned = scan_plan::plan_with(p, limits, &mut lowering)
        .map(Rc::new)
        .map_err(Rc::from);
    PLANS.with(|c| c.borrow_mut().insert(key, made.clone()));
    made
}

pub fn stats() -> CacheStats {
    PLANS.with(|c| c.borrow().stats())
}

/// Empties the plan cache (`clearCaches`; backends drop their compiled loops in
/// `Backend::clear_caches`).
pub fn clear() {
    PLANS.with(|c| c.borrow_mut().clear());
}

/// What [`try_run`] did.
pub enum Outcome {
    /// The loop ran compiled: `final carry ++ ys`, the backend's detail, and the scans nested
    /// in the body ([`nested_runs`]).
    Ran(Vec<ArrayValue>, String, Vec<NestedRun>),
    /// Not compiled, and why (the host loop runs instead).
    NotCompiled(String),
}

/// A scan nested (at any depth) in a compiled loop's body: its length and how many times it
/// ran in one run of the outer loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NestedRun {
    pub length: usize,
    pub runs: u64,
}

/// The scans nested in `body`, depth first, for a loop of `length` steps over it.
pub fn nested_runs(body: &LoopBody, length: usize) -> Vec<NestedRun> {
    let mut out = Vec::new();
    collect(body, length as u64, &mut out);
    out
}

fn collect(body: &LoopBody, runs: u64, out: &mut Vec<NestedRun>) {
    for step in &body.steps {
        if let LoopStep::Loop { inner, .. } = step {
            out.push(NestedRun {
                length: inner.length,
                runs,
            });
            collect(&inner.body, runs.saturating_mul(inner.length as u64), out);
        }
    }
}

fn dense_on(v: &ArrayValue, device: Device) -> Result<ArrayValue> {
    eval::to_device(NAME, v, device)?.materialize(NAME)
}

fn array(aval: &Aval, device: Device, buffer: Rc<DeviceBuffer>, committed: bool) -> ArrayValue {
    ArrayValue {
        view: ShapeTracker::contiguous(&aval.shape),
        aval: aval.clone(),
        device,
        buffer,
        committed,
    }
}

/// Runs scan `p` on `inputs` (`consts ++ init ++ xs`) as a compiled loop on `device`, if the
/// body and the device allow it; `out_avals` are the scan's output avals.
pub fn try_run(
    p: &ScanParams,
    inputs: &[&ArrayValue],
    device: Device,
    out_avals: &[Aval],
) -> Result<Outcome> {
    let body = match plan(p, device) {
        Ok(b) => b,
        Err(why) => return Ok(Outcome::NotCompiled(why.to_string())),
    };
    let lp = DeviceProgram {
        body,
        length: p.length,
        reverse: p.reverse,
    };
    let compiled = registry::with_backend(NAME, device, |b| Ok(b.compile_loop(&lp)))?;
    let (exe, detail) = match compiled {
        Ok(c) => c,
        Err(e) => return Ok(Outcome::NotCompiled(e.message().to_string())),
    };
    let (nc, nk) = (p.num_consts, p.num_carry);
    let dense = inputs
        .iter()
        .map(|v| dense_on(v, device))
        .collect::<Result<Vec<_>>>()?;
    let ys = out_avals[nk..]
        .iter()
        .map(|a| registry::alloc(NAME, device, a.byte_size()))
        .collect::<Result<Vec<_>>>()?;
    let finals = out_avals[..nk]
        .iter()
        .map(|a| registry::alloc(NAME, device, a.byte_size()))
        .collect::<Result<Vec<_>>>()?;
    // Scratch buffers (carries and temps) live until the run has finished; a loop that does
    // not use them gets another buffer of the run in their place.
    let uses_scratch = registry::with_backend(NAME, device, |b| Ok(b.loop_uses_scratch(exe)))?;
    let stand_in = match uses_scratch {
        true => None,
        false => finals.iter().chain(&ys).map(|b| b.id).next(),
    };
    let mut scratch: Vec<Rc<DeviceBuffer>> = Vec::new();
    let mut slots: Vec<BufferId> = Vec::with_capacity(lp.body.slots.len());
    for s in &lp.body.slots {
        slots.push(match s.role {
            SlotRole::Const(j) => dense[j].buffer.id,
            SlotRole::XRow(j) => dense[nc + nk + j].buffer.id,
            SlotRole::YRow(j) => ys[j].id,
            SlotRole::CarryIn(_) | SlotRole::CarryOut(_) | SlotRole::Temp => match stand_in {
                Some(id) => id,
                None => {
                    let b = registry::alloc(NAME, device, s.bytes())?;
                    let id = b.id;
                    scratch.push(b);
                    id
                }
            },
        });
    }
    let init: Vec<BufferId> = dense[nc..nc + nk].iter().map(|v| v.buffer.id).collect();
    let final_ids: Vec<BufferId> = finals.iter().map(|b| b.id).collect();
    registry::with_backend(NAME, device, |b| {
        b.run_loop(
            exe,
            &lp,
            LoopBuffers {
                slots: &slots,
                init: &init,
                finals: &final_ids,
            },
        )
    })?;
    drop(scratch);
    let committed = inputs.iter().any(|v| v.committed);
    let outs = finals
        .into_iter()
        .chain(ys)
        .zip(out_avals)
        .map(|(buffer, aval)| array(aval, device, buffer, committed))
        .collect();
    Ok(Outcome::Ran(outs, detail, nested_runs(&lp.body, p.length)))
}
