//! Reductions over a set of axes (`reduce_sum`, `reduce_prod`, `reduce_max`, `reduce_min`) and
//! running reductions along one axis (`cumsum`, `cumprod`, `cummax`, `cummin`): abstract
//! evaluation, kernels, VJP and batching rules.

use super::batch::{full_axis, Batched};
use super::emit::Emit;
use super::index::{ravel, unravel};
use super::lax;
use crate::core::ops::ReduceOp;
use crate::core::{Aval, DType, Primitive};
use crate::kernel::{AluExp, Kernel, Reduction};
use crate::util::{Error, Result};

fn name(op: ReduceOp) -> &'static str {
    match op {
        ReduceOp::Sum => "reduce_sum",
        ReduceOp::Prod => "reduce_prod",
        ReduceOp::Max => "reduce_max",
        ReduceOp::Min => "reduce_min",
    }
}

pub fn abstract_eval(op: ReduceOp, axes: &[usize], inputs: &[&Aval]) -> Result<Aval> {
    let [x] = inputs else {
        return Err(Error::new(
            name(op),
            format!("expected 1 operand, got {}", inputs.len()),
        ));
    };
    if axes.iter().any(|&a| a >= x.shape.len()) || axes.windows(2).any(|w| w[0] >= w[1]) {
        return Err(Error::new(
            name(op),
            format!(
                "axes {axes:?} must be sorted, unique and below rank {}",
                x.shape.len()
            ),
        ));
    }
    if x.dtype == DType::Bool && matches!(op, ReduceOp::Sum | ReduceOp::Prod) {
        return Err(Error::new(
            name(op),
            "cannot sum or multiply bool values; cast them first",
        ));
    }
    if matches!(op, ReduceOp::Max | ReduceOp::Min) && axes.iter().any(|&a| x.shape[a] == 0) {
        return Err(Error::new(name(op), "zero-size reduction has no identity"));
    }
    let shape = (0..x.shape.len())
        .filter(|a| !axes.contains(a))
        .map(|a| x.shape[a])
        .collect();
    Ok(Aval {
        shape,
        dtype: x.dtype,
        weak: x.weak,
    })
}

pub fn kernel(op: ReduceOp, axes: &[usize], x: &Aval, out: &Aval) -> Kernel {
    let reduced: Vec<usize> = axes.iter().map(|&a| x.shape[a]).collect();
    let out_coords = unravel(&AluExp::index(), &out.shape);
    let red_coords = unravel(&AluExp::reduce_index(), &reduced);
    let (mut kept, mut red) = (out_coords.into_iter(), red_coords.into_iter());
    let coords: Vec<AluExp> = (0..x.shape.len())
        .map(|a| {
            if axes.contains(&a) {
                red.next()
            } else {
                kept.next()
            }
            .expect("rank")
        })
        .collect();
    let load = AluExp::load(x.dtype, 0, ravel(&coords, &x.shape));
    let size = reduced.iter().product::<usize>();
    let mut kernel = Kernel::elementwise(vec![x.dtype], out.size(), load);
    // A reduction over nothing (size 1) is a copy; over zero elements gives the identity,
    // which the kernel produces without loading.
    if size == 0 {
        let id = crate::kernel::reduce_identity(op, x.dtype);
        kernel.exp = AluExp::constant(x.dtype, id);
    } else {
        kernel.reduction = Some(Reduction { op, size });
    }
    kernel
}

pub fn cumulative_abstract_eval(op: ReduceOp, axis: usize, inputs: &[&Aval]) -> Result<Aval> {
    let name = crate::core::Primitive::Cumulative {
        op,
        axis,
        reverse: false,
    }
    .name();
    let [x] = inputs else {
        return Err(Error::new(
            name,
            format!("expected 1 operand, got {}", inputs.len()),
        ));
    };
    if axis >= x.shape.len() {
        return Err(Error::new(
            name,
            format!("axis {axis} out of range for rank {}", x.shape.len()),
        ));
    }
    if x.dtype == DType::Bool && matches!(op, ReduceOp::Sum | ReduceOp::Prod) {
        return Err(Error::new(
            name,
            "cannot sum or multiply bool values; cast them first",
        ));
    }
    Ok((*x).clone())
}

