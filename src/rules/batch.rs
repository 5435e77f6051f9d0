//! Batching rules (`vmap`): for each primitive, how to apply it to operands that carry an
//! extra batch axis, written with [`Emit`] so the result is ordinary operations (run eagerly or
//! staged, and transformable again). An operand is a value with its batch axis (`Some(axis)`)
//! or without one (`None`: the same for every batch member), or a JS-number literal. Rules are
//! only called when at least one operand is batched; they return every output with its batch
//! axis.
//!
//! This file holds the interface and the combinators; each family's rules live in its file
//! (`reduce::batch`, `movement::batch`, `gather::batch`, `conv::batch`), and [`batch`] dispatches
//! to them by family (`rules::family`). Most primitives need only a combinator: [`batch_aligned`]
//! for operands that broadcast NumPy-style (elementwise primitives, `matmul`), [`batch_leading`]
//! for primitives that map over leading axes (routines on `[..., n, n]`, `concatenate`), which
//! moves every batched operand's batch axis to the front, broadcasts the unbatched ones, and
//! applies the primitive unchanged (the output's batch axis is 0).

use super::emit::{Arg, Emit};
use super::{conv, family, gather, lax, movement, reduce, Family};
use crate::core::Primitive;
use crate::util::{Error, Result};

/// An operand of a batched operation.
pub enum BArg<'a, V> {
    /// A value and its batch axis (`None`: not batched).
    V(&'a V, Option<usize>),
    /// A JS number (never batched).
    Lit(f64),
}

impl<V> BArg<'_, V> {
    pub fn bdim(&self) -> Option<usize> {
        match self {
            BArg::V(_, b) => *b,
            BArg::Lit(_) => None,
        }
    }
}

/// A result of a batched operation: the value and its batch axis.
pub type Batched<V> = (V, Option<usize>);

/// `v` with its batch axis at `to`: moved there, or (unbatched) broadcast to `size` there.
pub fn batch_at<E: Emit>(
    e: &mut E,
    v: &E::V,
    bdim: Option<usize>,
    size: usize,
    to: usize,
) -> Result<E::V> {
    match bdim {
        Some(b) => lax::moveaxis(e, v, b, to),
        None => {
            let from = e.aval(v).shape;
            let mut shape = from.clone();
            shape.insert(to, size);
            let axes = (0..from.len()).map(|a| a + usize::from(a >= to)).collect();
            lax::broadcast(e, v, shape, axes)
        }
    }
}

/// The value of a non-literal operand (rules other than elementwise ones take arrays only).
pub fn value<'a, V>(prim: &Primitive, a: &'a BArg<V>) -> Result<(&'a V, Option<usize>)> {
    match a {
        BArg::V(v, b) => Ok((v, *b)),
        BArg::Lit(_) => Err(Error::new(
            prim.name(),
            "internal error: a literal operand where an array was expected",
        )),
    }
}

/// Operand `a`'s batch axis moved to the front: the per-example axes follow.
pub fn to_front<E: Emit>(e: &mut E, prim: &Primitive, a: &BArg<E::V>, size: usize) -> Result<E::V> {
    let (v, b) = value(prim, a)?;
    batch_at(e, v, b, size, 0)
}

/// The rank of one batch member of operand `a`.
fn example_rank<E: Emit>(e: &E, a: &BArg<E::V>) -> usize {
    match a {
        BArg::V(v, b) => e.aval(v).shape.len() - usize::from(b.is_some()),
        BArg::Lit(_) => 0,
    }
}

/// An owned operand: a value or a literal.
pub enum Owned<V> {
    V(V),
    Lit(f64),
}

/// Borrows owned operands as emitter arguments.
pub fn args<V>(owned: &[Owned<V>]) -> Vec<Arg<'_, V>> {
    owned
        .iter()
        .map(|o| match o {
            Owned::V(v) => Arg::V(v),
            Owned::Lit(x) => Arg::Lit(*x),
        })
        .collect()
}

