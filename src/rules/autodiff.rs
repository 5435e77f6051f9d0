//! Reverse mode: the interface of the VJP rules and the combinators they are written with. Each
//! family's rules live in its file beside its abstract evaluation and kernel (`elementwise::vjp`,
//! `reduce::vjp`, `movement::vjp`, `linalg::matmul_vjp`, `conv::vjp`, `gather::vjp`,
//! `routine::vjp`, `sort::vjp`, `fft::vjp`); [`vjp`] dispatches to them by family
//! (`rules::family`), [`vjp_multi`] with one arm per multi-output primitive. Rules take the
//! cotangent `g` of the output and return the cotangents of the inputs (`None`: zero), written
//! with the [`lax`] builders over an [`Emit`] so they are ordinary operations (and therefore
//! differentiable again: `grad(grad(f))` works).

use super::emit::Emit;
use super::{conv, elementwise, family, gather, lax, linalg, movement, reduce, routine, Family};
use crate::core::{Aval, Primitive};
use crate::util::{Error, Result};

/// `g · d`, `d` computed first by `derivative` (the chain rule of most unary rules).
pub fn times<E: Emit>(
    e: &mut E,
    g: &E::V,
    derivative: impl FnOnce(&mut E) -> Result<E::V>,
) -> Result<E::V> {
    let d = derivative(e)?;
    lax::mul(e, g, &d)
}

/// `g / d`, `d` computed first by `divisor`.
pub fn over<E: Emit>(
    e: &mut E,
    g: &E::V,
    divisor: impl FnOnce(&mut E) -> Result<E::V>,
) -> Result<E::V> {
    let d = divisor(e)?;
    lax::div(e, g, &d)
}

/// `−v`, `v` computed first by `value`.
pub fn negated<E: Emit>(e: &mut E, value: impl FnOnce(&mut E) -> Result<E::V>) -> Result<E::V> {
    let v = value(e)?;
    lax::neg(e, &v)
}

/// `(c ? g : 0, c ? 0 : g)`: the cotangent routed to one of two operands by a condition.
pub fn route<E: Emit>(e: &mut E, c: &E::V, g: &E::V) -> Result<(E::V, E::V)> {
    let z = lax::zeros_like(e, g)?;
    let first = lax::select(e, c, g, &z)?;
    let second = lax::select(e, c, &z, g)?;
    Ok((first, second))
}

/// Sums `g` (of a broadcast result) back to `shape` (NumPy broadcasting reversed).
pub fn unbroadcast<E: Emit>(e: &mut E, g: &E::V, shape: &[usize]) -> Result<E::V> {
    let gs = e.aval(g).shape;
    if gs == shape {
        return Ok(g.clone());
    }
    let pad = gs.len() - shape.len();
    let axes: Vec<usize> = (0..gs.len())
        .filter(|&a| a < pad || (shape[a - pad] == 1 && gs[a] != 1))
        .collect();
    let summed = if axes.is_empty() {
        g.clone()
    } else {
        lax::sum(e, g, axes)?
    };
    lax::reshape(e, &summed, shape.to_vec())
}

/// [`unbroadcast`] of an optional cotangent to the shape of `x`.
pub fn unbroadcast_to<E: Emit>(e: &mut E, g: Option<E::V>, x: &E::V) -> Result<Option<E::V>> {
    match g {
        Some(g) => {
            let shape = e.aval(x).shape;
            Ok(Some(unbroadcast(e, &g, &shape)?))
        }
        None => Ok(None),
    }
}

/// The input cotangents of `prim` applied to `ins` giving `out`, for output cotangent `g`.
pub fn vjp<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[E::V],
    out: &E::V,
    g: &E::V,
) -> Result<Vec<Option<E::V>>> {
    // One arm per family (no wildcard), so a new family cannot miss its rules; each family's
    // rule matches its own primitives.
    match family(prim) {
        Family::Elementwise => elementwise::vjp(e, prim, ins, out, g),
        Family::Reduce | Family::Cumulative => reduce::vjp(e, prim, ins, out, g),
        Family::Movement => movement::vjp(e, prim, ins, g),
        Family::Creation => Ok(vec![]),
        Family::Linalg | Family::Indexing => match prim {
            Primitive::Matmul => linalg::matmul_vjp(e, ins, g),
            Primitive::Conv(p) => conv::vjp(e, p, ins, g),
            Primitive::Gather { axes, out_dim } => gather::vjp(e, axes, *out_dim, ins, g),
            _ => Err(Error::new(prim.name(), "internal error: no VJP rule")),
        },
        // Multi-output routines answer `not_differentiable`: `vjp_multi` differentiates them.
        Family::Routine => routine::vjp(e, prim, ins, out, g),
        // Differentiated by `transform::scan_ad`.
        Family::Control => Err(not_differentiable(prim)),
    }
}

pub fn not_differentiable(prim: &Primitive) -> Error {
    Error::new(
        prim.name(),
        "differentiation of this operation is not supported yet in oxjax",
    )
}

/// The input cotangents of a multi-output `prim` applied to `ins` giving `outs`, for output
/// cotangents `gs` (one per output, `None`: zero, at least one `Some`). Multi-output
/// primitives add their arm here (scan's rule lives in `transform`, as it traces its body).
pub fn vjp_multi<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[E::V],
    outs: &[E::V],
    gs: &[Option<E::V>],
) -> Result<Vec<Option<E::V>>> {
    match prim {
        Primitive::Lu => routine::lu_vjp(e, ins, outs, gs),
        // The permutation has no cotangent.
        Primitive::Sort => Ok(vec![match &gs[0] {
            Some(g) => Some(super::sort::vjp(e, &outs[1], g)?),
            None => None,
        }]),
        Primitive::Fft { inverse } => super::fft::vjp(e, *inverse, outs, gs),
        // Only ever applied to a value whose gradient is stopped (`library::jacobi`), so no
        // cotangent flows back through them: the library attaches the derivatives itself.
        Primitive::Diagonalize | Primitive::OrthogonalColumns { .. } => Ok(vec![None]),
        _ => Err(not_differentiable(prim)),
    }
}

/// Whether values of `aval` can be differentiated (the float dtypes, float16 included: as in
/// JAX, its cotangents are float16 and each rule's arithmetic rounds as float16 does).
pub fn is_differentiable(aval: &Aval) -> bool {
    aval.dtype.is_float()
}
