//! The implementations of the library calls (`library::call`) that take more than one
//! expression: argument checks and adaptations between a call's declared arguments and the
//! library function it runs.

use super::call::{one, values};
use super::call_args::*;
use super::{differences, fft, indexing, linalg, manipulation, nn, products, random};
use super::{selection, slicing, statistics};
use crate::core::ops::ReduceOp;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

type Results = Result<Vec<Value>>;

pub fn standardize(a: Standardize) -> Results {
    let axes = a.axis.0.unwrap_or_else(|| vec![-1]);
    let (mean, var) = (a.mean.as_deref(), a.variance.as_deref());
    one(nn::standardize(&a.x, &axes, mean, var, a.epsilon))
}

pub fn reduction(name: &str, a: NanReduction) -> Results {
    one(statistics::reduction(
        name,
        &a.x,
        a.axis.as_deref(),
        a.keepdims,
        a.ddof,
    ))
}

/// `cumulativeSum`/`cumulativeProd`.
pub fn cumulative(name: &str, a: Cumulative) -> Results {
    let op = if name == "cumulativeSum" {
        ReduceOp::Sum
    } else {
        ReduceOp::Prod
    };
    one(indexing::cumulative_initial(
        name,
        op,
        &a.x,
        a.axis,
        a.include_initial,
    ))
}

pub fn rot90(a: Rot90) -> Results {
    match a.axes[..] {
        [a0, a1] => one(manipulation::rot90(&a.x, a.k, a0, a1)),
        _ => Err(Error::new("rot90", "axes must be a pair of axes")),
    }
}

pub fn ediff1d(a: Unary) -> Results {
    let flat = super::shape::reshape(&a.x, vec![a.x.aval().size()])?;
    one(differences::diff(&flat, 1, 0))
}

pub fn select(a: Select) -> Results {
    let mut all = values(&a.condlist);
    all.extend(values(&a.choicelist));
    all.push(a.default_value.0);
    one(selection::select(&all, a.condlist.len()))
}

pub fn product(name: &str, a: Binary) -> Results {
    one(products::product(name, &a.a, &a.b))
}

pub fn complex_fft(name: &str, a: ComplexFft) -> Results {
    fft::fft(name, &[a.real.0, a.imag.0], a.axis, a.n)
}

pub fn complex_fftn(name: &str, a: ComplexFftn) -> Results {
    fft::fftn(name, &[a.real, a.imag], a.axes.as_deref())
}

/// A draw of distribution `name` with its parameters in order.
pub fn draw<const N: usize>(name: &str, key: &Value, shape: &[usize], p: [f64; N]) -> Results {
    let at = |i: usize| p.get(i).copied().unwrap_or(f64::NAN);
    one(random::dist::sample(name, key, shape, at(0), at(1), at(2)))
}

pub fn choice(a: Choice) -> Results {
    one(random::shuffle::choice(
        &a.key,
        a.a.as_deref(),
        a.p.as_deref(),
        a.n,
        a.replace,
        a.axis,
        &a.shape,
    ))
}

pub fn dot(a: Dot) -> Results {
    one(linalg::dot_general(
        &a.lhs,
        &a.rhs,
        a.lhs_contracting_dims.as_deref(),
        a.rhs_contracting_dims.as_deref(),
        &a.lhs_batch_dims,
        &a.rhs_batch_dims,
    ))
}

/// Element `index` along `axis`: a dynamic slice of size 1 there (starting at 0 elsewhere),
/// the axis dropped unless `keepdims`.
pub fn dynamic_index_in_dim(a: DynamicIndexInDim) -> Results {
    let (x, index) = (&a.x.0, &a.index.0);
    let rank = x.aval().shape.len();
    let axis = super::shape::normalize_axis("dynamicIndexInDim", a.axis, rank)?;
    let zero = lax::zeros_like(&mut Binder, index)?;
    let starts: Vec<Value> = (0..rank)
        .map(|k| {
            if k == axis {
                index.clone()
            } else {
                zero.clone()
            }
        })
        .collect();
    let mut sizes = x.aval().shape.clone();
    sizes[axis] = 1;
    let out = slicing::dynamic_slice(x, &starts, &sizes)?;
    if a.keepdims {
        return Ok(vec![out]);
    }
    sizes.remove(axis);
    one(super::shape::reshape(&out, sizes))
}

pub fn conv_transpose(a: ConvTranspose) -> Results {
    use super::conv::Padding;
    let padding = match a.padding {
        PadMode::Valid => Padding::Valid,
        PadMode::Same => Padding::Same,
        PadMode::Explicit => {
            if !a.pads.len().is_multiple_of(2) {
                return Err(Error::new("convTranspose", "pads must come in pairs"));
            }
            Padding::Explicit(a.pads.chunks(2).map(|p| (p[0], p[1])).collect())
        }
    };
    one(super::conv::conv_transpose(
        &a.lhs,
        &a.rhs,
        &a.strides,
        &padding,
        a.rhs_dilation.as_deref(),
        a.transpose_kernel,
    ))
}
