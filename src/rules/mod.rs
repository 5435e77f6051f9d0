//! L3: the rules of every primitive, one file per family. This module dispatches on
//! [`Primitive`] with exhaustive matches, so a new primitive cannot miss a rule.

pub mod elementwise;

use crate::core::{Aval, Primitive};
use crate::kernel::Kernel;
use crate::util::Result;

/// Shape and dtype of a primitive's output, or an error naming the problem.
pub fn abstract_eval(prim: Primitive, inputs: &[&Aval]) -> Result<Aval> {
    match prim {
        Primitive::Add | Primitive::Mul => elementwise::binary_abstract_eval(prim, inputs),
    }
}

/// The kernel computing `prim` on contiguous inputs of `inputs` avals into `out`.
pub fn to_kernel(prim: Primitive, inputs: &[&Aval], out: &Aval) -> Result<Kernel> {
    match prim {
        Primitive::Add | Primitive::Mul => Ok(elementwise::binary_kernel(prim, inputs, out)),
    }
}
