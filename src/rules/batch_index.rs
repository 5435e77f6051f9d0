//! Batching rules of `gather` and `conv_general_dilated` (see `batch.rs` for the interface).
//!
//! Gather with batched indices indexes the batch axis too: the batch axis of `x` becomes one
//! more indexed axis, read at an `iota` over the batch. Convolution folds the batch axis into
//! the image count (batched lhs) or into feature groups (batched rhs, or both).

use super::batch::{to_front, value, BArg, Batched};
use super::emit::{Arg, Emit};
use super::lax;
use crate::core::{ConvParams, Primitive};
use crate::util::Result;

/// `gather` with `x = ins[0]` and index arrays `ins[1..]` for `axes`.
pub fn gather<E: Emit>(
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
        let mut ops = vec![front];
        for a in idx {
            ops.push(value(&prim, a)?.0.clone());
        }
        let args: Vec<Arg<E::V>> = ops.iter().map(Arg::V).collect();
        let p = Primitive::Gather {
            axes,
            out_dim: out_dim + 1,
        };
        return Ok(vec![(e.bind(p, &args)?, Some(0))]);
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
    let mut args = vec![Arg::V(&x)];
    args.extend(indices.iter().map(Arg::V));
    let out = e.bind(Primitive::Gather { axes, out_dim }, &args)?;
    Ok(vec![(out, Some(out_dim))])
}

/// `conv_general_dilated` (lhs `[N, C, …]`, rhs `[O, C/groups, …]`).
pub fn conv<E: Emit>(
    e: &mut E,
    p: &ConvParams,
    ins: &[BArg<E::V>],
    size: usize,
) -> Result<Vec<Batched<E::V>>> {
    let prim = Primitive::Conv(p.clone());
    let (lb, rb) = (ins[0].bdim(), ins[1].bdim());
    let b = size;
    let g = p.groups;
    match (lb, rb) {
        (Some(_), None) => {
            // Batch members are more images: [B, N, C, …] → [B·N, C, …].
            let lhs = to_front(e, &prim, &ins[0], size)?;
            let s = e.aval(&lhs).shape;
            let mut merged = vec![s[0] * s[1]];
            merged.extend_from_slice(&s[2..]);
            let lhs = lax::reshape(e, &lhs, merged)?;
            let rhs = value(&prim, &ins[1])?.0;
            let out = e.bind(prim.clone(), &[Arg::V(&lhs), Arg::V(rhs)])?;
            let o = e.aval(&out).shape;
            let mut split = vec![b, s[1]];
            split.extend_from_slice(&o[1..]);
            Ok(vec![(lax::reshape(e, &out, split)?, Some(0))])
        }
        (None, Some(_)) => {
            // Batch members are more output features, within each group: the kernel's
            // [B, O, Cg, …] becomes [g, B, O/g, Cg, …] → [g·B·O/g, Cg, …].
            let rhs = to_front(e, &prim, &ins[1], size)?;
            let s = e.aval(&rhs).shape;
            let (o, cg, k) = (s[1], s[2], s[3..].to_vec());
            let mut grouped = vec![b, g, o / g, cg];
            grouped.extend_from_slice(&k);
            let r = lax::reshape(e, &rhs, grouped)?;
            let r = lax::moveaxis(e, &r, 1, 0)?;
            let mut merged = vec![g * b * (o / g), cg];
            merged.extend_from_slice(&k);
            let rhs = lax::reshape(e, &r, merged)?;
            let lhs = value(&prim, &ins[0])?.0;
            let out = e.bind(prim.clone(), &[Arg::V(lhs), Arg::V(&rhs)])?;
            // [N, g·B·O/g, …] → [N, g, B, O/g, …] → [N, B, g, O/g, …] → [N, B, O, …].
            let os = e.aval(&out).shape;
            let mut split = vec![os[0], g, b, o / g];
            split.extend_from_slice(&os[2..]);
            let out = lax::reshape(e, &out, split)?;
            let out = lax::moveaxis(e, &out, 2, 1)?;
            let mut back = vec![os[0], b, o];
            back.extend_from_slice(&os[2..]);
            Ok(vec![(lax::reshape(e, &out, back)?, Some(1))])
        }
        _ => {
            // Both batched: each batch member is its own set of groups. lhs [B, N, C, …] →
            // [N, B·C, …]; rhs [B, O, Cg, …] → [B·O, Cg, …]; B·g groups.
            let lhs = to_front(e, &prim, &ins[0], size)?;
            let lhs = lax::moveaxis(e, &lhs, 0, 1)?;
            let s = e.aval(&lhs).shape;
            let mut merged = vec![s[0], b * s[2]];
            merged.extend_from_slice(&s[3..]);
            let lhs = lax::reshape(e, &lhs, merged)?;
            let rhs = to_front(e, &prim, &ins[1], size)?;
            let r = e.aval(&rhs).shape;
            let o = r[1];
            let mut rmerged = vec![b * o];
            rmerged.extend_from_slice(&r[2..]);
            let rhs = lax::reshape(e, &rhs, rmerged)?;
            let q = ConvParams {
                groups: b * g,
                ..p.clone()
            };
            let out = e.bind(Primitive::Conv(q), &[Arg::V(&lhs), Arg::V(&rhs)])?;
            let os = e.aval(&out).shape;
            let mut split = vec![os[0], b, o];
            split.extend_from_slice(&os[2..]);
            Ok(vec![(lax::reshape(e, &out, split)?, Some(1))])
        }
    }
}
