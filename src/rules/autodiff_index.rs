//! Reverse-mode rules of the structured primitives (reached from `autodiff::vjp`): gather (a
//! one-hot contraction: the transpose of indexing without a scatter primitive), convolution
//! (JAX's transposed convolutions, groups included) and the running products, maxima and
//! minima (exact quadratic forms over an `[n, n]` pair of positions, no division, so zeros are
//! handled).

use super::emit::{Arg, Emit};
use super::lax;
use crate::core::ops::{BinaryOp as B, CompareOp as C, ReduceOp};
use crate::core::{ConvParams, DType, Primitive};
use crate::util::Result;

use Arg::{Lit, V};

/// The index arrays of a gather as in-range int32 positions (negative ones wrapped, the rest
/// clamped, as the kernel reads them).
fn positions<E: Emit>(e: &mut E, idx: &E::V, n: usize) -> Result<E::V> {
    let i = lax::cast(e, idx, DType::Int32)?;
    let neg = lax::compare(e, C::Lt, V(&i), Lit(0.0))?;
    let up = lax::binary(e, B::Add, V(&i), Lit(n as f64))?;
    let w = lax::select(e, V(&neg), V(&up), V(&i))?;
    let lo = lax::binary(e, B::Max, V(&w), Lit(0.0))?;
    lax::binary(e, B::Min, V(&lo), Lit(n.saturating_sub(1) as f64))
}

/// Cotangent of `x` for `gather(x, idx…)` with output cotangent `g`.
pub fn gather<E: Emit>(
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
        let pos = e.bind(
            Primitive::Broadcast {
                shape: idx_shape.clone(),
                axes: (idx_rank - r..idx_rank).collect(),
            },
            &[V(&pos)],
        )?;
        let stride: usize = sizes[k + 1..].iter().product();
        let scaled = lax::binary(e, B::Mul, V(&pos), Lit(stride as f64))?;
        flat = Some(match flat {
            None => scaled,
            Some(f) => lax::binary(e, B::Add, V(&f), V(&scaled))?,
        });
    }
    let flat = flat.expect("gather has index arrays");
    let count: usize = idx_shape.iter().product();
    let flat = lax::reshape(e, &flat, vec![count, 1])?;
    let cols = lax::iota_i32(e, vec![1, total], 1)?;
    let hit = lax::compare(e, C::Eq, V(&flat), V(&cols))?;
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

fn dilate(size: usize, d: usize) -> i64 {
    if size == 0 {
        0
    } else {
        (1 + d * (size - 1)) as i64
    }
}

/// Cotangents of `conv(lhs, rhs)`: transposed convolutions, as JAX computes them.
pub fn conv<E: Emit>(e: &mut E, p: &ConvParams, ins: &[E::V], g: &E::V) -> Result<[E::V; 2]> {
    let (lhs, rhs) = (&ins[0], &ins[1]);
    let (ls, rs, gs) = (e.aval(lhs).shape, e.aval(rhs).shape, e.aval(g).shape);
    let n_sp = ls.len() - 2;
    let groups = p.groups;
    let (o, cg) = (rs[0], rs[1]);
    let og = o / groups;
    let spatial: Vec<usize> = (2..ls.len()).collect();
    // lhs: conv of g with the flipped kernel, its in/out features swapped within each group.
    let mut r = vec![groups, og, cg];
    r.extend(&rs[2..]);
    let k = lax::reshape(e, rhs, r)?;
    let mut perm = vec![0, 2, 1];
    perm.extend(3..3 + n_sp);
    let k = lax::transpose(e, &k, perm)?;
    let mut r = vec![groups * cg, og];
    r.extend(&rs[2..]);
    let k = lax::reshape(e, &k, r)?;
    let k = lax::flip(e, &k, spatial.clone())?;
    let mut pad_l = Vec::with_capacity(n_sp);
    let mut pad_r = Vec::with_capacity(n_sp);
    for d in 0..n_sp {
        let lhs_d = dilate(ls[2 + d], p.lhs_dilation[d]);
        let rhs_d = dilate(rs[2 + d], p.rhs_dilation[d]);
        let out_d = dilate(gs[2 + d], p.strides[d]);
        let lo = p.padding[d].0;
        let before = rhs_d - lo - 1;
        pad_l.push((before, lhs_d + rhs_d - 1 - out_d - before));
        pad_r.push((lo, (out_d - lhs_d) + (rhs_d - lo - 1)));
    }
    let q = ConvParams {
        strides: p.lhs_dilation.clone(),
        padding: pad_l,
        lhs_dilation: p.strides.clone(),
        rhs_dilation: p.rhs_dilation.clone(),
        groups,
    };
    let gl = e.bind(Primitive::Conv(q), &[V(g), V(&k)])?;
    // rhs: conv of lhs (channels as the batch, images as features) with g as the kernel;
    // each group's images and outputs are one feature group.
    let (n, c) = (ls[0], ls[1]);
    let mut r = vec![n, groups, c / groups];
    r.extend(&ls[2..]);
    let x = lax::reshape(e, lhs, r)?;
    let mut perm = vec![2, 1, 0];
    perm.extend(3..3 + n_sp);
    let x = lax::transpose(e, &x, perm)?;
    let mut r = vec![c / groups, groups * n];
    r.extend(&ls[2..]);
    let x = lax::reshape(e, &x, r)?;
    let kg = lax::moveaxis(e, g, 1, 0)?;
    let q = ConvParams {
        strides: p.rhs_dilation.clone(),
        padding: pad_r,
        lhs_dilation: p.lhs_dilation.clone(),
        rhs_dilation: p.strides.clone(),
        groups,
    };
    let gr = e.bind(Primitive::Conv(q), &[V(&x), V(&kg)])?;
    let gr = lax::moveaxis(e, &gr, 1, 0)?;
    Ok([gl, gr])
}

