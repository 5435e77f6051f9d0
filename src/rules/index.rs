//! Index arithmetic shared by the rules: decomposing a flat index into coordinates and
//! composing coordinates into a flat row-major index, as Kernel IR expressions.

use crate::core::shape::contiguous_strides;
use crate::core::DType;
use crate::kernel::AluExp;

/// The coordinates of flat row-major index `flat` in `shape` (axis 0 first).
pub fn unravel(flat: AluExp, shape: &[usize]) -> Vec<AluExp> {
    let strides = contiguous_strides(shape);
    shape
        .iter()
        .enumerate()
        .map(|(axis, &dim)| {
            if dim == 1 {
                return AluExp::constant(DType::Int32, 0.0);
            }
            let coord = AluExp::index_div(flat.clone(), strides[axis]);
            if axis == 0 {
                coord
            } else {
                AluExp::index_rem(coord, dim)
            }
        })
        .collect()
}

/// The flat row-major index of `coords` in `shape`.
pub fn ravel(coords: &[AluExp], shape: &[usize]) -> AluExp {
    let strides = contiguous_strides(shape);
    coords.iter().zip(&strides).zip(shape).fold(
        AluExp::constant(DType::Int32, 0.0),
        |acc, ((c, &stride), &dim)| {
            if dim == 1 {
                acc
            } else {
                AluExp::index_add(acc, AluExp::index_mul(c.clone(), stride as isize))
            }
        },
    )
}

/// The flat index into an array of `shape` that feeds output element `Index` of an array of
/// `out_shape` under NumPy broadcasting (size-1 and missing leading axes repeat).
pub fn broadcast_index(shape: &[usize], out_shape: &[usize]) -> AluExp {
    if shape == out_shape {
        return AluExp::index();
    }
    let pad = out_shape.len() - shape.len();
    let coords = unravel(AluExp::index(), out_shape);
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
