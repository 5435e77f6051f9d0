//! Planning a compiled scan loop (DESIGN.md decision 6): the body Jaxpr is lowered like any
//! jitted program ([`super::lower`]: fusion, splitting to the device's limits), then turned
//! into a [`LoopBody`] whose steps are kernels and routines over slots with roles
//! (`kernel/scan_loop.rs`). A body with a step that is neither (a nested scan, a primitive
//! without a kernel) is not compilable: [`plan`] says why, and the scan runs as a host loop.
//!
//! The body's outputs are normalised so that every carry-out and y-row slot is written by
//! exactly one step of its own: an output that is an input slot (a carry passed through, an
//! x row returned as y), a literal, or a slot already used by another output gets a copy (or
//! constant) kernel.

use super::fuse::literal;
use super::program::{Arg, Step};
use crate::core::scan::ScanParams;
use crate::core::Aval;
use crate::kernel::scan_loop::{LoopBody, LoopStep, SlotInfo, SlotRole};
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

/// Plans the loop of scan `p` for a device with `limits`.
pub fn plan(p: &ScanParams, limits: DeviceLimits) -> ScanPlan {
    let jaxpr = p.body.jaxpr();
    let program = super::lower(jaxpr, limits);
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
                if !rules::routine::is_routine(primitive) {
                    return Err(format!(
                        "the body's {} has no kernel or routine",
                        primitive.name()
                    ));
                }
                let mut ins = Vec::with_capacity(inputs.len());
                for a in inputs {
                    match a {
                        Arg::Slot(s) => ins.push(*s),
                        Arg::Literal(..) => {
                            return Err(format!("{} of a literal", primitive.name()))
                        }
                    }
                }
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
    // Normalise the outputs: each carry-out / y-row slot is a computed slot of its own.
    for (j, out) in program.outputs.iter().enumerate() {
        let role = if j < nk {
            SlotRole::CarryOut(j)
        } else {
            SlotRole::YRow(j - nk)
        };
        let aval = jaxpr.aval(&jaxpr.outs[j]).clone();
        let (exp, input) = match out {
            Arg::Slot(s) if *s >= program.inputs && slots[*s].role == SlotRole::Temp => {
                slots[*s].role = role;
                continue;
            }
            Arg::Slot(s) => (AluExp::load(aval.dtype, 0, AluExp::index()), Some(*s)),
            Arg::Literal(x, _) => (literal(*x, aval.dtype), None),
        };
        slots.push(info(role, &aval));
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
    Ok(LoopBody {
        slots,
        steps,
        num_consts: nc,
        num_carry: nk,
        num_xs: nx,
        num_ys: p.num_ys(),
    })
}
