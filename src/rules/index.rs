//! Index arithmetic shared by the rules: decomposing a flat index into coordinates and
//! composing coordinates into a flat row-major index, as Kernel IR expressions.

use crate::core::shape::contiguous_strides;
use crate::core::DType;
use crate::kernel::AluExp;

pub use crate::kernel::index::unravel;

/// The flat row-major index of `coords` in `shape`.
pub fn ravel(coords: &[AluExp], shape: &[usize]) -> AluExp {
    let strides: Vec<isize> = contiguous_strides(shape)
        .iter()
        .map(|&s| s as isize)
        .collect();
    crate::kernel::index::linear(0, coords, &strides)
}

/// The flat index into an array of `shape` that feeds output element `Index` of an array of
/// `out_shape` under NumPy broadcasting (size-1 and missing leading axes repeat).
pub fn broadcast_index(shape: &[usize], out_shape: &[usize]) -> AluExp {
    if shape == out_shape {
        return AluExp::index();
    }
    let pad = out_shape.len() - shape.len();
    let coords = unravel(&AluExp::index(), out_shape);
    let own: Vec<AluExp> = shape
        .iter()
        .enumerate()
        .map(|(axis, &dim)| {
            if dim == 1 {
                AluExp::constant(DType::Int32, 0.0)
            } else {
                coords[axis + pad].clone()
            }
        })
        .collect();
    ravel(&own, shape)
}
