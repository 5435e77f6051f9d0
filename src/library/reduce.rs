//! numpy reductions over axes, with jax-js's dtype rules: `sum`/`prod` of bool count in int32,
//! `mean` accumulates in at least float32 (so integer and bool means are float32), `all`/`any`
//! work on bool. Also `var` and `std` (with a correction).

use crate::core::ops::ReduceOp;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceKind {
    Sum,
    Prod,
    Max,
    Min,
    Mean,
    All,
    Any,
}

impl ReduceKind {
    pub fn parse(name: &str) -> Result<ReduceKind> {
        Ok(match name {
            "sum" => ReduceKind::Sum,
            "prod" => ReduceKind::Prod,
            "max" => ReduceKind::Max,
            "min" => ReduceKind::Min,
            "mean" => ReduceKind::Mean,
            "all" => ReduceKind::All,
            "any" => ReduceKind::Any,
            other => return Err(Error::new(other, "unknown reduction")),
        })
    }
}

/// Reduces `x` over `axes` (any order, negative allowed, `None` = all); with `keepdims` the
/// reduced axes stay as size 1.
pub fn reduce(
    name: &str,
    kind: ReduceKind,
    x: &Value,
    axes: Option<&[i64]>,
    keepdims: bool,
) -> Result<Value> {
    let shape = x.aval().shape.clone();
    let rank = shape.len() as i64;
    let mut axes: Vec<usize> = match axes {
        None => (0..shape.len()).collect(),
        Some(list) => list
            .iter()
            .map(|&a| {
                let n = if a < 0 { a + rank } else { a };
                if (0..rank).contains(&n) {
                    Ok(n as usize)
                } else {
                    Err(Error::new(
                        name,
                        format!("axis {a} is out of bounds for rank {rank}"),
                    ))
                }
            })
            .collect::<Result<_>>()?,
    };
    axes.sort_unstable();
    if axes.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::new(name, format!("repeated axis in {axes:?}")));
    }
    let dtype = x.aval().dtype;
    let count: usize = axes.iter().map(|&a| shape[a]).product();
    let reduce = |op, x: &Value| lax::reduce(&mut Binder, op, x, axes.clone());
    let out = match kind {
        ReduceKind::Sum | ReduceKind::Prod => {
            let x = if dtype == DType::Bool {
                lax::convert(&mut Binder, x, DType::Int32)?
            } else {
                x.clone()
            };
            let op = if kind == ReduceKind::Sum {
                ReduceOp::Sum
            } else {
                ReduceOp::Prod
            };
            reduce(op, &x)?
        }
        ReduceKind::Max => reduce(ReduceOp::Max, x)?,
        ReduceKind::Min => reduce(ReduceOp::Min, x)?,
        ReduceKind::All => reduce(ReduceOp::Min, &lax::convert(&mut Binder, x, DType::Bool)?)?,
        ReduceKind::Any => reduce(ReduceOp::Max, &lax::convert(&mut Binder, x, DType::Bool)?)?,
        ReduceKind::Mean => {
            // An empty axis gives 0 / 0 = NaN, as NumPy's mean does. Integer and bool arrays
            // average in float32 and stay float32 (JAX and jax-js).
            let wide = if dtype.is_float() {
                dtype
            } else {
                DType::Float32
            };
            let total = reduce(ReduceOp::Sum, &lax::convert(&mut Binder, x, wide)?)?;
            lax::div(&mut Binder, &total, count as f64)?
        }
    };
    if !keepdims {
        return Ok(out);
    }
    let kept: Vec<usize> = (0..shape.len())
        .map(|a| if axes.contains(&a) { 1 } else { shape[a] })
        .collect();
    lax::reshape(&mut Binder, &out, kept)
}

/// Variance with `correction` (ddof): mean of squared deviations over `axes`.
pub fn var(x: &Value, axes: Option<&[i64]>, correction: f64, keepdims: bool) -> Result<Value> {
    let x = if x.aval().dtype.is_float() {
        x.clone()
    } else {
        lax::cast(&mut Binder, x, DType::Float32)?
    };
    let m = reduce("var", ReduceKind::Mean, &x, axes, true)?;
    let d = lax::sub(&mut Binder, &x, &m)?;
    let d2 = lax::mul(&mut Binder, &d, &d)?;
    let total = reduce("var", ReduceKind::Sum, &d2, axes, keepdims)?;
    let n = x.aval().size() / total.aval().size().max(1);
    let count = n as f64 - correction;
    if count <= 0.0 {
        return Err(Error::new(
            "var",
            format!("{n} elements leave no degrees of freedom"),
        ));
    }
    lax::div(&mut Binder, &total, count)
}

pub fn std(x: &Value, axes: Option<&[i64]>, correction: f64, keepdims: bool) -> Result<Value> {
    let s = var(x, axes, correction, keepdims)?;
    lax::sqrt(&mut Binder, &s)
}
