//! Fusion barriers: which values a Program lowered with [`Fusion::Barriers`] computes as kernels
//! of their own so that every float reduction sums exactly what its eager application sums.
//!
//! The order in which a reduction combines its values (`kernel::order`) depends on its kernel's
//! expression and on its loads' strides in the reduction index. Eagerly, a reduction's operand
//! is a buffer (read in place through views); fused, a computed operand becomes part of the
//! reducing kernel's expression, which may choose another order — a sum of `x · x` accumulates
//! in float32 where the eager sum of the buffer `x · x` accumulates in float64. A barrier keeps
//! the computed value the reduction reads, before any views of it, as a kernel of its own: the
//! reduction then loads a buffer through the same views as eagerly, so its kernel, and its
//! order, are the eager one. Values the order cannot depend on stay fused (integer and max/min
//! reductions, and operands that are views of the program's inputs or of literals).
//!
//! Library compositions called eagerly run as Programs lowered this way
//! (`transform::eager_jit`), so compiled and eager calls give the same bits; `jit` lowers with
//! [`Fusion::Full`].

use std::collections::HashSet;

use crate::core::jaxpr::{Atom, Jaxpr, Var};
use crate::core::ops::ReduceOp;
use crate::core::Primitive;

/// How freely a Jaxpr's values fuse into the reductions that read them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Fusion {
    /// Every value fuses into its consumers where that does not multiply work.
    #[default]
    Full,
    /// As `Full`, except that the computed operands of float reductions whose order fusion
    /// could change are kept as kernels of their own ([`sources`]).
    Barriers,
}

/// Whether `prim`, with a float result when `float_out`, combines values in an order that its
/// kernel's expression decides: float sums and products (also cumulative), matrix products and
/// convolutions.
pub fn reorderable(prim: &Primitive, float_out: bool) -> bool {
    match prim {
        Primitive::Reduce { op, .. } | Primitive::Cumulative { op, .. } => {
            matches!(op, ReduceOp::Sum | ReduceOp::Prod) && float_out
        }
        Primitive::Matmul | Primitive::Conv(_) => true,
        _ => false,
    }
}

/// Movement primitives, which eager evaluation applies as views of their operand.
fn view(prim: &Primitive) -> bool {
    matches!(
        prim,
        Primitive::Reshape(_)
            | Primitive::Transpose(_)
            | Primitive::Broadcast { .. }
            | Primitive::Shrink(_)
            | Primitive::Flip(_)
    )
}

/// The variables that must be materialised as they are computed: for each operand of a
/// [`reorderable`] equation that some equation computes, the computed value its views start
/// from. A value is computed when a non-view equation makes it, or a view of a computed value;
/// the program's inputs and views of them or of literals are not.
pub fn sources(j: &Jaxpr) -> HashSet<Var> {
    // Per variable: the computed value it is a view of (itself when computed by a non-view).
    let mut origin: Vec<Option<Var>> = vec![None; j.avals.len()];
    let mut out = HashSet::new();
    for e in &j.eqns {
        let from = |a: &Atom| match a {
            Atom::Var(v) => origin[v.0 as usize],
            Atom::Literal(..) => None,
        };
        let float_out = e
            .outputs
            .iter()
            .any(|v| j.avals[v.0 as usize].dtype.is_float());
        if reorderable(&e.primitive, float_out) {
            out.extend(e.inputs.iter().filter_map(from));
        }
        let viewed = if view(&e.primitive) {
            e.inputs.iter().find_map(from)
        } else {
            None
        };
        for &v in &e.outputs {
            origin[v.0 as usize] = if view(&e.primitive) { viewed } else { Some(v) };
        }
    }
    out
}
