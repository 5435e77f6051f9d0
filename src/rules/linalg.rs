//! Linear algebra primitives. First: `matmul`, a batched matrix product whose batch axes
//! broadcast, as one reducing kernel (the contraction is the reduction axis), and its VJP
//! (batching: `batch::batch_aligned`, as for elementwise primitives).

use super::autodiff::unbroadcast_to;
use super::emit::Emit;
use super::index::{ravel, unravel};
use super::lax;
use crate::core::dtype::promote;
use crate::core::shape::broadcast_shapes;
use crate::core::{Aval, DType};
use crate::kernel::{AluExp, BinaryOp, Kernel, ReduceOp, Reduction};
use crate::util::{Error, Result};

pub fn matmul_abstract_eval(inputs: &[&Aval]) -> Result<Aval> {
    let [a, b] = inputs else {
        return Err(Error::new(
            "matmul",
            format!("expected 2 operands, got {}", inputs.len()),
        ));
    };
    let (ra, rb) = (a.shape.len(), b.shape.len());
    if ra < 2 || rb < 2 {
        return Err(Error::new(
            "matmul",
            "operands must have rank ≥ 2 (vectors are reshaped first)",
        ));
    }
    let (m, k) = (a.shape[ra - 2], a.shape[ra - 1]);
    let (k2, n) = (b.shape[rb - 2], b.shape[rb - 1]);
    if k != k2 {
        return Err(Error::new(
            "matmul",
            format!(
                "contraction sizes differ: {:?} @ {:?} ({k} vs {k2})",
                a.shape, b.shape
            ),
        ));
    }
    let mut shape = broadcast_shapes("matmul", &a.shape[..ra - 2], &b.shape[..rb - 2])?;
    shape.extend([m, n]);
    let (dtype, weak) = promote(a.dtype, a.weak, b.dtype, b.weak);
    if dtype == DType::Bool || dtype == DType::Float16 {
        return Err(Error::new(
            "matmul",
            format!("{} operands are not supported", dtype.name()),
        ));
    }
    Ok(Aval { shape, dtype, weak })
}

/// The flat index of `[batch..., row, col]` into an operand whose batch axes broadcast to
/// `batch_out`.
fn operand_index(shape: &[usize], batch: &[AluExp], row: AluExp, col: AluExp) -> AluExp {
    let rank = shape.len();
    let own_batch = &shape[..rank - 2];
    let pad = batch.len() - own_batch.len();
    let mut coords: Vec<AluExp> = own_batch
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            if d == 1 {
                AluExp::constant(DType::Int32, 0.0)
            } else {
                batch[i + pad].clone()
            }
        })
        .collect();
    coords.extend([row, col]);
    ravel(&coords, shape)
}

pub fn matmul_kernel(a: &Aval, b: &Aval, out: &Aval) -> Kernel {
    let rank = out.shape.len();
    let k = a.shape[a.shape.len() - 1];
    let coords = unravel(&AluExp::index(), &out.shape);
    let (batch, mn) = coords.split_at(rank - 2);
    let r = AluExp::reduce_index();
    let load_a = AluExp::load(
        a.dtype,
        0,
        operand_index(&a.shape, batch, mn[0].clone(), r.clone()),
    );
    let load_b = AluExp::load(b.dtype, 1, operand_index(&b.shape, batch, r, mn[1].clone()));
    let product = AluExp::binary(
        BinaryOp::Mul,
        AluExp::cast(load_a, out.dtype),
        AluExp::cast(load_b, out.dtype),
    );
    let mut kernel = Kernel::elementwise(vec![a.dtype, b.dtype], out.size(), product);
    if k == 0 {
        kernel.exp = AluExp::constant(out.dtype, 0.0);
    } else {
        kernel.reduction = Some(Reduction {
            op: ReduceOp::Sum,
            size: k,
        });
    }
    kernel
}

/// The cotangents of `matmul(a, b)`: `g·bᵀ` and `aᵀ·g`, summed over broadcast batch axes.
pub fn matmul_vjp<E: Emit>(e: &mut E, ins: &[E::V], g: &E::V) -> Result<Vec<Option<E::V>>> {
    let (a, b) = (&ins[0], &ins[1]);
    let bt = lax::swap_last2(e, b)?;
    let at = lax::swap_last2(e, a)?;
    let ga = lax::matmul(e, g, &bt)?;
    let gb = lax::matmul(e, &at, g)?;
    Ok(vec![
        unbroadcast_to(e, Some(ga), a)?,
        unbroadcast_to(e, Some(gb), b)?,
    ])
}
