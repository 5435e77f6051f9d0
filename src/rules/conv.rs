//! `conv_general_dilated` as one reducing kernel: each output element sums, over input
//! channels of its group and kernel taps, the product of an input element (read through
//! padding and lhs dilation, where out-of-range or between-dilation positions are zero) and a
//! kernel element (with rhs dilation). Its VJP (JAX's transposed convolutions, groups included)
//! and batching rules are here too.

use super::batch::{to_front, value, BArg, Batched};
use super::emit::Emit;
use super::index::{ravel, unravel};
use super::lax;
use crate::core::dtype::promote;
use crate::core::Primitive;
use crate::core::{Aval, ConvParams, DType};
use crate::kernel::{AluExp, BinaryOp, CompareOp, Kernel, ReduceOp, Reduction};
use crate::util::{Error, Result};

fn err(problem: impl std::fmt::Display) -> Error {
    Error::new("conv_general_dilated", problem)
}

/// Output spatial sizes, or an error when the window does not fit.
fn out_sizes(p: &ConvParams, spatial: &[usize], window: &[usize]) -> Result<Vec<usize>> {
    (0..spatial.len())
        .map(|d| {
            let dilated_in = (spatial[d].max(1) - 1) * p.lhs_dilation[d] + 1;
            let dilated_in = if spatial[d] == 0 { 0 } else { dilated_in } as i64;
            let dilated_k = ((window[d].max(1) - 1) * p.rhs_dilation[d] + 1) as i64;
            let span = dilated_in + p.padding[d].0 + p.padding[d].1 - dilated_k;
            if span < 0 {
                return Err(err(format!("the window does not fit spatial axis {d}")));
            }
            Ok((span / p.strides[d] as i64 + 1) as usize)
        })
        .collect()
}

pub fn abstract_eval(p: &ConvParams, inputs: &[&Aval]) -> Result<Aval> {
    let [lhs, rhs] = inputs else {
        return Err(err(format!("expected 2 operands, got {}", inputs.len())));
    };
    let rank = lhs.shape.len();
    if rank < 3 || rhs.shape.len() != rank {
        return Err(err(format!(
            "lhs [N, C, …] and rhs [O, C/groups, …] must have the same rank ≥ 3, got {:?} and {:?}",
            lhs.shape, rhs.shape
        )));
    }
    let n = rank - 2;
    let lens = [
        p.strides.len(),
        p.padding.len(),
        p.lhs_dilation.len(),
        p.rhs_dilation.len(),
    ];
    if lens.iter().any(|&l| l != n) {
        return Err(err(format!(
            "strides, padding and dilations need {n} entries each"
        )));
    }
    let zeros = p
        .strides
        .iter()
        .chain(&p.lhs_dilation)
        .chain(&p.rhs_dilation)
        .any(|&s| s == 0);
    if zeros || p.groups == 0 {
        return Err(err(
            "strides, dilations and feature_group_count must be positive",
        ));
    }
    let (c, o, cg) = (lhs.shape[1], rhs.shape[0], rhs.shape[1]);
    if c != cg * p.groups || o % p.groups != 0 {
        return Err(err(format!(
            "{c} input channels, kernel {cg} per group × {} groups, {o} outputs: inconsistent",
            p.groups
        )));
    }
    let (dtype, weak) = promote(lhs.dtype, lhs.weak, rhs.dtype, rhs.weak);
    if !dtype.is_float() || dtype == DType::Float16 {
        return Err(err(format!("{} operands are not supported", dtype.name())));
    }
    let mut shape = vec![lhs.shape[0], o];
    shape.extend(out_sizes(p, &lhs.shape[2..], &rhs.shape[2..])?);
    Ok(Aval { shape, dtype, weak })
}

