//! Reductions over a set of axes: `reduce_sum`, `reduce_prod`, `reduce_max`, `reduce_min`.

use super::index::{ravel, unravel};
use crate::core::ops::ReduceOp;
use crate::core::{Aval, DType};
use crate::kernel::{AluExp, Kernel, Reduction};
use crate::util::{Error, Result};

fn name(op: ReduceOp) -> &'static str {
    match op {
        ReduceOp::Sum => "reduce_sum",
        ReduceOp::Prod => "reduce_prod",
        ReduceOp::Max => "reduce_max",
        ReduceOp::Min => "reduce_min",
    }
}

pub fn abstract_eval(op: ReduceOp, axes: &[usize], inputs: &[&Aval]) -> Result<Aval> {
    let [x] = inputs else {
        return Err(Error::new(
            name(op),
            format!("expected 1 operand, got {}", inputs.len()),
        ));
    };
    if axes.iter().any(|&a| a >= x.shape.len()) || axes.windows(2).any(|w| w[0] >= w[1]) {
        return Err(Error::new(
            name(op),
            format!(
                "axes {axes:?} must be sorted, unique and below rank {}",
                x.shape.len()
            ),
        ));
    }
    if x.dtype == DType::Bool && matches!(op, ReduceOp::Sum | ReduceOp::Prod) {
        return Err(Error::new(
            name(op),
            "cannot sum or multiply bool values; cast them first",
        ));
    }
    if matches!(op, ReduceOp::Max | ReduceOp::Min) && axes.iter().any(|&a| x.shape[a] == 0) {
        return Err(Error::new(name(op), "zero-size reduction has no identity"));
    }
    let shape = (0..x.shape.len())
        .filter(|a| !axes.contains(a))
        .map(|a| x.shape[a])
        .collect();
    Ok(Aval {
        shape,
        dtype: x.dtype,
        weak: x.weak,
    })
}

pub fn kernel(op: ReduceOp, axes: &[usize], x: &Aval, out: &Aval) -> Kernel {
    let reduced: Vec<usize> = axes.iter().map(|&a| x.shape[a]).collect();
    let out_coords = unravel(&AluExp::index(), &out.shape);
    let red_coords = unravel(&AluExp::reduce_index(), &reduced);
    let (mut kept, mut red) = (out_coords.into_iter(), red_coords.into_iter());
    let coords: Vec<AluExp> = (0..x.shape.len())
        .map(|a| {
            if axes.contains(&a) {
                red.next()
            } else {
                kept.next()
            }
            .expect("rank")
        })
        .collect();
    let load = AluExp::load(x.dtype, 0, ravel(&coords, &x.shape));
    let size = reduced.iter().product::<usize>();
    let mut kernel = Kernel::elementwise(vec![x.dtype], out.size(), load);
    // A reduction over nothing (size 1) is a copy; over zero elements gives the identity,
    // which the kernel produces without loading.
    if size == 0 {
        let id = crate::kernel::reduce_identity(op, x.dtype);
        kernel.exp = AluExp::constant(x.dtype, id);
    } else {
        kernel.reduction = Some(Reduction { op, size });
    }
    kernel
}

pub fn cumulative_abstract_eval(op: ReduceOp, axis: usize, inputs: &[&Aval]) -> Result<Aval> {
    let name = crate::core::Primitive::Cumulative {
        op,
        axis,
        reverse: false,
    }
    .name();
    let [x] = inputs else {
        return Err(Error::new(
            name,
            format!("expected 1 operand, got {}", inputs.len()),
        ));
    };
    if axis >= x.shape.len() {
        return Err(Error::new(
            name,
            format!("axis {axis} out of range for rank {}", x.shape.len()),
        ));
    }
    if x.dtype == DType::Bool && matches!(op, ReduceOp::Sum | ReduceOp::Prod) {
        return Err(Error::new(
            name,
            "cannot sum or multiply bool values; cast them first",
        ));
    }
    Ok((*x).clone())
}

/// `out[.., i, ..] = op over r ≤ i (r ≥ i when reversed) of x[.., r, ..]`: a reduction over the
/// whole axis with the elements past `i` replaced by the identity (quadratic, like jax-js's).
pub fn cumulative_kernel(op: ReduceOp, axis: usize, reverse: bool, x: &Aval) -> Kernel {
    let n = x.shape[axis];
    let mut coords = unravel(&AluExp::index(), &x.shape);
    let here = std::mem::replace(&mut coords[axis], AluExp::reduce_index());
    let load = AluExp::load(x.dtype, 0, ravel(&coords, &x.shape));
    let (lo, hi) = if reverse {
        (here, AluExp::reduce_index())
    } else {
        (AluExp::reduce_index(), here)
    };
    let included = AluExp::compare(crate::kernel::CompareOp::Le, lo, hi);
    let identity = AluExp::constant(x.dtype, crate::kernel::reduce_identity(op, x.dtype));
    let mut kernel = Kernel::elementwise(
        vec![x.dtype],
        x.size(),
        AluExp::where_(included, load, identity),
    );
    if n > 0 {
        kernel.reduction = Some(Reduction { op, size: n });
    }
    kernel
}
