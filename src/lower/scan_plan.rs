//! Planning a compiled scan loop (ARCHITECTURE.md decision 6): the body Jaxpr is lowered like any
//! jitted program (fusion, splitting to the device's limits, then [`super::PASSES`], through
//! the caller's [`Lowering`] so that `setDebug(3)` dumps each pass), then turned
//! into a [`LoopBody`] whose steps are kernels, routines and nested loops over slots with roles
//! (`kernel/device_program.rs`). A nested scan is planned recursively (its body must be plannable
//! too); its carries and temps get temp slots of the enclosing body. A body with a step that
//! is none of these (a primitive without a kernel) is not compilable: [`plan`] says why, and
//! the scan runs as a host loop.
//!
//! The body's outputs are normalised so that every carry-out and y-row slot is written by
//! exactly one step of its own: an output that is an input slot (a carry passed through, an
//! x row returned as y), a literal, or a slot already used by another output gets a copy (or
//! constant) kernel.
//!
//! Bodies of more than [`MAX_BODY_EQNS`] equations per step are not planned at all: lowering
//! and emitting one costs kilobytes of the wasm heap per equation, and the heap never shrinks,
//! so bodies of hundreds of thousands of equations (a few 64×64 SVDs) would reach the 4 GB
//! wasm32 limit. They run as the host loop, which evaluates the body equation by equation
//! with the device's kernels and needs no plan.

use super::fuse::literal;
use super::program::{Arg, Program, Step};
use super::Lowering;
use crate::core::jaxpr::Jaxpr;
use crate::core::scan::ScanParams;
use crate::core::{Aval, Primitive};
use crate::kernel::device_program::{
    DeviceProgram, LoopBody, LoopSlot, LoopStep, SlotInfo, SlotRole,
};
use crate::kernel::{AluExp, DeviceLimits, Kernel};
use crate::rules;

/// A scan body as a loop program, or why it cannot be one.
pub type ScanPlan = std::result::Result<LoopBody, String>;

fn info(role: SlotRole, aval: &Aval) -> SlotInfo {
    SlotInfo {
        role,
        dtype: aval.dtype,
        elements: aval.size(),
    }
}

/// The most equations per step a compiled loop is planned for (nested scan bodies counted
/// once each, as they are emitted once): a jitted 32×32 eigh (57,500 equations, 15,900 kernels
/// after fusion) stays under it, a 64×64 eigh (128,000) or SVD (219,000) does not.
pub const MAX_BODY_EQNS: usize = 65_536;

/// The equations of `jaxpr` and of every scan body nested in it.
pub fn body_eqns(jaxpr: &Jaxpr) -> usize {
    jaxpr
        .eqns
        .iter()
        .map(|e| match &e.primitive {
            Primitive::Scan(q) => 1 + body_eqns(q.body.jaxpr()),
            _ => 1,
        })
        .sum()
}

/// Plans the loop of scan `p` for a device with `limits`.
pub fn plan(p: &ScanParams, limits: DeviceLimits) -> ScanPlan {
    plan_with(p, limits, &mut super::lower)
}

/// [`plan`], lowering the body (and every nested scan's) with `lowering`.
pub fn plan_with(p: &ScanParams, limits: DeviceLimits, lowering: Lowering) -> ScanPlan {
    let jaxpr = p.body.jaxpr();
    let eqns = body_eqns(jaxpr);
    if eqns > MAX_BODY_EQNS {
        return Err(format!(
            "the body has {eqns} equations per step (nested scans included), more than the \
             {MAX_BODY_EQNS} a compiled loop is planned for (its module would need too much memory)"
        ));
    }
    let program = lowering(jaxpr, limits);
    let (nc, nk, nx) = (p.num_consts, p.num_carry, p.num_xs());
    let mut slots: Vec<SlotInfo> = program
        .avals
        .iter()
        .enumerate()
        .map(|(s, aval)| {
            let role = match s {
                s if s < nc => SlotRole::Const(s),
                s if s < nc + nk => SlotRole::CarryIn(s - nc),
                s if s < nc + nk + nx => SlotRole::XRow(s - nc - nk),
                _ => SlotRole::Temp,
            };
            info(role, aval)
        })
        .collect();
    let mut steps = loop_steps(&program, &mut slots, limits, lowering)?;
    // Normalise the outputs: each carry-out / y-row slot is a computed slot of its own.
    let out_avals: Vec<Aval> = jaxpr.outs.iter().map(|o| jaxpr.aval(o).clone()).collect();
    own_outputs(
        program.inputs,
        &mut slots,
        &mut steps,
        &program.outputs,
        &out_avals,
        |j| {
            if j < nk {
                SlotRole::CarryOut(j)
            } else {
                SlotRole::YRow(j - nk)
            }
        },
    );
    Ok(LoopBody {
        slots,
        steps,
        num_consts: nc,
        num_carry: nk,
        num_xs: nx,
        num_ys: p.num_ys(),
        rows: vec![],
    })
}

