//! Differences and integrals along an axis: `diff`, `unwrap` and `trapezoid`, as slices and
//! elementwise primitives.

use super::emit::{lit, v};
use super::reduce::{reduce, ReduceKind as K};
use super::shape::{concatenate, normalize_axis, reshape};
use crate::core::ops::BinaryOp as B;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::Result;

/// The `n`-th discrete difference along `axis`.
pub fn diff(x: &Value, n: usize, axis: i64) -> Result<Value> {
    let ax = normalize_axis("diff", axis, x.aval().shape.clone().len())?;
    let mut y = x.clone();
    for _ in 0..n {
        let len = y.aval().shape.clone()[ax];
        if len == 0 {
            break;
        }
        let hi = lax::slice_axis(&mut Binder, &y, ax, 1, len)?;
        let lo = lax::slice_axis(&mut Binder, &y, ax, 0, len - 1)?;
        y = if y.aval().dtype == DType::Bool {
            lax::ne(&mut Binder, &hi, &lo)?
        } else {
            lax::sub(&mut Binder, &hi, &lo)?
        };
    }
    Ok(y)
}

/// The trapezoid rule along `axis`, with sample points `x` or spacing `dx`.
pub fn trapezoid(y: &Value, x: Option<&Value>, dx: f64, axis: i64) -> Result<Value> {
    let y = super::math::float(&v(y))?;
    let ax = normalize_axis("trapezoid", axis, y.aval().shape.clone().len())?;
    let n = y.aval().shape.clone()[ax];
    if n == 0 {
        return reduce("trapezoid", K::Sum, &y, Some(&[ax as i64]), false);
    }
    let mid = lax::add(
        &mut Binder,
        &lax::slice_axis(&mut Binder, &y, ax, 1, n)?,
        &lax::slice_axis(&mut Binder, &y, ax, 0, n - 1)?,
    )?;
    let mid = lax::mul(&mut Binder, &mid, 0.5)?;
    let terms = match x {
        None => lax::mul(&mut Binder, &mid, dx)?,
        Some(x) => {
            let x = if x.aval().shape.clone().len() == 1 && y.aval().shape.clone().len() > 1 {
                let mut s = vec![1; y.aval().shape.clone().len()];
                s[ax] = x.aval().shape.clone()[0];
                reshape(x, s)?
            } else {
                x.clone()
            };
            let d = diff(
                &x,
                1,
                if x.aval().shape.clone().len() == 1 {
                    0
                } else {
                    ax as i64
                },
            )?;
            lax::mul(&mut Binder, &mid, &d)?
        }
    };
    reduce("trapezoid", K::Sum, &terms, Some(&[ax as i64]), false)
}

/// Unwraps phase jumps larger than `discont` (default: half the period) along `axis`.
pub fn unwrap(x: &Value, discont: Option<f64>, axis: i64, period: f64) -> Result<Value> {
    let x = super::math::float(&v(x))?;
    let discont = discont.unwrap_or(period / 2.0).max(period / 2.0);
    let ax = normalize_axis("unwrap", axis, x.aval().shape.len())?;
    let n = x.aval().shape.clone()[ax];
    if n < 2 {
        return Ok(x);
    }
    let dd = lax::sub(
        &mut Binder,
        &lax::slice_axis(&mut Binder, &x, ax, 1, n)?,
        &lax::slice_axis(&mut Binder, &x, ax, 0, n - 1)?,
    )?;
    let half = period / 2.0;
    let shifted = lax::add(&mut Binder, &dd, half)?;
    let ddmod = super::apply("remainder", &[v(&shifted), lit(period)])?;
    let ddmod = lax::sub(&mut Binder, &ddmod, half)?;
    let at_edge = lax::binary(
        &mut Binder,
        B::And,
        &lax::eq(&mut Binder, &ddmod, -half)?,
        &lax::lt(&mut Binder, 0.0, &dd)?,
    )?;
    let ddmod = lax::select(&mut Binder, &at_edge, half, &ddmod)?;
    let correct = lax::sub(&mut Binder, &ddmod, &dd)?;
    let small = lax::lt(&mut Binder, &lax::abs(&mut Binder, &dd)?, discont)?;
    let correct = lax::select(&mut Binder, &small, 0.0, &correct)?;
    let total = super::indexing::cumulative(
        "unwrap",
        crate::core::ops::ReduceOp::Sum,
        &correct,
        Some(ax as i64),
    )?;
    let rest = lax::add(
        &mut Binder,
        &lax::slice_axis(&mut Binder, &x, ax, 1, n)?,
        &total,
    )?;
    concatenate(
        &[lax::slice_axis(&mut Binder, &x, ax, 0, 1)?, rest],
        ax as i64,
    )
}
