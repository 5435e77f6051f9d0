//! Epilogue fusion: elementwise operations on a reduction's result alone (`sum / n` of a mean,
//! `sqrt(var + eps)` of a norm, `relu` of a product) run in the reduction's kernel, as its
//! [`Kernel::epilogue`](crate::kernel::Kernel). The fuser holds a reduction's kernel back as a
//! [`Pending`] value; an elementwise equation whose only array operand is that value (its one
//! use), of the same shape and dtype, with JS numbers as its other operands, becomes part of
//! the epilogue and its result the pending value. Anything else emits the kernel first.

use super::expr::{self, substitute, MAX_DEPTH, MAX_NODES};
use super::fuse::{literal, Fuser};
use crate::core::jaxpr::{Atom, Eqn, Var};
use crate::kernel::{AluExp, AluKind, Reduction};
use crate::rules::{self, Family};

/// A reduction not emitted yet: its expression over slots, and the epilogue so far (input 0 is
/// the reduced value).
pub struct Pending {
    pub exp: AluExp,
    pub size: usize,
    pub reduction: Reduction,
    pub epilogue: Option<AluExp>,
}

/// Folds `eqn` into a pending reduction's epilogue if it qualifies; true when it did.
pub(super) fn fold(f: &mut Fuser, eqn: &Eqn) -> bool {
    let [out] = eqn.outputs.as_slice() else {
        return false;
    };
    if !matches!(rules::family(&eqn.primitive), Family::Elementwise) {
        return false;
    }
    let mut source: Option<Var> = None;
    for a in &eqn.inputs {
        match a {
            Atom::Var(v) if source.is_none() && f.pending.contains_key(v) => source = Some(*v),
            Atom::Var(_) => return false,
            Atom::Literal(..) => {}
        }
    }
    let Some(source) = source else {
        return false;
    };
    let (from, to) = (f.aval(source).clone(), f.aval(*out).clone());
    if f.uses.get(&source) != Some(&1) || from.shape != to.shape || from.dtype != to.dtype {
        return false;
    }
    let ins: Vec<_> = eqn.inputs.iter().map(|a| f.jaxpr_aval(a)).collect();
    let refs: Vec<_> = ins.iter().collect();
    let Ok(kernel) = rules::to_kernel(&eqn.primitive, &refs, &to) else {
        return false;
    };
    if kernel.reduction.is_some() {
        return false;
    }
    let value = f.pending[&source]
        .epilogue
        .clone()
        .unwrap_or_else(|| AluExp::load(from.dtype, 0, AluExp::index()));
    let operands: Vec<AluExp> = eqn
        .inputs
        .iter()
        .map(|a| match a {
            Atom::Var(_) => value.clone(),
            Atom::Literal(x, aval) => literal(*x, aval.dtype),
        })
        .collect();
    let ep = substitute(&kernel.exp, &operands);
    if ep.dtype != from.dtype
        || !reads_value_only(&ep)
        || expr::size(&ep) > MAX_NODES
        || expr::depth(&ep) > MAX_DEPTH
    {
        return false;
    }
    let mut pending = f.pending.remove(&source).expect("checked above");
    pending.epilogue = Some(ep);
    f.pending.insert(*out, pending);
    true
}

/// True when the only loads of `exp` read the reduced value at its own element.
fn reads_value_only(exp: &AluExp) -> bool {
    match &exp.kind {
        AluKind::Load { input, index } => *input == 0 && matches!(index.kind, AluKind::Index),
        AluKind::ReduceIndex => false,
        _ => exp.children().into_iter().all(reads_value_only),
    }
}