/// Operands for a primitive whose operands broadcast NumPy-style (right-aligned): batched ones
/// get their batch axis at the front, padded with unit axes to `rank + 1`, so it lines up
/// with every other operand's; unbatched ones and literals stay as they are.
fn aligned<E: Emit>(e: &mut E, ins: &[BArg<E::V>], rank: usize) -> Result<Vec<Owned<E::V>>> {
    let mut out = Vec::with_capacity(ins.len());
    for a in ins {
        out.push(match a {
            BArg::V(v, Some(b)) => {
                let front = lax::moveaxis(e, v, *b, 0)?;
                let s = e.aval(&front).shape;
                if s.len() == rank + 1 {
                    Owned::V(front)
                } else {
                    let mut shape = vec![s[0]];
                    shape.extend(std::iter::repeat_n(1, rank + 1 - s.len()));
                    shape.extend_from_slice(&s[1..]);
                    Owned::V(lax::reshape(e, &front, shape)?)
                }
            }
            BArg::V(v, None) => Owned::V((*v).clone()),
            BArg::Lit(x) => Owned::Lit(*x),
        });
    }
    Ok(out)
}

/// Applies `prim` unchanged to operands whose batch axes are moved to the front (unbatched
/// ones broadcast): right for primitives that map over leading axes. Every output (several
/// for multi-output primitives) gets batch axis 0.
pub fn batch_leading<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[BArg<E::V>],
    size: usize,
) -> Result<Vec<Batched<E::V>>> {
    let mut vals = Vec::with_capacity(ins.len());
    for a in ins {
        vals.push(to_front(e, prim, a, size)?);
    }
    let args: Vec<Arg<E::V>> = vals.iter().map(Arg::V).collect();
    let outs = e.bind_multi(prim.clone(), &args)?;
    Ok(outs.into_iter().map(|v| (v, Some(0))).collect())
}

/// Per-example axis `a` of an operand batched at `b`, as an axis of the batched operand.
pub fn full_axis(a: usize, b: usize) -> usize {
    a + usize::from(a >= b)
}

/// Applies `prim` to operands that broadcast NumPy-style: each batched operand's batch axis
/// goes to the front, padded with unit axes so it lines up with every other operand's. The
/// output's batch axis is 0.
pub fn batch_aligned<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[BArg<E::V>],
) -> Result<Vec<Batched<E::V>>> {
    let rank = ins.iter().map(|a| example_rank(e, a)).max().unwrap_or(0);
    let owned = aligned(e, ins, rank)?;
    Ok(vec![(e.bind(prim.clone(), &args(&owned))?, Some(0))])
}

/// The single operand of a one-operand primitive, which must be batched, and its batch axis.
fn single<'a, V>(prim: &Primitive, ins: &'a [BArg<V>]) -> Result<(&'a V, usize)> {
    match ins {
        [BArg::V(v, Some(b))] => Ok((*v, *b)),
        _ => Err(Error::new(
            prim.name(),
            "internal error: expected one batched operand",
        )),
    }
}

/// The outputs of `prim` applied to batched operands `ins` (batch size `size`).
pub fn batch<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[BArg<E::V>],
    size: usize,
) -> Result<Vec<Batched<E::V>>> {
    // One arm per family (no wildcard), so a new family cannot miss its rules.
    match family(prim) {
        Family::Elementwise => batch_aligned(e, prim, ins),
        Family::Reduce | Family::Cumulative => {
            let (v, b) = single(prim, ins)?;
            Ok(vec![reduce::batch(e, prim, v, b)?])
        }
        Family::Movement => match prim {
            Primitive::Concatenate(axis) => {
                batch_leading(e, &Primitive::Concatenate(axis + 1), ins, size)
            }
            _ => {
                let (v, b) = single(prim, ins)?;
                Ok(vec![movement::batch(e, prim, v, b, size)?])
            }
        },
        Family::Creation => Err(Error::new(
            prim.name(),
            "internal error: iota has no operands to batch",
        )),
        Family::Linalg | Family::Indexing => match prim {
            Primitive::Matmul => batch_aligned(e, prim, ins),
            Primitive::Conv(p) => conv::batch(e, p, ins, size),
            Primitive::Gather { axes, out_dim } => gather::batch(e, axes, *out_dim, ins, size),
            _ => Err(Error::new(prim.name(), "internal error: no batching rule")),
        },
        // Routines over `[..., n, n]` (or `[..., n]`) with equal batch axes.
        Family::Routine => batch_leading(e, prim, ins, size),
        // Batched by `transform::scan_vmap` (it batches the body).
        Family::Control => Err(Error::new(
            prim.name(),
            "internal error: scan is batched in transform::scan_vmap",
        )),
    }
}
