//! `gather`: advanced (integer-array) indexing as one kernel whose loads of `x` are indexed by
//! loads of the index arrays. Negative indices count from the end; out-of-range ones clamp
//! (JAX's default for array indexing).

use super::index::{broadcast_index, ravel, unravel};
use crate::core::shape::broadcast_shapes;
use crate::core::{Aval, DType};
use crate::kernel::{AluExp, BinaryOp, CompareOp, Kernel};
use crate::util::{Error, Result};

pub fn abstract_eval(axes: &[usize], out_dim: usize, inputs: &[&Aval]) -> Result<Aval> {
    let (x, indices) = inputs
        .split_first()
        .ok_or_else(|| Error::new("gather", "no operand"))?;
    if indices.len() != axes.len() || indices.is_empty() {
        return Err(Error::new(
            "gather",
            format!("{} index arrays for {} axes", indices.len(), axes.len()),
        ));
    }
    let rank = x.shape.len();
    let mut seen = vec![false; rank];
    for &a in axes {
        if a >= rank || std::mem::replace(&mut seen[a], true) {
            return Err(Error::new(
                "gather",
                format!("axes {axes:?} invalid for rank {rank}"),
            ));
        }
    }
    if let Some(i) = indices
        .iter()
        .find(|i| !matches!(i.dtype, DType::Int32 | DType::Uint32))
    {
        return Err(Error::new(
            "gather",
            format!("indices must be integers, got {}", i.dtype.name()),
        ));
    }
    let idx_shape = indices[1..]
        .iter()
        .try_fold(indices[0].shape.clone(), |s, i| {
            broadcast_shapes("gather", &s, &i.shape)
        })?;
    let mut shape: Vec<usize> = (0..rank)
        .filter(|a| !axes.contains(a))
        .map(|a| x.shape[a])
        .collect();
    if out_dim > shape.len() {
        return Err(Error::new(
            "gather",
            format!("out_dim {out_dim} out of range"),
        ));
    }
    if axes.iter().any(|&a| x.shape[a] == 0) && idx_shape.iter().product::<usize>() > 0 {
        return Err(Error::new("gather", "cannot index into an empty axis"));
    }
    shape.splice(out_dim..out_dim, idx_shape);
    Ok(Aval {
        shape,
        dtype: x.dtype,
        weak: x.weak,
    })
}

pub fn kernel(axes: &[usize], out_dim: usize, inputs: &[&Aval], out: &Aval) -> Kernel {
    let x = inputs[0];
    let indices = &inputs[1..];
    let idx_rank = out.shape.len() + axes.len() - x.shape.len();
    let coords = unravel(&AluExp::index(), &out.shape);
    let idx_shape = &out.shape[out_dim..out_dim + idx_rank];
    // The flat position within the broadcast index shape, then each index array's element.
    let idx_coords = &coords[out_dim..out_dim + idx_rank];
    let idx_flat = ravel(idx_coords, idx_shape);
    let mut rest = coords[..out_dim]
        .iter()
        .chain(&coords[out_dim + idx_rank..]);
    let int = |v: f64| AluExp::constant(DType::Int32, v);
    let x_coords: Vec<AluExp> = (0..x.shape.len())
        .map(|a| match axes.iter().position(|&b| b == a) {
            None => rest.next().expect("rank").clone(),
            Some(k) => {
                let i = indices[k];
                let at = substitute_index(&broadcast_index(&i.shape, idx_shape), &idx_flat);
                let raw = AluExp::cast(AluExp::load(i.dtype, k + 1, at), DType::Int32);
                let n = x.shape[a] as f64;
                let neg = AluExp::compare(CompareOp::Lt, raw.clone(), int(0.0));
                let wrapped =
                    AluExp::where_(neg, AluExp::binary(BinaryOp::Add, raw.clone(), int(n)), raw);
                let low = AluExp::binary(BinaryOp::Max, wrapped, int(0.0));
                AluExp::binary(BinaryOp::Min, low, int(n - 1.0))
            }
        })
        .collect();
    let exp = AluExp::load(x.dtype, 0, ravel(&x_coords, &x.shape));
    Kernel::elementwise(inputs.iter().map(|a| a.dtype).collect(), out.size(), exp)
}

/// `exp` with every `Index` replaced by `by` (to reuse an index formula at another position).
fn substitute_index(exp: &AluExp, by: &AluExp) -> AluExp {
    exp.rewrite(&|e| matches!(e.kind, crate::kernel::AluKind::Index).then(|| by.clone()))
}
