//! Eager evaluation of a `scan` equation: the planner tries the device's compiled loop first
//! (`scan_fused`, path `"fused"`), else the host loop (path `"fallback"`). Each host step runs the
//! body Jaxpr through [`eval_jaxpr`] on views of the xs rows, so it works wherever
//! equations are evaluated (eagerly, or from a compiled program that hands `scan` back to the
//! evaluator), whatever traces are open. The ys rows are stacked at the end by concatenates of
//! at most the device's kernel-input limit. Counters and path events feed `memoryStats()` and
//! `setScanPathCallback`; scans nested in a compiled loop are reported after it, one event
//! each per run of the outer loop (`scan_fused::nested_runs`).

use crate::util::panic_cell::PanicCell;

use super::eval::{apply, eval_jaxpr};
use super::scan_fused::{self, Outcome};
use super::ArrayValue;
use crate::backend::registry;
use crate::core::scan::ScanParams;
use crate::core::{Device, Primitive};
use crate::util::{Error, Result};

/// Scan counters (`memoryStats().scan`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScanStats {
    pub fused_runs: u64,
    pub fused_steps: u64,
    pub fallback_runs: u64,
    pub fallback_steps: u64,
}

/// One executed scan, for `setScanPathCallback`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathEvent {
    pub path: &'static str,
    /// The device's name.
    pub device: &'static str,
    pub detail: String,
    pub length: usize,
}

/// Undrained events are capped so a program that never drains them stays bounded.
const MAX_EVENTS: usize = 4096;

#[derive(Default)]
struct State {
    stats: ScanStats,
    reporting: bool,
    events: Vec<PathEvent>,
}

thread_local! {
    static STATE: PanicCell<State> = PanicCell::new(State::default());
}

pub fn stats() -> ScanStats {
    STATE.with(|s| s.borrow().stats)
}

/// Turns path events on (a callback is set) or off (and drops pending ones).
pub fn set_reporting(on: bool) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.reporting = on;
        if !on {
            s.events.clear();
        }
    });
}

/// The events since the last drain, oldest first.
pub fn drain_events() -> Vec<PathEvent> {
    STATE.with(|s| std::mem::take(&mut s.borrow_mut().events))
}

/// Counts `runs` runs of a scan of `length` steps on `path` and reports one path event.
fn record(path: &'static str, device: Device, detail: String, length: usize, runs: u64) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let steps = runs.saturating_mul(length as u64);
        if path == "fused" {
            s.stats.fused_runs += runs;
            s.stats.fused_steps += steps;
        } else {
            s.stats.fallback_runs += runs;
            s.stats.fallback_steps += steps;
        }
        if s.reporting && s.events.len() < MAX_EVENTS {
            s.events.push(PathEvent {
                path,
                device: device.name(),
                detail,
                length,
            });
        }
    });
}

/// Row `i` of `x` (a view: no copy).
fn row(x: &ArrayValue, i: usize) -> Result<ArrayValue> {
    let shape = &x.aval.shape;
    let mut ranges: Vec<(usize, usize)> = shape.iter().map(|&d| (0, d)).collect();
    ranges[0] = (i, i + 1);
    let r = apply(&Primitive::Shrink(ranges), &[x])?;
    apply(&Primitive::Reshape(shape[1..].to_vec()), &[&r])
}

/// `rows` stacked along a new leading axis, by concatenates of at most `fan_in` operands.
fn stack(rows: Vec<ArrayValue>, fan_in: usize) -> Result<ArrayValue> {
    let mut level = rows
        .iter()
        .map(|r| {
            let mut shape = vec![1];
            shape.extend_from_slice(&r.aval.shape);
            apply(&Primitive::Reshape(shape), &[r])
        })
        .collect::<Result<Vec<_>>>()?;
    while level.len() > 1 {
        level = level
            .chunks(fan_in.max(2))
            .map(|c| {
                if c.len() == 1 {
                    Ok(c[0].clone())
                } else {
                    let refs: Vec<&ArrayValue> = c.iter().collect();
                    apply(&Primitive::Concatenate(0), &refs)
                }
            })
            .collect::<Result<Vec<_>>>()?;
    }
    Ok(level.pop().expect("at least one row"))
}

/// Runs a scan equation on concrete operands: `final carry ++ ys`. The device's compiled
/// loop runs it when the body and the device allow (path "fused"); otherwise the host loop
/// (path "fallback"), as far as `acceptPath` allows.
pub fn run(p: &ScanParams, inputs: &[&ArrayValue]) -> Result<Vec<ArrayValue>> {
    let avals: Vec<_> = inputs.iter().map(|v| &v.aval).collect();
    let out_avals = crate::rules::scan::abstract_eval(p, &avals)?;
    for a in &out_avals {
        a.check("scan")?;
    }
    let device = super::eval::device_for("scan", inputs)?;
    let why = if p.accept.fused {
        match scan_fused::try_run(p, inputs, device, &out_avals)? {
            Outcome::Ran(outs, detail, nested) => {
                record("fused", device, detail, p.length, 1);
                for n in nested {
                    let why = format!(
                        "nested in a fused loop: ran {} times inside the enclosing scan's \
                         compiled loop",
                        n.runs
                    );
                    record("fused", device, why, n.length, n.runs);
                }
                return Ok(outs);
            }
            Outcome::NotCompiled(why) => why,
        }
    } else {
        "acceptPath does not list 'fused'".to_string()
    };
    if !p.accept.fallback {
        return Err(Error::new(
            "scan",
            format!(
                "the chosen execution path is 'fallback' (a host loop running the body step by \
                 step, because {why}), which acceptPath does not list"
            ),
        ));
    }
    let result = host_loop(p, inputs, device, &out_avals)?;
    record("fallback", device, format!("host loop: {why}"), p.length, 1);
    Ok(result)
}

/// The host loop: the body Jaxpr evaluated step by step, ys stacked at the end.
fn host_loop(
    p: &ScanParams,
    inputs: &[&ArrayValue],
    device: Device,
    out_avals: &[crate::core::Aval],
) -> Result<Vec<ArrayValue>> {
    let (nc, nk) = (p.num_consts, p.num_carry);
    let consts: Vec<ArrayValue> = inputs[..nc].iter().map(|&v| v.clone()).collect();
    let mut carry: Vec<ArrayValue> = inputs[nc..nc + nk].iter().map(|&v| v.clone()).collect();
    let xs = &inputs[nc + nk..];
    let mut ys: Vec<Vec<ArrayValue>> = vec![Vec::with_capacity(p.length); p.num_ys()];
    for step in 0..p.length {
        let i = if p.reverse { p.length - 1 - step } else { step };
        let mut args = consts.clone();
        args.append(&mut carry);
        for x in xs {
            args.push(row(x, i)?);
        }
        let mut outs = eval_jaxpr(p.body.jaxpr(), &[], &args)?;
        let step_ys = outs.split_off(nk);
        carry = outs;
        for (rows, y) in ys.iter_mut().zip(step_ys) {
            rows.push(y);
        }
    }
    let fan_in = registry::limits(device).max_kernel_inputs.min(16);
    let mut result = carry;
    for (mut rows, aval) in ys.into_iter().zip(&out_avals[nk..]) {
        if p.reverse {
            rows.reverse();
        }
        result.push(if rows.is_empty() {
            ArrayValue::from_bytes("scan", &[], aval.shape.clone(), aval.dtype, device)?
        } else {
            stack(rows, fan_in)?
        });
    }
    Ok(result)
}
