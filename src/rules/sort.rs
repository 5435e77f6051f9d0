//! Sorting as two reducing kernels that every backend compiles: `rank` counts, for each
//! element, the elements that sort before it (stable: ties by position; NaN last), and
//! `unrank` places each element at its rank. Quadratic in the axis length: right for the short
//! axes of typical jax-js code (there is no sort routine for long axes).

use super::index::{ravel, unravel};
use crate::core::{Aval, DType, Primitive};
use crate::kernel::{reduce_identity, AluExp, BinaryOp, CompareOp, Kernel, ReduceOp, Reduction};
use crate::util::{Error, Result};

pub fn abstract_eval(prim: &Primitive, inputs: &[&Aval]) -> Result<Aval> {
    let name = prim.name();
    let (axis, n_ops) = match prim {
        Primitive::Rank { axis } => (*axis, 1),
        Primitive::Unrank { axis } => (*axis, 2),
        _ => unreachable!("sort family"),
    };
    if inputs.len() != n_ops {
        return Err(Error::new(
            name,
            format!("expected {n_ops} operands, got {}", inputs.len()),
        ));
    }
    let x = inputs[0];
    if axis >= x.shape.len() {
        return Err(Error::new(
            name,
            format!("axis {axis} out of range for rank {}", x.shape.len()),
        ));
    }
    match prim {
        Primitive::Rank { .. } => Ok(Aval::new(x.shape.clone(), DType::Int32)),
        _ => {
            let ranks = inputs[1];
            if ranks.shape != x.shape || ranks.dtype != DType::Int32 {
                return Err(Error::new(
                    name,
                    "ranks must be int32 with the values' shape",
                ));
            }
            Ok((*x).clone())
        }
    }
}

/// The elements at the output position and at position `r` along `axis`.
fn here_and_there(x: &Aval, axis: usize) -> (Vec<AluExp>, AluExp, Vec<AluExp>) {
    let coords = unravel(&AluExp::index(), &x.shape);
    let mut there = coords.clone();
    there[axis] = AluExp::reduce_index();
    let j = coords[axis].clone();
    (coords, j, there)
}

fn is_nan(v: &AluExp) -> AluExp {
    AluExp::compare(CompareOp::Ne, v.clone(), v.clone())
}

pub fn kernel(prim: &Primitive, inputs: &[&Aval], out: &Aval) -> Kernel {
    let x = inputs[0];
    let or = |a, b| AluExp::binary(BinaryOp::Or, a, b);
    let and = |a, b| AluExp::binary(BinaryOp::And, a, b);
    let (kernel_exp, op, axis) = match prim {
        Primitive::Rank { axis } => {
            let (here, j, there) = here_and_there(x, *axis);
            let xj = AluExp::load(x.dtype, 0, ravel(&here, &x.shape));
            let xr = AluExp::load(x.dtype, 0, ravel(&there, &x.shape));
            // xr sorts before xj: smaller, or NaN-free against NaN, or equal and earlier.
            let less = or(
                AluExp::compare(CompareOp::Lt, xr.clone(), xj.clone()),
                and(
                    is_nan(&xj),
                    AluExp::unary(crate::kernel::UnaryOp::Not, is_nan(&xr)),
                ),
            );
            let tie = or(
                AluExp::compare(CompareOp::Eq, xr.clone(), xj.clone()),
                and(is_nan(&xr), is_nan(&xj)),
            );
            let earlier = AluExp::compare(CompareOp::Lt, AluExp::reduce_index(), j);
            let before = or(less, and(tie, earlier));
            (AluExp::cast(before, DType::Int32), ReduceOp::Sum, *axis)
        }
        Primitive::Unrank { axis } => {
            let (_, i, there) = here_and_there(x, *axis);
            let rank = AluExp::load(DType::Int32, 1, ravel(&there, &x.shape));
            let value = AluExp::load(x.dtype, 0, ravel(&there, &x.shape));
            let matched = AluExp::compare(CompareOp::Eq, rank, i);
            // Max with the identity elsewhere picks the one match exactly (even −0 and NaN).
            let none = AluExp::constant(x.dtype, reduce_identity(ReduceOp::Max, x.dtype));
            (AluExp::where_(matched, value, none), ReduceOp::Max, *axis)
        }
        _ => unreachable!("sort family"),
    };
    let mut kernel = Kernel::elementwise(
        inputs.iter().map(|a| a.dtype).collect(),
        out.size(),
        kernel_exp,
    );
    let n = x.shape[axis];
    if n > 0 {
        kernel.reduction = Some(Reduction { op, size: n });
    }
    kernel
}
