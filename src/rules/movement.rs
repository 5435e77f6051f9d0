//! Movement primitives: reshape, transpose, broadcast, slice (shrink), pad, flip — view changes
//! of the operand (`core::view`) — and concatenate, which builds a new array.
//!
//! Their kernels (used when a view must be materialised) load the operand through the view
//! the primitive makes of a contiguous array. Their VJP and batching rules are here too.

use super::batch::{full_axis, Batched};
use super::emit::Emit;
use super::lax;
use crate::core::view::ShapeTracker;
use crate::core::{Aval, DType, Primitive};
use crate::kernel::{view_index, AluExp, CompareOp, Kernel};
use crate::util::{Error, Result};

/// The view `prim` makes of an operand stored as `st` (whose shape is the operand's).
pub fn apply_view(prim: &Primitive, st: &ShapeTracker) -> Result<ShapeTracker> {
    let err = |e: Error| Error::new(prim.name(), e.message().to_string());
    match prim {
        Primitive::Reshape(shape) => st.reshape(shape),
        Primitive::Transpose(perm) => st.permute(perm),
        Primitive::Broadcast { shape, axes } => broadcast_view(st, shape, axes),
        Primitive::Shrink(ranges) => st.shrink(ranges),
        Primitive::Pad(widths) => st.pad(widths),
        Primitive::Flip(axes) => st.flip(axes),
        other => Err(Error::new(
            other.name(),
            "internal error: not a view primitive",
        )),
    }
    .map_err(|e| {
        if e.message().starts_with(prim.name()) {
            e
        } else {
            err(e)
        }
    })
}

fn broadcast_view(st: &ShapeTracker, shape: &[usize], axes: &[usize]) -> Result<ShapeTracker> {
    let name = "broadcast_in_dim";
    let from = st.shape().to_vec();
    if axes.len() != from.len() || axes.windows(2).any(|w| w[0] >= w[1]) {
        return Err(Error::new(
            name,
            format!("axes {axes:?} must be increasing, one per operand axis of {from:?}"),
        ));
    }
    let mut unit = vec![1; shape.len()];
    for (i, &a) in axes.iter().enumerate() {
        if a >= shape.len() || (from[i] != shape[a] && from[i] != 1) {
            return Err(Error::new(
                name,
                format!("cannot broadcast shape {from:?} to {shape:?} along axes {axes:?}"),
            ));
        }
        unit[a] = from[i];
    }
    st.reshape(&unit)?.expand(shape)
}

pub fn abstract_eval(prim: &Primitive, inputs: &[&Aval]) -> Result<Aval> {
    if let Primitive::Concatenate(axis) = prim {
        return concatenate_abstract_eval(*axis, inputs);
    }
    let [x] = inputs else {
        let n = inputs.len();
        return Err(Error::new(
            prim.name(),
            format!("expected 1 operand, got {n}"),
        ));
    };
    let st = apply_view(prim, &ShapeTracker::contiguous(&x.shape))?;
    Ok(Aval {
        shape: st.shape().to_vec(),
        ..(*x).clone()
    })
}

fn concatenate_abstract_eval(axis: usize, inputs: &[&Aval]) -> Result<Aval> {
    let name = "concatenate";
    let first = inputs
        .first()
        .ok_or_else(|| Error::new(name, "needs at least one array"))?;
    if axis >= first.shape.len() {
        return Err(Error::new(
            name,
            format!("axis {axis} out of range for rank {}", first.shape.len()),
        ));
    }
    let mut shape = first.shape.clone();
    shape[axis] = 0;
    for a in inputs {
        let same = a.shape.len() == shape.len()
            && (0..shape.len()).all(|i| i == axis || a.shape[i] == first.shape[i]);
        if !same || a.dtype != first.dtype {
            return Err(Error::new(
                name,
                format!(
                    "arrays must share dtype and all axes but {axis}: {} and {}",
                    first.describe(),
                    a.describe()
                ),
            ));
        }
        shape[axis] += a.shape[axis];
    }
    Ok(Aval {
        shape,
        dtype: first.dtype,
        weak: inputs.iter().all(|a| a.weak),
    })
}

/// A row-major copy of a dense logical array (loads are mapped through views afterwards).
pub fn copy_kernel(x: &Aval, out: &Aval) -> Kernel {
    Kernel::elementwise(
        vec![x.dtype],
        out.size(),
        AluExp::load(x.dtype, 0, AluExp::index()),
    )
}

pub fn kernel(prim: &Primitive, inputs: &[&Aval], out: &Aval) -> Result<Kernel> {
    if let Primitive::Concatenate(axis) = prim {
        return Ok(concatenate_kernel(*axis, inputs, out));
    }
    let x = inputs[0];
    let st = apply_view(prim, &ShapeTracker::contiguous(&x.shape))?;
    let exp = view_index::load(x.dtype, 0, &st, AluExp::index());
    Ok(Kernel::elementwise(vec![x.dtype], out.size(), exp))
}