pub fn kernel(p: &ConvParams, lhs: &Aval, rhs: &Aval, out: &Aval) -> Kernel {
    let int = |v: i64| AluExp::constant(DType::Int32, v as f64);
    let oc = unravel(&AluExp::index(), &out.shape);
    let window = &rhs.shape[2..];
    let mut red_shape = vec![rhs.shape[1]];
    red_shape.extend_from_slice(window);
    let rc = unravel(&AluExp::reduce_index(), &red_shape);
    let per_group_out = out.shape[1] / p.groups;
    let group = AluExp::index_div(oc[1].clone(), per_group_out);
    let in_channel = AluExp::index_add(
        AluExp::index_mul(group, rhs.shape[1] as isize),
        rc[0].clone(),
    );
    let mut valid: Option<AluExp> = None;
    let mut in_coords = vec![oc[0].clone(), in_channel];
    for d in 0..window.len() {
        // Position in the padded, lhs-dilated input.
        let pos = AluExp::index_add(
            AluExp::index_mul(oc[2 + d].clone(), p.strides[d] as isize),
            AluExp::index_add(
                AluExp::index_mul(rc[1 + d].clone(), p.rhs_dilation[d] as isize),
                int(-p.padding[d].0),
            ),
        );
        let dil = p.lhs_dilation[d];
        let size = lhs.shape[2 + d] as i64;
        // Without padding (or with cropping) and lhs dilation every position is in range: the
        // largest is (out − 1)·stride + (window − 1)·rhs_dilation − lo ≤ size + hi − 1.
        let in_range = dil == 1 && p.padding[d].0 <= 0 && p.padding[d].1 <= 0;
        let mut conds = vec![];
        if !in_range {
            conds.push(AluExp::compare(CompareOp::Le, int(0), pos.clone()));
            conds.push(AluExp::compare(
                CompareOp::Lt,
                pos.clone(),
                int((size - 1) * dil as i64 + 1),
            ));
        }
        if dil > 1 {
            let rem = AluExp::binary(BinaryOp::Rem, pos.clone(), int(dil as i64));
            conds.push(AluExp::compare(CompareOp::Eq, rem, int(0)));
        }
        for c in conds {
            valid = Some(match valid {
                None => c,
                Some(v) => AluExp::binary(BinaryOp::And, v, c),
            });
        }
        in_coords.push(AluExp::index_div(pos, dil));
    }
    let x = AluExp::cast(
        AluExp::load(lhs.dtype, 0, ravel(&in_coords, &lhs.shape)),
        out.dtype,
    );
    let mut k_coords = vec![oc[1].clone()];
    k_coords.extend(rc.iter().cloned());
    let w = AluExp::cast(
        AluExp::load(rhs.dtype, 1, ravel(&k_coords, &rhs.shape)),
        out.dtype,
    );
    let product = AluExp::binary(BinaryOp::Mul, x, w);
    let zero = AluExp::constant(out.dtype, 0.0);
    let exp = match valid {
        Some(v) => AluExp::where_(v, product, zero),
        None => product,
    };
    let mut kernel = Kernel::elementwise(vec![lhs.dtype, rhs.dtype], out.size(), exp);
    let size: usize = red_shape.iter().product();
    if size == 0 {
        kernel.exp = AluExp::constant(out.dtype, 0.0);
    } else {
        kernel.reduction = Some(Reduction {
            op: ReduceOp::Sum,
            size,
        });
    }
    kernel
}

fn dilate(size: usize, d: usize) -> i64 {
    if size == 0 {
        0
    } else {
        (1 + d * (size - 1)) as i64
    }
}

/// Cotangents of `conv(lhs, rhs)`: transposed convolutions, as JAX computes them.
pub fn vjp<E: Emit>(
    e: &mut E,
    p: &ConvParams,
    ins: &[E::V],
    g: &E::V,
) -> Result<Vec<Option<E::V>>> {
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
    let gl = lax::conv(e, g, &k, q)?;
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
    let gr = lax::conv(e, &x, &kg, q)?;
    let gr = lax::moveaxis(e, &gr, 1, 0)?;
    Ok(vec![Some(gl), Some(gr)])
}

/// Batching of `conv_general_dilated` (lhs `[N, C, …]`, rhs `[O, C/groups, …]`): the batch
/// axis folds into the image count (batched lhs) or into feature groups (batched rhs, or both).
pub fn batch<E: Emit>(
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
            let out = lax::conv(e, &lhs, rhs, p.clone())?;
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
            let out = lax::conv(e, lhs, &rhs, p.clone())?;
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
            let out = lax::conv(e, &lhs, &rhs, q)?;
            let os = e.aval(&out).shape;
            let mut split = vec![os[0], b, o];
            split.extend_from_slice(&os[2..]);
            Ok(vec![(lax::reshape(e, &out, split)?, Some(1))])
        }
    }
}