/// Cotangent of `x` for a running product, maximum or minimum along `axis` (not reversed:
/// the caller flips). Works on `[…, j, i]` pairs of positions with the axis last.
pub fn cumulative<E: Emit>(
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
        let axes = (0..last).chain([at]).collect();
        e.bind(
            Primitive::Broadcast {
                shape: pair.clone(),
                axes,
            },
            &[V(v)],
        )
    };
    let jj = lax::iota_i32(e, vec![n, n], 0)?;
    let ii = lax::iota_i32(e, vec![n, n], 1)?;
    let j_lt_i = lax::compare(e, C::Lt, V(&jj), V(&ii))?;
    let j_le_i = lax::compare(e, C::Le, V(&jj), V(&ii))?;
    let i_lt_j = lax::compare(e, C::Lt, V(&ii), V(&jj))?;
    let xi = along(e, &x, rank)?;
    let gi = along(e, &g, rank)?;
    let sum_i = |e: &mut E, v: &E::V| {
        e.bind(
            Primitive::Reduce {
                op: ReduceOp::Sum,
                axes: vec![rank],
            },
            &[V(v)],
        )
    };
    let grad = match op {
        ReduceOp::Prod => {
            // ∂yᵢ/∂xⱼ = Π_{k<j} x_k · Π_{j<k≤i} x_k for j ≤ i.
            let a = lax::select(e, V(&j_lt_i), V(&xi), Lit(1.0))?;
            let c = e.bind(
                Primitive::Cumulative {
                    op: ReduceOp::Prod,
                    axis: rank,
                    reverse: false,
                },
                &[V(&a)],
            )?;
            let m = lax::select(e, V(&j_le_i), V(&c), Lit(0.0))?;
            let mg = lax::binary(e, B::Mul, V(&m), V(&gi))?;
            let s = sum_i(e, &mg)?;
            let b = lax::select(e, V(&i_lt_j), V(&xi), Lit(1.0))?;
            let before = e.bind(
                Primitive::Reduce {
                    op: ReduceOp::Prod,
                    axes: vec![rank],
                },
                &[V(&b)],
            )?;
            lax::binary(e, B::Mul, V(&before), V(&s))?
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
            let not_beaten = lax::compare(e, C::Lt, V(lo), V(hi))?;
            let ok = lax::select(e, V(&i_lt_j), V(&not_beaten), Lit(1.0))?;
            let okf = lax::cast(e, &ok, DType::Int32)?;
            let all = e.bind(
                Primitive::Reduce {
                    op: ReduceOp::Min,
                    axes: vec![rank],
                },
                &[V(&okf)],
            )?;
            let record = lax::compare(e, C::Eq, V(&all), Lit(1.0))?;
            let yi = along(e, &y, rank)?;
            let yj = along(e, &y, last)?;
            let same = lax::compare(e, C::Eq, V(&yi), V(&yj))?;
            let zero = lax::binary(e, B::Mul, V(&gi), Lit(0.0))?;
            let run = lax::select(e, V(&same), V(&gi), V(&zero))?;
            let run = lax::select(e, V(&j_le_i), V(&run), V(&zero))?;
            let s = sum_i(e, &run)?;
            let z = lax::binary(e, B::Mul, V(&s), Lit(0.0))?;
            lax::select(e, V(&record), V(&s), V(&z))?
        }
    };
    lax::moveaxis(e, &grad, last, axis)
}

/// The structured primitives' cotangents (`None`: zero), for `autodiff::vjp`.
pub fn vjp<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[E::V],
    out: &E::V,
    g: &E::V,
) -> Result<Vec<Option<E::V>>> {
    Ok(match prim {
        Primitive::Gather { axes, out_dim } => {
            let mut r = vec![Some(gather(e, axes, *out_dim, ins, g)?)];
            r.extend(ins[1..].iter().map(|_| None));
            r
        }
        Primitive::Conv(p) => conv(e, p, ins, g)?.into_iter().map(Some).collect(),
        Primitive::Cumulative { op, axis, reverse } => {
            let flip = |e: &mut E, v: &E::V| -> Result<E::V> {
                if *reverse {
                    e.bind(Primitive::Flip(vec![*axis]), &[V(v)])
                } else {
                    Ok(v.clone())
                }
            };
            let (x, y, gf) = (flip(e, &ins[0])?, flip(e, out)?, flip(e, g)?);
            let r = cumulative(e, *op, *axis, &x, &y, &gf)?;
            vec![Some(flip(e, &r)?)]
        }
        other => {
            return Err(crate::util::Error::new(
                other.name(),
                "differentiation of this operation is not supported yet in oxjax",
            ))
        }
    })
}
