//! Elementwise binary primitives: broadcasting, dtype promotion and their kernels.

use crate::core::dtype::promote;
use crate::core::shape::{broadcast_shapes, contiguous_strides};
use crate::core::{Aval, Primitive};
use crate::kernel::{AluExp, BinaryOp, Kernel};
use crate::util::{Error, Result};

fn alu_op(prim: Primitive) -> BinaryOp {
    match prim {
        Primitive::Add => BinaryOp::Add,
        Primitive::Mul => BinaryOp::Mul,
    }
}

pub fn binary_abstract_eval(prim: Primitive, inputs: &[&Aval]) -> Result<Aval> {
    let [a, b] = inputs else {
        return Err(Error::new(
            prim.name(),
            format!("expected 2 operands, got {}", inputs.len()),
        ));
    };
    let shape = broadcast_shapes(prim.name(), &a.shape, &b.shape)?;
    let (dtype, weak) = promote(a.dtype, a.weak, b.dtype, b.weak);
    Ok(Aval { shape, dtype, weak })
}

pub fn binary_kernel(prim: Primitive, inputs: &[&Aval], out: &Aval) -> Kernel {
    let loads: Vec<AluExp> = inputs
        .iter()
        .enumerate()
        .map(|(i, aval)| AluExp::load(aval.dtype, i, broadcast_index(&aval.shape, &out.shape)))
        .map(|load| AluExp::cast(load, out.dtype))
        .collect();
    let mut loads = loads.into_iter();
    let (a, b) = (
        loads.next().expect("two operands"),
        loads.next().expect("two operands"),
    );
    Kernel::elementwise(
        inputs.iter().map(|a| a.dtype).collect(),
        out.size(),
        AluExp::binary(alu_op(prim), a, b),
    )
}

/// The flat index into a contiguous array of `shape` that feeds output element `Index` of an
/// array of `out_shape`, under NumPy broadcasting (size-1 and missing leading axes repeat).
pub fn broadcast_index(shape: &[usize], out_shape: &[usize]) -> AluExp {
    if shape == out_shape {
        return AluExp::index();
    }
    let pad = out_shape.len() - shape.len();
    let out_strides = contiguous_strides(out_shape);
    let in_strides = contiguous_strides(shape);
    let mut index = AluExp::constant(crate::core::DType::Int32, 0.0);
    for (axis, &out_dim) in out_shape.iter().enumerate() {
        if axis < pad || shape[axis - pad] == 1 || out_dim == 1 {
            continue;
        }
        let mut coord = AluExp::index_div(AluExp::index(), out_strides[axis]);
        if axis > 0 {
            coord = AluExp::index_rem(coord, out_dim);
        }
        index = AluExp::index_add(
            index,
            AluExp::index_mul(coord, in_strides[axis - pad] as isize),
        );
    }
    index
}