/// `out[.., i, ..] = op over r ≤ i (r ≥ i when reversed) of x[.., r, ..]`: a reduction over the
/// whole axis with the elements past `i` replaced by the identity (quadratic, like jax-js's).
pub fn cumulative_kernel(op: ReduceOp, axis: usize, reverse: bool, x: &Aval) -> Kernel {
    let n = x.shape[axis];
    let mut coords = unravel(&AluExp::index(), &x.shape);
    let here = std::mem::replace(&mut coords[axis], AluExp::reduce_index());
    let load = AluExp::load(x.dtype, 0, ravel(&coords, &x.shape));
    let (lo, hi) = if reverse {
        (here, AluExp::reduce_index())
    } else {
        (AluExp::reduce_index(), here)
    };
    let included = AluExp::compare(crate::kernel::CompareOp::Le, lo, hi);
    let identity = AluExp::constant(x.dtype, crate::kernel::reduce_identity(op, x.dtype));
    let mut kernel = Kernel::elementwise(
        vec![x.dtype],
        x.size(),
        AluExp::where_(included, load, identity),
    );
    if n > 0 {
        kernel.reduction = Some(Reduction { op, size: n });
    }
    kernel
}

/// `g` broadcast from a reduction's output back over the reduced `axes` of `shape`.
fn expand<E: Emit>(e: &mut E, g: &E::V, shape: &[usize], axes: &[usize]) -> Result<E::V> {
    let kept: Vec<usize> = (0..shape.len())
        .map(|a| if axes.contains(&a) { 1 } else { shape[a] })
        .collect();
    let r = lax::reshape(e, g, kept)?;
    lax::broadcast(e, &r, shape.to_vec(), (0..shape.len()).collect())
}

/// The input cotangent of a reduction or running reduction (input `ins[0]`, output `out`) for
/// the output cotangent `g`.
pub fn vjp<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[E::V],
    out: &E::V,
    g: &E::V,
) -> Result<Vec<Option<E::V>>> {
    let x = &ins[0];
    Ok(vec![Some(match prim {
        Primitive::Reduce { op, axes } => reduce_vjp(e, *op, axes, x, out, g)?,
        Primitive::Cumulative {
            op: ReduceOp::Sum,
            axis,
            reverse,
        } => lax::running(e, ReduceOp::Sum, g, *axis, !reverse)?,
        Primitive::Cumulative { op, axis, reverse } => {
            let flip = |e: &mut E, v: &E::V| -> Result<E::V> {
                if *reverse {
                    lax::flip(e, v, vec![*axis])
                } else {
                    Ok(v.clone())
                }
            };
            let (x, y, gf) = (flip(e, x)?, flip(e, out)?, flip(e, g)?);
            let r = cumulative_vjp(e, *op, *axis, &x, &y, &gf)?;
            flip(e, &r)?
        }
        _ => unreachable!("not a reduction"),
    })])
}

fn reduce_vjp<E: Emit>(
    e: &mut E,
    op: ReduceOp,
    axes: &[usize],
    x: &E::V,
    out: &E::V,
    g: &E::V,
) -> Result<E::V> {
    let xs = e.aval(x).shape;
    let gb = expand(e, g, &xs, axes)?;
    Ok(match op {
        ReduceOp::Sum => gb,
        ReduceOp::Prod => {
            let yb = expand(e, out, &xs, axes)?;
            let r = lax::div(e, &yb, x)?;
            lax::mul(e, &gb, &r)?
        }
        ReduceOp::Max | ReduceOp::Min => {
            // Split equally among the extreme elements.
            let yb = expand(e, out, &xs, axes)?;
            let hit = lax::eq(e, x, &yb)?;
            let dtype = e.aval(g).dtype;
            let hitf = lax::cast(e, &hit, dtype)?;
            let count = lax::sum(e, &hitf, axes.to_vec())?;
            let cb = expand(e, &count, &xs, axes)?;
            let share = lax::div(e, &hitf, &cb)?;
            lax::mul(e, &gb, &share)?
        }
    })
}

