//! L3: the rules of every primitive, one file per family. This module dispatches on
//! [`Primitive`] with exhaustive matches, so a new primitive cannot miss a rule.
//!
//! Kernels built here read their inputs as logical, row-major, contiguous arrays (a load's index
//! is the flat logical index); the evaluator maps those loads through each input's view.

pub mod creation;
pub mod elementwise;
pub mod index;
pub mod linalg;
pub mod movement;
pub mod reduce;

use crate::core::{Aval, Primitive};
use crate::kernel::Kernel;
use crate::util::Result;

/// Shape and dtype of a primitive's output, or an error naming the problem.
pub fn abstract_eval(prim: &Primitive, inputs: &[&Aval]) -> Result<Aval> {
    match prim {
        Primitive::Unary(_)
        | Primitive::Binary(_)
        | Primitive::Compare(_)
        | Primitive::Where
        | Primitive::Cast(_)
        | Primitive::Bitcast(_)
        | Primitive::StopGradient => elementwise::abstract_eval(prim, inputs),
        Primitive::Reduce { op, axes } => reduce::abstract_eval(*op, axes, inputs),
        Primitive::Cumulative { op, axis, .. } => {
            reduce::cumulative_abstract_eval(*op, *axis, inputs)
        }
        Primitive::Reshape(_)
        | Primitive::Transpose(_)
        | Primitive::Broadcast { .. }
        | Primitive::Shrink(_)
        | Primitive::Pad(_)
        | Primitive::Flip(_)
        | Primitive::Concatenate(_) => movement::abstract_eval(prim, inputs),
        Primitive::Iota { shape, axis, dtype } => {
            creation::iota_abstract_eval(shape, *axis, *dtype, inputs)
        }
        Primitive::Matmul => linalg::matmul_abstract_eval(inputs),
    }
}

/// The kernel computing `prim` on logical inputs with avals `inputs` into `out`.
pub fn to_kernel(prim: &Primitive, inputs: &[&Aval], out: &Aval) -> Result<Kernel> {
    match prim {
        Primitive::Unary(_)
        | Primitive::Binary(_)
        | Primitive::Compare(_)
        | Primitive::Where
        | Primitive::Cast(_)
        | Primitive::Bitcast(_)
        | Primitive::StopGradient => Ok(elementwise::kernel(prim, inputs, out)),
        Primitive::Reduce { op, axes } => Ok(reduce::kernel(*op, axes, inputs[0], out)),
        Primitive::Cumulative { op, axis, reverse } => {
            Ok(reduce::cumulative_kernel(*op, *axis, *reverse, inputs[0]))
        }
        Primitive::Reshape(_)
        | Primitive::Transpose(_)
        | Primitive::Broadcast { .. }
        | Primitive::Shrink(_)
        | Primitive::Pad(_)
        | Primitive::Flip(_)
        | Primitive::Concatenate(_) => movement::kernel(prim, inputs, out),
        Primitive::Iota { axis, .. } => Ok(creation::iota_kernel(*axis, out)),
        Primitive::Matmul => Ok(linalg::matmul_kernel(inputs[0], inputs[1], out)),
    }
}
