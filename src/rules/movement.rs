//! Movement primitives: shape changes that keep the elements (views where the layout allows).

use crate::core::{Aval, Primitive};
use crate::kernel::{AluExp, Kernel};
use crate::util::{Error, Result};

pub fn reshape_abstract_eval(shape: &[usize], inputs: &[&Aval]) -> Result<Aval> {
    let name = Primitive::Reshape(vec![]).name();
    let [x] = inputs else {
        return Err(Error::new(
            name,
            format!("expected 1 operand, got {}", inputs.len()),
        ));
    };
    if shape.iter().product::<usize>() != x.size() {
        return Err(Error::new(
            name,
            format!(
                "cannot reshape an array of shape {:?} into shape {shape:?}",
                x.shape
            ),
        ));
    }
    Ok(Aval {
        shape: shape.to_vec(),
        ..(*x).clone()
    })
}

/// A row-major copy (what a reshape is when it must materialise).
pub fn copy_kernel(x: &Aval, out: &Aval) -> Kernel {
    Kernel::elementwise(
        vec![x.dtype],
        out.size(),
        AluExp::load(x.dtype, 0, AluExp::index()),
    )
}
