//! `gather`: advanced (integer-array) indexing as one kernel whose loads of `x` are indexed by
//! loads of the index arrays. Negative indices count from the end; out-of-range ones clamp
//! (JAX's default for array indexing). Its VJP and batching rules are here too.

use super::batch::{value, BArg, Batched};
use super::emit::Emit;
use super::index::{broadcast_index, ravel, unravel};
use super::lax;
use crate::core::shape::broadcast_shapes;
use crate::core::Primitive;
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

/// The index arrays of a gather as in-range int32 positions (negative ones wrapped, the rest
/// clamped, as the kernel reads them).
fn positions<E: Emit>(e: &mut E, idx: &E::V, n: usize) -> Result<E::V> {
    let i = lax::cast(e, idx, DType::Int32)?;
    let neg = lax::lt(e, &i, 0.0)?;
    let up = lax::add(e, &i, n as f64)?;
    let w = lax::select(e, &neg, &up, &i)?;
    let lo = lax::max(e, &w, 0.0)?;
    lax::min(e, &lo, n.saturating_sub(1) as f64)
}

/// Cotangent of `x` for `gather(x, idx…)` with output cotangent `g`.
fn x_cotangent<E: Emit>(
    e: &mut E,
    axes: &[usize],
    out_dim: usize,
    ins: &[E::V],
    g: &E::V,
) -> Result<E::V> {
    let xs = e.aval(&ins[0]).shape;
    let gs = e.aval(g).shape;
    let rest_rank = xs.len() - axes.len();
    let idx_rank = gs.len() - rest_rank;
    let idx_shape = gs[out_dim..out_dim + idx_rank].to_vec();
    // One flat position into the indexed axes per index element.
    let mut flat: Option<E::V> = None;
    let sizes: Vec<usize> = axes.iter().map(|&a| xs[a]).collect();
    let total: usize = sizes.iter().product();
    for (k, idx) in ins[1..].iter().enumerate() {
        let pos = positions(e, idx, sizes[k])?;
        let r = e.aval(&pos).shape.len();
        let pos = lax::broadcast(
            e,
            &pos,
            idx_shape.clone(),
            (idx_rank - r..idx_rank).collect(),
        )?;
        let stride: usize = sizes[k + 1..].iter().product();
        let scaled = lax::mul(e, &pos, stride as f64)?;
        flat = Some(match flat {
            None => scaled,
            Some(f) => lax::add(e, &f, &scaled)?,
        });
    }
    let flat = flat.expect("gather has index arrays");
    let count: usize = idx_shape.iter().product();
    let flat = lax::reshape(e, &flat, vec![count, 1])?;
    let cols = lax::iota_i32(e, vec![1, total], 1)?;
    let hit = lax::eq(e, &flat, &cols)?;
    let dtype = e.aval(g).dtype;
    let onehot = lax::cast(e, &hit, dtype)?;
    // g as [index elements, rest]: index axes first.
    let mut perm: Vec<usize> = (out_dim..out_dim + idx_rank).collect();
    perm.extend((0..out_dim).chain(out_dim + idx_rank..gs.len()));
    let gt = lax::transpose(e, g, perm)?;
    let rest: Vec<usize> = (0..xs.len())
        .filter(|a| !axes.contains(a))
        .map(|a| xs[a])
        .collect();
    let rest_size: usize = rest.iter().product();
    let g2 = lax::reshape(e, &gt, vec![count, rest_size])?;
    let oh_t = lax::transpose(e, &onehot, vec![1, 0])?;
    let summed = lax::matmul(e, &oh_t, &g2)?;
    // [indexed axes (in `axes` order)…, rest…] back to x's axis order.
    let mut shape = sizes.clone();
    shape.extend(&rest);
    let full = lax::reshape(e, &summed, shape)?;
    let mut next_rest = axes.len();
    let perm = (0..xs.len())
        .map(|a| match axes.iter().position(|&b| b == a) {
            Some(k) => k,
            None => {
                next_rest += 1;
                next_rest - 1
            }
        })
        .collect();
    lax::transpose(e, &full, perm)
}

/// The input cotangents of `gather(x, idx…)` for the output cotangent `g` (none for the
/// indices): a one-hot contraction, the transpose of indexing without a scatter primitive.
pub fn vjp<E: Emit>(
    e: &mut E,
    axes: &[usize],
    out_dim: usize,
    ins: &[E::V],
    g: &E::V,
) -> Result<Vec<Option<E::V>>> {
    let mut r = vec![Some(x_cotangent(e, axes, out_dim, ins, g)?)];
    r.extend(ins[1..].iter().map(|_| None));
    Ok(r)
}

/// Batching of `gather` with `x = ins[0]` and index arrays `ins[1..]` for `axes`. With only `x`
/// batched its batch axis is one more kept axis; with batched indices the batch axis of `x`
/// becomes one more indexed axis, read at an `iota` over the batch.
pub fn batch<E: Emit>(
    e: &mut E,
    axes: &[usize],
    out_dim: usize,
    ins: &[BArg<E::V>],
    size: usize,
) -> Result<Vec<Batched<E::V>>> {
    let prim = Primitive::Gather {
        axes: axes.to_vec(),
        out_dim,
    };
    let (x, xb) = value(&prim, &ins[0])?;
    let idx = &ins[1..];
    if idx.iter().all(|a| a.bdim().is_none()) {
        // Only x is batched: its batch axis is one more kept (leading) axis.
        let front = lax::moveaxis(e, x, xb.expect("a batched operand"), 0)?;
        let axes: Vec<usize> = axes.iter().map(|a| a + 1).collect();
        let mut indices = Vec::with_capacity(idx.len());
        for a in idx {
            indices.push(value(&prim, a)?.0.clone());
        }
        let out = lax::gather(e, &front, &indices, axes, out_dim + 1)?;
        return Ok(vec![(out, Some(0))]);
    }
    // Batched indices: the broadcast index shape gets a leading batch axis, which lands at
    // `out_dim` of the result.
    let rank = idx
        .iter()
        .map(|a| match a {
            BArg::V(v, b) => e.aval(v).shape.len() - usize::from(b.is_some()),
            BArg::Lit(_) => 0,
        })
        .max()
        .unwrap_or(0);
    let mut indices = Vec::with_capacity(idx.len() + 1);
    for a in idx {
        let (v, b) = value(&prim, a)?;
        indices.push(match b {
            None => v.clone(),
            Some(b) => {
                let front = lax::moveaxis(e, v, b, 0)?;
                let s = e.aval(&front).shape;
                let mut shape = vec![size];
                shape.extend(std::iter::repeat_n(1, rank + 1 - s.len()));
                shape.extend_from_slice(&s[1..]);
                lax::reshape(e, &front, shape)?
            }
        });
    }
    let (x, axes) = match xb {
        None => (x.clone(), axes.to_vec()),
        Some(b) => {
            // x's batch axis is indexed by the batch position itself.
            let front = lax::moveaxis(e, x, b, 0)?;
            let mut shape = vec![size];
            shape.extend(std::iter::repeat_n(1, rank));
            let iota = lax::iota_i32(e, shape, 0)?;
            indices.insert(0, iota);
            let axes = std::iter::once(0).chain(axes.iter().map(|a| a + 1));
            (front, axes.collect())
        }
    };
    let out = lax::gather(e, &x, &indices, axes, out_dim)?;
    Ok(vec![(out, Some(out_dim))])
}
