//! Primitives without operands: `iota`.

use super::index::unravel;
use crate::core::{Aval, DType};
use crate::kernel::{AluExp, Kernel};
use crate::util::{Error, Result};

pub fn iota_abstract_eval(
    shape: &[usize],
    axis: usize,
    dtype: DType,
    inputs: &[&Aval],
) -> Result<Aval> {
    if !inputs.is_empty() {
        return Err(Error::new("iota", "takes no operands"));
    }
    if axis >= shape.len() {
        return Err(Error::new(
            "iota",
            format!("axis {axis} out of range for shape {shape:?}"),
        ));
    }
    if dtype == DType::Float16 || dtype == DType::Bool {
        return Err(Error::new(
            "iota",
            format!("{} is not supported", dtype.name()),
        ));
    }
    Ok(Aval::new(shape.to_vec(), dtype))
}

pub fn iota_kernel(axis: usize, out: &Aval) -> Kernel {
    let coord = unravel(&AluExp::index(), &out.shape).swap_remove(axis);
    Kernel::elementwise(vec![], out.size(), AluExp::cast(coord, out.dtype))
}
