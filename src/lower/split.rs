//! The split pass (decision 5): a fused kernel may bind at most the device's
//! `max_kernel_inputs` buffers. Before an equation's operands are substituted, the fused
//! operands that read the most slots are materialised until the kernel fits; each stored
//! operand then counts as one input. Every fused expression therefore stays within the limit.

use super::expr;
use super::fuse::Fuser;
use crate::core::jaxpr::{Atom, Eqn, Var};

/// Makes the kernel of `eqn` fit the device; false when even fully stored operands are too
/// many (the equation then runs as a fallback step).
pub(super) fn fit(f: &mut Fuser<'_>, eqn: &Eqn) -> bool {
    let max = f.limits.max_kernel_inputs;
    let mut vars: Vec<Var> = Vec::new();
    for a in &eqn.inputs {
        if let Atom::Var(v) = a {
            if !vars.contains(v) {
                vars.push(*v);
            }
        }
    }
    loop {
        let per: Vec<(Var, Vec<usize>)> =
            vars.iter().map(|&v| (v, expr::slots(f.expr(v)))).collect();
        let mut all: Vec<usize> = Vec::new();
        for s in per.iter().flat_map(|(_, s)| s) {
            if !all.contains(s) {
                all.push(*s);
            }
        }
        if all.len() <= max {
            return true;
        }
        // Storing an operand that reads one slot or none would not reduce the count.
        match per
            .iter()
            .filter(|(_, s)| s.len() > 1)
            .max_by_key(|(_, s)| s.len())
        {
            Some(&(v, _)) => {
                f.materialize(v);
            }
            None => return false,
        }
    }
}