/// Cotangent of `x` for a running product, maximum or minimum along `axis` (not reversed:
/// the caller flips): exact quadratic forms over `[…, j, i]` pairs of positions with the axis
/// last, no division, so zeros are handled.
fn cumulative_vjp<E: Emit>(
    e: &mut E,
    op: ReduceOp,
    axis: usize,
    x: &E::V,
    y: &E::V,
    g: &E::V,
) -> Result<E::V> {
    let rank = e.aval(x).shape.len();
    let last = rank - 1;
    let (x, y, g) = (
        lax::moveaxis(e, x, axis, last)?,
        lax::moveaxis(e, y, axis, last)?,
        lax::moveaxis(e, g, axis, last)?,
    );
    let s = e.aval(&x).shape;
    let n = s[last];
    let mut pair = s.clone();
    pair.push(n);
    // Values along i (the last axis) and along j (the one before).
    let along = |e: &mut E, v: &E::V, at: usize| -> Result<E::V> {
        lax::broadcast(e, v, pair.clone(), (0..last).chain([at]).collect())
    };
    let jj = lax::iota_i32(e, vec![n, n], 0)?;
    let ii = lax::iota_i32(e, vec![n, n], 1)?;
    let j_lt_i = lax::lt(e, &jj, &ii)?;
    let j_le_i = lax::le(e, &jj, &ii)?;
    let i_lt_j = lax::lt(e, &ii, &jj)?;
    let xi = along(e, &x, rank)?;
    let gi = along(e, &g, rank)?;
    let grad = match op {
        ReduceOp::Prod => {
            // ∂yᵢ/∂xⱼ = Π_{k<j} x_k · Π_{j<k≤i} x_k for j ≤ i.
            let a = lax::select(e, &j_lt_i, &xi, 1.0)?;
            let c = lax::cumulative(e, ReduceOp::Prod, &a, rank, false)?;
            let m = lax::select(e, &j_le_i, &c, 0.0)?;
            let mg = lax::mul(e, &m, &gi)?;
            let s = lax::sum(e, &mg, vec![rank])?;
            let b = lax::select(e, &i_lt_j, &xi, 1.0)?;
            let before = lax::reduce(e, ReduceOp::Prod, &b, vec![rank])?;
            lax::mul(e, &before, &s)?
        }
        _ => {
            // Each yᵢ comes from the first position j ≤ i that reached it (a new record):
            // xⱼ gets Σ gᵢ over the i ≥ j with yᵢ = yⱼ, when j is a record.
            let xj = along(e, &x, last)?;
            // Records: no earlier element at least as extreme.
            let (lo, hi) = if op == ReduceOp::Max {
                (&xi, &xj)
            } else {
                (&xj, &xi)
            };
            let not_beaten = lax::lt(e, lo, hi)?;
            let ok = lax::select(e, &i_lt_j, &not_beaten, 1.0)?;
            let okf = lax::cast(e, &ok, DType::Int32)?;
            let all = lax::reduce(e, ReduceOp::Min, &okf, vec![rank])?;
            let record = lax::eq(e, &all, 1.0)?;
            let yi = along(e, &y, rank)?;
            let yj = along(e, &y, last)?;
            let same = lax::eq(e, &yi, &yj)?;
            let zero = lax::zeros_like(e, &gi)?;
            let run = lax::select(e, &same, &gi, &zero)?;
            let run = lax::select(e, &j_le_i, &run, &zero)?;
            let s = lax::sum(e, &run, vec![rank])?;
            let z = lax::zeros_like(e, &s)?;
            lax::select(e, &record, &s, &z)?
        }
    };
    lax::moveaxis(e, &grad, last, axis)
}

/// Batching: the reduced (or running) axes shift past the batch axis `b`, which stays where it
/// is among the kept axes.
pub fn batch<E: Emit>(e: &mut E, prim: &Primitive, v: &E::V, b: usize) -> Result<Batched<E::V>> {
    Ok(match prim {
        Primitive::Reduce { op, axes } => {
            let below = axes.iter().filter(|&&a| a < b).count();
            let axes = axes.iter().map(|&a| full_axis(a, b)).collect();
            (lax::reduce(e, *op, v, axes)?, Some(b - below))
        }
        Primitive::Cumulative { op, axis, reverse } => {
            let axis = full_axis(*axis, b);
            (lax::cumulative(e, *op, v, axis, *reverse)?, Some(b))
        }
        _ => unreachable!("not a reduction"),
    })
}
