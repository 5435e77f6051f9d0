//! `conv_general_dilated` as one reducing kernel: each output element sums, over input
//! channels of its group and kernel taps, the product of an input element (read through
//! padding and lhs dilation, where out-of-range or between-dilation positions are zero) and a
//! kernel element (with rhs dilation).

use super::index::{ravel, unravel};
use crate::core::dtype::promote;
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
        let mut conds = vec![
            AluExp::compare(CompareOp::Le, int(0), pos.clone()),
            AluExp::compare(CompareOp::Lt, pos.clone(), int((size - 1) * dil as i64 + 1)),
        ];
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
