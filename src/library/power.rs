//! numpy's `power`: integer exponents multiply exactly (JAX's integer_pow), other exponents go
//! through `exp(y·log|x|)` with NumPy's signs, and integer bases with integer exponents stay
//! integer.

use crate::core::ops::BinaryOp as B;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::{Binder, Operand};
use crate::transform::Value;
use crate::util::{Error, Result};

/// `x ** y`. Small integer exponents given as numbers multiply exactly (JAX's integer_pow);
/// otherwise `exp(y·log|x|)`, negated for a negative base with an odd integer exponent, NaN
/// for a negative base with a fractional one, and `x ** 0 = 1`.
pub fn power(o: &[Operand]) -> Result<Value> {
    let base;
    let x = match (&o[0], &o[1]) {
        (Operand::Value(x), _) => *x,
        (Operand::Literal(b), Operand::Value(y)) => {
            base = number_base(*b, y)?;
            &base
        }
        _ => return Err(Error::new("power", "needs an array operand")),
    };
    if let Operand::Literal(y) = o[1] {
        if y.fract() == 0.0 && y.abs() <= 16.0 {
            return integer_power(x, y as i64);
        }
    }
    let int = |d: DType| matches!(d, DType::Int32 | DType::Uint32);
    if let Operand::Value(y) = &o[1] {
        if int(x.aval().dtype) && int(y.aval().dtype) {
            return int_int_power(x, y);
        }
    }
    let x = if x.aval().dtype.is_float() {
        x.clone()
    } else {
        lax::cast(&mut Binder, x, DType::Float32)?
    };
    let ax = lax::abs(&mut Binder, &x)?;
    let log = lax::log(&mut Binder, &ax)?;
    let mag = lax::exp(&mut Binder, &lax::mul(&mut Binder, o[1].clone(), &log)?)?;
    let negated = lax::neg(&mut Binder, &mag)?;
    let is_neg = lax::lt(&mut Binder, &x, 0.0)?;
    let y = match &o[1] {
        // A numeric exponent: its integrality and parity are known here.
        Operand::Literal(y) if y.fract() != 0.0 => {
            return lax::select(&mut Binder, &is_neg, f64::NAN, &mag)
        }
        Operand::Literal(y) if y.rem_euclid(2.0) == 1.0 => {
            return lax::select(&mut Binder, &is_neg, &negated, &mag)
        }
        Operand::Literal(_) => return Ok(mag),
        Operand::Value(y) => lax::cast(&mut Binder, *y, x.aval().dtype)?,
    };
    let floor = lax::floor(&mut Binder, &y)?;
    let is_int = lax::eq(&mut Binder, &floor, &y)?;
    let odd = lax::ne(&mut Binder, &lax::rem(&mut Binder, &y, 2.0)?, 0.0)?;
    let signed = lax::select(&mut Binder, &odd, &negated, &mag)?;
    let neg_base = lax::select(&mut Binder, &is_int, &signed, f64::NAN)?;
    let r = lax::select(&mut Binder, &is_neg, &neg_base, &mag)?;
    // `x ** 0 = 1` changes the value only where `y·log|x|` is NaN (x zero, infinite or NaN);
    // elsewhere `r` is already 1 and keeps the derivative in `y` (`log x`).
    let zero_exp = lax::eq(&mut Binder, &y, 0.0)?;
    let one = lax::select(&mut Binder, &zero_exp, 1.0, &r)?;
    let finite = lax::lt(&mut Binder, &ax, f64::INFINITY)?;
    let nonzero = lax::ne(&mut Binder, &x, 0.0)?;
    let regular = lax::binary(&mut Binder, B::And, &finite, &nonzero)?;
    lax::select(&mut Binder, &regular, &r, &one)
}

/// A JS number base `b` of `b ** y` as a scalar array: of `y`'s dtype where the weak number
/// takes it (a float `y`, or an integer `y` and an integral `b`), float32 otherwise.
fn number_base(b: f64, y: &Value) -> Result<Value> {
    let dy = y.aval().dtype;
    let dtype = if dy.is_float() || (dy != DType::Bool && b.fract() == 0.0) {
        dy
    } else {
        DType::Float32
    };
    let zero = lax::iota(&mut Binder, vec![1], 0, dtype)?;
    let scalar = lax::reshape(&mut Binder, &zero, vec![])?;
    lax::add(&mut Binder, &scalar, b)
}

/// Integer `x ** y` for an integer array `y` (JAX: an integer result), by squaring over the
/// 32 bits of `y`; a negative exponent gives 0, or ±1 for a base of ±1.
fn int_int_power(x: &Value, y: &Value) -> Result<Value> {
    let zero = lax::mul(&mut Binder, &lax::mul(&mut Binder, x, y)?, 0.0)?;
    let (mut base, mut e) = (
        lax::add(&mut Binder, x, &zero)?,
        lax::add(&mut Binder, y, &zero)?,
    );
    let mut acc = lax::add(&mut Binder, &zero, 1.0)?;
    for _ in 0..32 {
        let bit = lax::binary(&mut Binder, B::And, &e, 1.0)?;
        let odd = lax::ne(&mut Binder, &bit, 0.0)?;
        let times = lax::mul(&mut Binder, &acc, &base)?;
        acc = lax::select(&mut Binder, &odd, &times, &acc)?;
        base = lax::mul(&mut Binder, &base, &base)?;
        e = lax::binary(&mut Binder, B::Shr, &e, 1.0)?;
    }
    if y.aval().dtype == DType::Uint32 {
        return Ok(acc);
    }
    // (-1) ** y: 1 - 2·(y & 1), in y's integer dtype.
    let twice_odd = lax::mul(&mut Binder, &lax::binary(&mut Binder, B::And, y, 1.0)?, 2.0)?;
    let minus_one = lax::add(&mut Binder, &zero, &lax::sub(&mut Binder, 1.0, &twice_odd)?)?;
    let is_minus_one = lax::eq(&mut Binder, x, -1.0)?;
    let is_one = lax::eq(&mut Binder, x, 1.0)?;
    let unit = lax::select(&mut Binder, &is_minus_one, &minus_one, &zero)?;
    let unit = lax::select(&mut Binder, &is_one, 1.0, &unit)?;
    let negative = lax::lt(&mut Binder, y, 0.0)?;
    lax::select(&mut Binder, &negative, &unit, &acc)
}

fn integer_power(x: &Value, n: i64) -> Result<Value> {
    if n == 0 {
        let z = lax::mul(&mut Binder, x, 0.0)?;
        return lax::add(&mut Binder, &z, 1.0);
    }
    // Square-and-multiply on |n|, then a reciprocal for negative exponents.
    let (mut base, mut acc): (Value, Option<Value>) = (x.clone(), None);
    let mut k = n.unsigned_abs();
    while k > 0 {
        if k & 1 == 1 {
            acc = Some(match acc {
                None => base.clone(),
                Some(a) => lax::mul(&mut Binder, &a, &base)?,
            });
        }
        k >>= 1;
        if k > 0 {
            base = lax::mul(&mut Binder, &base, &base)?;
        }
    }
    let acc = acc.expect("n != 0");
    if n > 0 {
        Ok(acc)
    } else {
        lax::div(&mut Binder, 1.0, &acc)
    }
}
