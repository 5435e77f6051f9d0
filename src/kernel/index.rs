//! Index arithmetic in the Kernel IR: splitting a flat row-major index into coordinates, and
//! combining coordinates with strides into a position. Shared by the rules (logical layouts)
//! and by loads through views.

use super::alu::AluExp;
use crate::core::DType;

/// Coordinates of row-major flat index `flat` in `shape` (size-1 axes are the constant 0; the
/// leading axis is not reduced modulo its size, so `flat` must be in range).
pub fn unravel(flat: &AluExp, shape: &[usize]) -> Vec<AluExp> {
    let mut stride = 1usize;
    let mut coords = vec![AluExp::constant(DType::Int32, 0.0); shape.len()];
    for a in (0..shape.len()).rev() {
        if shape[a] != 1 {
            let c = AluExp::index_div(flat.clone(), stride);
            coords[a] = if a == 0 {
                c
            } else {
                AluExp::index_rem(c, shape[a])
            };
        }
        stride *= shape[a];
    }
    coords
}

/// `offset + Σ coords[a] · strides[a]`, skipping zero strides.
pub fn linear(offset: isize, coords: &[AluExp], strides: &[isize]) -> AluExp {
    let mut position = AluExp::constant(DType::Int32, offset as f64);
    for (c, &stride) in coords.iter().zip(strides) {
        if stride != 0 {
            position = AluExp::index_add(position, AluExp::index_mul(c.clone(), stride));
        }
    }
    position
}
