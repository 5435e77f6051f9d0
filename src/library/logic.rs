//! Whole-array comparisons: `allclose`, `arrayEqual` and `arrayEquiv`.

use super::reduce::{reduce, ReduceKind as K};
use super::statistics::isnan;
use crate::core::ops::BinaryOp as B;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::Result;

/// `allclose`: whether `|a − b| ≤ atol + rtol·|b|` everywhere (NaN positions must coincide).
pub fn allclose(a: &Value, b: &Value, rtol: f64, atol: f64) -> Result<Value> {
    compare("allclose", a, b, rtol, atol, false)
}

/// `arrayEqual`/`arrayEquiv`: whether every element is equal (NaNs too with `equal_nan`).
pub fn array_equal(name: &str, a: &Value, b: &Value, equal_nan: bool) -> Result<Value> {
    compare(name, a, b, 0.0, 0.0, equal_nan)
}

/// `allclose` (with `rtol`, `atol`), or `arrayEqual`/`arrayEquiv` (with `equal_nan`): one bool
/// scalar.
fn compare(
    name: &str,
    a: &Value,
    b: &Value,
    rtol: f64,
    atol: f64,
    equal_nan: bool,
) -> Result<Value> {
    let same = if name == "allclose" {
        let diff = lax::abs(&mut Binder, &lax::sub(&mut Binder, a, b)?)?;
        let tol = lax::add(
            &mut Binder,
            &lax::mul(&mut Binder, &lax::abs(&mut Binder, b)?, rtol)?,
            atol,
        )?;
        let close = lax::le(&mut Binder, &diff, &tol)?;
        let equal = lax::eq(&mut Binder, a, b)?; // equal infinities
        let both_nan = lax::binary(&mut Binder, B::And, &isnan(a)?, &isnan(b)?)?;
        lax::binary(
            &mut Binder,
            B::Or,
            &lax::binary(&mut Binder, B::Or, &close, &equal)?,
            &both_nan,
        )?
    } else {
        let equal = lax::eq(&mut Binder, a, b)?;
        if equal_nan {
            let both_nan = lax::binary(&mut Binder, B::And, &isnan(a)?, &isnan(b)?)?;
            lax::binary(&mut Binder, B::Or, &equal, &both_nan)?
        } else {
            equal
        }
    };
    reduce(name, K::All, &same, None, false)
}
