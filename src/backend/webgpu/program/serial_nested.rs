//! Scans nested in the body of the serial shader (`serial`): a nested loop
//! (`LoopStep::Loop`, `kernel/device_program.rs`) is a `for` loop inside the step of its
//! enclosing loop, in the same invocation. Its slots are the enclosing slots' local arrays:
//! its consts and temps those arrays, its x and y rows rows of them at the nested loop's row
//! (`ox_r1`, `ox_r2`, … one level down and so on: dynamic indices into a local array), its
//! carries the enclosing temps the planner gave them, copied from the initial carries before
//! the loop, from the carry written to the carry read at the end of each of its steps, and
//! into the final carries after it.

use std::fmt::Write;

use super::serial::{float32_kernel, kernel_code, Name};
use crate::backend::webgpu::loop_budget::exp_loops;
use crate::backend::webgpu::wgsl_alu::Emitter;
use crate::core::DType;
use crate::kernel::device_program::{DeviceProgram, LoopBody, LoopSlot, LoopStep, SlotRole};
use crate::util::{Error, Result};

/// The most loops nested inside one another that the serial shader runs.
const MAX_DEPTH: u8 = 3;

/// Element-terms of the code of one step of `body` (a nested loop's body counted once: it is
/// emitted once), or None when a step is not a float32 kernel or such a nested loop.
pub(super) fn body_terms(body: &LoopBody) -> Option<usize> {
    body_terms_at(body, 0)
}

fn body_terms_at(body: &LoopBody, depth: u8) -> Option<usize> {
    let mut terms = 0usize;
    for step in &body.steps {
        terms = terms.saturating_add(match step {
            LoopStep::Kernel { kernel, .. } if float32_kernel(kernel) => {
                kernel.size * kernel.reduction.map_or(1, |r| r.size.max(1))
            }
            LoopStep::Loop { inner, .. } if depth < MAX_DEPTH => {
                let slots = &inner.body.slots;
                if slots
                    .iter()
                    .any(|s| s.dtype != DType::Float32 || s.elements == 0)
                {
                    return None;
                }
                body_terms_at(&inner.body, depth + 1)?
            }
            _ => return None,
        });
    }
    Some(terms)
}

/// Loop iterations one step of `body` may run (its kernels' expression loops, and each nested
/// loop's steps), for adapters with a loop limit (`loop_budget`).
pub(super) fn step_loops(body: &LoopBody) -> usize {
    body.steps
        .iter()
        .map(|step| match step {
            LoopStep::Kernel { kernel, .. } => {
                let terms = kernel.reduction.map_or(1, |r| r.size.max(1));
                let epilogue = kernel.epilogue.as_ref().map_or(0, exp_loops);
                kernel.size * (terms * exp_loops(&kernel.exp) + epilogue)
            }
            LoopStep::Loop { inner, .. } => inner
                .length
                .saturating_mul(step_loops(&inner.body).saturating_add(1))
                .saturating_add(1),
            LoopStep::Routine { .. } => 0,
        })
        .fold(0, usize::saturating_add)
}

/// Where a nested loop's slots are in its enclosing body: inner slot `s` is enclosing slot
/// `slots[s]`, carry `k` starts from `init[k]` and ends in `finals[k]`; `depth` is its loop
/// depth (1: inside the scan's own step).
pub(super) struct At<'a> {
    pub slots: &'a [LoopSlot],
    pub init: &'a [LoopSlot],
    pub finals: &'a [LoopSlot],
    pub depth: u8,
}

/// `n` words copied from `from` to `to`.
fn copy(to: &Name, from: &Name, n: usize) -> String {
    let at = |(array, offset): &Name, w: usize| match offset.as_str() {
        "0u" => format!("{array}[{w}u]"),
        o => format!("{array}[{o} + {w}u]"),
    };
    (0..n)
        .map(|w| format!("    {} = {};\n", at(to, w), at(from, w)))
        .collect()
}

/// The statements of nested loop `inner` placed by `at` over the enclosing slots `outer`.
pub(super) fn loop_code(
    e: &mut Emitter,
    inner: &DeviceProgram,
    at: &At<'_>,
    outer: &[Name],
) -> Result<String> {
    let body = &inner.body;
    let d = at.depth;
    let row = format!("ox_r{d}");
    let name = |s: usize| -> Result<Name> {
        let (array, offset) = at
            .slots
            .get(s)
            .and_then(|&o| outer.get(o))
            .cloned()
            .ok_or_else(|| Error::new("scan", "internal error: a nested slot is unmapped"))?;
        Ok(match body.slots[s].role {
            SlotRole::XRow(_) | SlotRole::YRow(_) => {
                let n = body.slots[s].elements;
                let offset = match offset.as_str() {
                    "0u" => format!("{row} * {n}u"),
                    o => format!("{o} + {row} * {n}u"),
                };
                (array, offset)
            }
            _ => (array, offset),
        })
    };
    let names = (0..body.slots.len())
        .map(name)
        .collect::<Result<Vec<Name>>>()?;
    let mut code = String::new();
    let carries: Vec<(usize, usize, usize)> = (0..body.num_carry)
        .map(|k| {
            let (cin, cout) = (body.carry_in(k), body.carry_out(k));
            (cin, cout, body.slots[cin].elements)
        })
        .collect();
    for (k, &(cin, _, n)) in carries.iter().enumerate() {
        code.push_str(&copy(&names[cin], &outer[at.init[k]], n));
    }
    let length = inner.length as u32;
    let row_of = match inner.reverse {
        true => format!("{}u - ox_s{d}", length.saturating_sub(1)),
        false => format!("ox_s{d}"),
    };
    writeln!(
        code,
        "    for (var ox_s{d}: u32 = 0u; ox_s{d} < {length}u; ox_s{d} = ox_s{d} + 1u) {{\n    let {row} = {row_of};"
    )
    .unwrap();
    for step in &body.steps {
        match step {
            LoopStep::Kernel {
                kernel,
                inputs,
                output,
            } => code.push_str(&kernel_code(e, kernel, inputs, &names, &names[*output])?),
            LoopStep::Loop {
                inner,
                slots,
                init,
                finals,
            } => {
                let deeper = At {
                    slots,
                    init,
                    finals,
                    depth: d + 1,
                };
                code.push_str(&loop_code(e, inner, &deeper, &names)?);
            }
            LoopStep::Routine { .. } => {
                return Err(Error::new(
                    "scan",
                    "internal error: a routine in a serial loop",
                ))
            }
        }
    }
    for &(cin, cout, n) in &carries {
        code.push_str(&copy(&names[cin], &names[cout], n));
    }
    code.push_str("    }\n");
    for (k, &(cin, _, n)) in carries.iter().enumerate() {
        code.push_str(&copy(&outer[at.finals[k]], &names[cin], n));
    }
    Ok(code)
}