/// The steps of a lowered `program` as loop steps: its kernels, its fallback steps that are
/// routines (`rules::routine`) on slots, and its scans as nested loops (planned for `limits`,
/// their carries and temps new temp slots in `slots`, their bodies lowered with `lowering`);
/// Err says which step is none of these.
pub(super) fn loop_steps(
    program: &Program,
    slots: &mut Vec<SlotInfo>,
    limits: DeviceLimits,
    lowering: Lowering,
) -> Result<Vec<LoopStep>, String> {
    let mut steps = Vec::with_capacity(program.steps.len());
    for step in &program.steps {
        match step {
            Step::Kernel {
                kernel,
                inputs,
                output,
            } => steps.push(LoopStep::Kernel {
                kernel: kernel.clone(),
                inputs: inputs.clone(),
                output: *output,
            }),
            Step::Fallback {
                primitive,
                inputs,
                outputs,
            } => {
                if let crate::core::Primitive::Scan(q) = primitive {
                    let avals = &program.avals;
                    steps.push(nested(q, inputs, outputs, avals, slots, limits, lowering)?);
                    continue;
                }
                if !rules::routine::is_routine(primitive) {
                    return Err(format!(
                        "the body's {} has no kernel or routine",
                        primitive.name()
                    ));
                }
                let ins = slot_args(inputs, primitive.name())?;
                let avals: Vec<&Aval> = ins.iter().map(|&s| &program.avals[s]).collect();
                let routine = rules::routine::routine(primitive, &avals)
                    .map_err(|e| e.message().to_string())?;
                steps.push(LoopStep::Routine {
                    routine,
                    inputs: ins,
                    outputs: outputs.clone(),
                });
            }
        }
    }
    Ok(steps)
}

/// Makes every output of a lowered body a computed slot of its own, with the role
/// `role(j)` for output `j`: an output that is a temp written by a step takes the role; one
/// that is an input slot, a literal, or a slot already taken by another output gets a copy (or
/// constant) kernel writing a new slot.
pub(super) fn own_outputs(
    inputs: usize,
    slots: &mut Vec<SlotInfo>,
    steps: &mut Vec<LoopStep>,
    outputs: &[Arg],
    out_avals: &[Aval],
    role: impl Fn(usize) -> SlotRole,
) {
    for (j, (out, aval)) in outputs.iter().zip(out_avals).enumerate() {
        let (exp, input) = match out {
            Arg::Slot(s) if *s >= inputs && slots[*s].role == SlotRole::Temp => {
                slots[*s].role = role(j);
                continue;
            }
            Arg::Slot(s) => (AluExp::load(aval.dtype, 0, AluExp::index()), Some(*s)),
            Arg::Literal(x, _) => (literal(*x, aval.dtype), None),
        };
        slots.push(info(role(j), aval));
        steps.push(LoopStep::Kernel {
            kernel: Kernel::elementwise(
                input.iter().map(|&s| slots[s].dtype).collect(),
                aval.size(),
                exp,
            ),
            inputs: input.into_iter().collect(),
            output: slots.len() - 1,
        });
    }
}

/// The enclosing slot of each argument, or why one is a literal.
fn slot_args(inputs: &[Arg], what: &str) -> std::result::Result<Vec<LoopSlot>, String> {
    inputs
        .iter()
        .map(|a| match a {
            Arg::Slot(s) => Ok(*s),
            Arg::Literal(..) => Err(format!("{what} of a literal")),
        })
        .collect()
}

/// A scan nested in the body (`inputs`: consts ++ init ++ xs, `outputs`: finals ++ ys, slots
/// of the enclosing program with `avals`) as a [`LoopStep::Loop`], its body lowered with
/// `lowering`; its carries and temps get new temp slots in `slots`.
fn nested(
    q: &ScanParams,
    inputs: &[Arg],
    outputs: &[LoopSlot],
    avals: &[Aval],
    slots: &mut Vec<SlotInfo>,
    limits: DeviceLimits,
    lowering: Lowering,
) -> std::result::Result<LoopStep, String> {
    if !q.accept.fused {
        return Err("a nested scan's acceptPath does not list 'fused'".into());
    }
    let body = plan_with(q, limits, lowering)
        .map_err(|why| format!("a nested scan is not compilable: {why}"))?;
    let ins = slot_args(inputs, "a nested scan")?;
    let (nc, nk) = (q.num_consts, q.num_carry);
    let mut map = Vec::with_capacity(body.slots.len());
    for info in &body.slots {
        let (outer, stacked) = match info.role {
            SlotRole::Const(j) => (ins[j], false),
            SlotRole::XRow(j) => (ins[nc + nk + j], true),
            SlotRole::YRow(j) => (outputs[nk + j], true),
            SlotRole::CarryIn(_) | SlotRole::CarryOut(_) | SlotRole::Temp => {
                slots.push(SlotInfo {
                    role: SlotRole::Temp,
                    ..*info
                });
                map.push(slots.len() - 1);
                continue;
            }
        };
        let want = info.elements * if stacked { q.length } else { 1 };
        if avals[outer].size() != want || avals[outer].dtype != info.dtype {
            return Err("a nested scan's operand does not match its body".into());
        }
        map.push(outer);
    }
    Ok(LoopStep::Loop {
        inner: DeviceProgram {
            body: std::rc::Rc::new(body),
            length: q.length,
            reverse: q.reverse,
        },
        slots: map,
        init: ins[nc..nc + nk].to_vec(),
        finals: outputs[..nk].to_vec(),
    })
}
