//! The `sort` primitive: abstract evaluation and the [`Routine`] that computes it (stable,
//! ascending, NaN last, along the last axis; `kernel::RoutineKind::Sort`), and its reverse-mode
//! rule. Sorting along another axis, and argsort, are compositions in `library::indexing`.

use super::emit::Emit;
use super::lax;
use crate::core::{Aval, DType};
use crate::kernel::{Routine, RoutineKind};
use crate::util::{Error, Result};

/// The avals of `sort`'s outputs: the sorted values and the int32 permutation.
pub fn abstract_eval(inputs: &[&Aval]) -> Result<Vec<Aval>> {
    if inputs.len() != 1 {
        return Err(Error::new(
            "sort",
            format!("expected 1 operand, got {}", inputs.len()),
        ));
    }
    let x = inputs[0];
    if x.shape.is_empty() {
        return Err(Error::new("sort", "needs an array of at least 1 dimension"));
    }
    Ok(vec![(*x).clone(), Aval::new(x.shape.clone(), DType::Int32)])
}

/// The routine sorting the rows of the dense operand `x`.
pub fn routine(x: &Aval) -> Routine {
    let r = x.shape.len();
    Routine {
        kind: RoutineKind::Sort,
        dtype: x.dtype,
        batch: x.shape[..r - 1].iter().product(),
        m: 1,
        n: x.shape[r - 1],
    }
}

/// The cotangent of `x` for the cotangent `g` of the sorted values, given the permutation
/// `perm`: `x̄[perm[i]] = g[i]`, that is `g` gathered at the inverse permutation (itself the
/// argsort of `perm`), along the last axis.
pub fn vjp<E: Emit>(e: &mut E, perm: &E::V, g: &E::V) -> Result<E::V> {
    let inverse = lax::sort(e, perm)?.remove(1);
    take_along_last(e, g, &inverse)
}

/// `x[..., idx[..., i]]` for `idx` of `x`'s shape (int32, in range).
pub fn take_along_last<E: Emit>(e: &mut E, x: &E::V, idx: &E::V) -> Result<E::V> {
    let shape = e.aval(x).shape;
    let r = shape.len();
    let mut index = Vec::with_capacity(r);
    // The position along each leading axis, broadcast against the others.
    for axis in 0..r - 1 {
        let mut along = vec![1; r];
        along[axis] = shape[axis];
        index.push(lax::iota_i32(e, along, axis)?);
    }
    index.push(idx.clone());
    lax::gather(e, x, &index, (0..r).collect(), 0)
}
