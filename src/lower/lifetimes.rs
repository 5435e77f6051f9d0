//! The lifetimes pass: every slot that is not an output is freed right after the step that
//! reads it last (or after the step that writes it, if nothing reads it), so a long program
//! holds only the intermediates it still needs.

use super::program::{Arg, Program, Slot, Step};

fn reads(step: &Step) -> Vec<Slot> {
    match step {
        Step::Kernel { inputs, .. } => inputs.clone(),
        Step::Fallback { inputs, .. } => inputs
            .iter()
            .filter_map(|a| match a {
                Arg::Slot(s) => Some(*s),
                Arg::Literal(..) => None,
            })
            .collect(),
    }
}

fn writes(step: &Step) -> Vec<Slot> {
    match step {
        Step::Kernel { output, .. } => vec![*output],
        Step::Fallback { outputs, .. } => outputs.clone(),
    }
}

/// Fills `program.frees`.
pub fn plan(program: &mut Program) {
    let n = program.avals.len();
    let mut last: Vec<Option<usize>> = vec![None; n];
    for (i, step) in program.steps.iter().enumerate() {
        for s in writes(step) {
            last[s] = last[s].or(Some(i));
        }
        for s in reads(step) {
            last[s] = Some(i);
        }
    }
    let outputs: Vec<Slot> = program
        .outputs
        .iter()
        .filter_map(|a| match a {
            Arg::Slot(s) => Some(*s),
            Arg::Literal(..) => None,
        })
        .collect();
    let mut frees = vec![Vec::new(); program.steps.len()];
    for (slot, at) in last.into_iter().enumerate() {
        if let Some(at) = at.filter(|_| !outputs.contains(&slot)) {
            frees[at].push(slot);
        }
    }
    program.frees = frees;
}