/// Each output element reads the operand whose range along `axis` contains it: a chain of
/// `where`s over padded views of the operands.
fn concatenate_kernel(axis: usize, inputs: &[&Aval], out: &Aval) -> Kernel {
    let coords_axis = {
        let inner: usize = out.shape[axis + 1..].iter().product();
        AluExp::index_rem(AluExp::index_div(AluExp::index(), inner), out.shape[axis])
    };
    let mut start = 0;
    let mut exp = AluExp::constant(out.dtype, 0.0);
    let mut pieces = Vec::new();
    for (i, a) in inputs.iter().enumerate() {
        let mut widths = vec![(0, 0); out.shape.len()];
        widths[axis] = (start, out.shape[axis] - start - a.shape[axis]);
        let st = ShapeTracker::contiguous(&a.shape)
            .pad(&widths)
            .expect("valid padding");
        let (index, _) = view_index::index_through(&st, AluExp::index());
        pieces.push((start + a.shape[axis], AluExp::load(a.dtype, i, index)));
        start += a.shape[axis];
    }
    for (end, load) in pieces.into_iter().rev() {
        let inside = AluExp::compare(
            CompareOp::Lt,
            coords_axis.clone(),
            AluExp::constant(DType::Int32, end as f64),
        );
        exp = AluExp::where_(inside, load, exp);
    }
    Kernel::elementwise(inputs.iter().map(|a| a.dtype).collect(), out.size(), exp)
}

/// The input cotangents of a movement primitive for the output cotangent `g`: the inverse
/// movement (a sum over broadcast axes; one slice of `g` per concatenated operand).
pub fn vjp<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[E::V],
    g: &E::V,
) -> Result<Vec<Option<E::V>>> {
    let shape0 = e.aval(&ins[0]).shape;
    let one = |v: E::V| Ok(vec![Some(v)]);
    match prim {
        Primitive::Reshape(_) => one(lax::reshape(e, g, shape0)?),
        Primitive::Transpose(perm) => {
            let mut inv = vec![0; perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                inv[p] = i;
            }
            one(lax::transpose(e, g, inv)?)
        }
        Primitive::Broadcast { shape: to, axes } => {
            // Sum over the new axes and the size-1 axes that were stretched.
            let stretched = |a: &usize| {
                axes.iter()
                    .position(|b| b == a)
                    .is_none_or(|i| shape0[i] == 1 && to[*a] != 1)
            };
            let sum_axes: Vec<usize> = (0..to.len()).filter(stretched).collect();
            let s = if sum_axes.is_empty() {
                g.clone()
            } else {
                lax::sum(e, g, sum_axes)?
            };
            one(lax::reshape(e, &s, shape0)?)
        }
        Primitive::Shrink(ranges) => {
            let widths = ranges.iter().zip(&shape0);
            one(lax::pad(
                e,
                g,
                widths.map(|(&(s, t), &n)| (s, n - t)).collect(),
            )?)
        }
        Primitive::Pad(widths) => {
            let gs = e.aval(g).shape;
            let ranges = widths.iter().zip(&gs);
            one(lax::shrink(
                e,
                g,
                ranges.map(|(&(lo, hi), &n)| (lo, n - hi)).collect(),
            )?)
        }
        Primitive::Flip(axes) => one(lax::flip(e, g, axes.clone())?),
        Primitive::Concatenate(axis) => {
            let mut start = 0;
            let mut outs = Vec::with_capacity(ins.len());
            for x in ins {
                let n = e.aval(x).shape[*axis];
                outs.push(Some(lax::slice_axis(e, g, *axis, start, start + n)?));
                start += n;
            }
            Ok(outs)
        }
        _ => unreachable!("not a movement primitive"),
    }
}

/// Batching of a movement primitive whose single operand `v` is batched at `b` (batch size
/// `size`): slices, pads and flips keep the batch axis where it is; reshapes, transposes and
/// broadcasts move it to the front. Concatenate is `batch_leading` on the next axis.
pub fn batch<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    v: &E::V,
    b: usize,
    size: usize,
) -> Result<Batched<E::V>> {
    Ok(match prim {
        Primitive::Flip(axes) => {
            let axes = axes.iter().map(|&a| full_axis(a, b)).collect();
            (lax::flip(e, v, axes)?, Some(b))
        }
        Primitive::Shrink(ranges) => {
            let mut ranges = ranges.clone();
            ranges.insert(b, (0, size));
            (lax::shrink(e, v, ranges)?, Some(b))
        }
        Primitive::Pad(widths) => {
            let mut widths = widths.clone();
            widths.insert(b, (0, 0));
            (lax::pad(e, v, widths)?, Some(b))
        }
        Primitive::Reshape(shape) => {
            let front = lax::moveaxis(e, v, b, 0)?;
            let shape = std::iter::once(size).chain(shape.iter().copied()).collect();
            (lax::reshape(e, &front, shape)?, Some(0))
        }
        Primitive::Transpose(perm) => {
            let front = lax::moveaxis(e, v, b, 0)?;
            let perm = std::iter::once(0).chain(perm.iter().map(|p| p + 1));
            (lax::transpose(e, &front, perm.collect())?, Some(0))
        }
        Primitive::Broadcast { shape, axes } => {
            let front = lax::moveaxis(e, v, b, 0)?;
            let shape = std::iter::once(size).chain(shape.iter().copied()).collect();
            let axes = std::iter::once(0)
                .chain(axes.iter().map(|a| a + 1))
                .collect();
            (lax::broadcast(e, &front, shape, axes)?, Some(0))
        }
        _ => unreachable!("batched as several operands"),
    })
}
