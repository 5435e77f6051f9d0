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
    let out_coords = unravel(AluExp::index(), &out.shape);
    let red_coords = unravel(AluExp::reduce_index(), &reduced);
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
