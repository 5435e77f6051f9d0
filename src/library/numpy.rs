//! Elementwise numpy functions that are compositions of primitives, with NumPy's conventions
//! (integer inputs to float functions become float32; `remainder` takes the divisor's sign).

use crate::rules::lax;
use crate::transform::trace::{Binder, Operand};
use std::f64::consts::{LN_10, LN_2, PI};

use super::emit::v as val;

use crate::core::ops::{BinaryOp as B, UnaryOp as U};
use crate::core::DType;
use crate::transform::Value;
use crate::util::{Error, Result};

type Composite = fn(&[Operand]) -> Result<Value>;

/// The composition implementing numpy function `name`, if it is one.
pub fn lookup(name: &str) -> Option<Composite> {
    Some(match name {
        "subtract" => |o| lax::sub(&mut Binder, o[0].clone(), o[1].clone()),
        // `clip` with both bounds (one bound is `max` or `min` alone).
        "clip" => |o| {
            let low = lax::max(&mut Binder, o[0].clone(), o[1].clone())?;
            lax::min(&mut Binder, &low, o[2].clone())
        },
        "divide" => divide,
        "floor_divide" => floor_divide,
        "remainder" => remainder,
        "square" => |o| lax::mul(&mut Binder, o[0].clone(), o[0].clone()),
        "exp2" => |o| float_unary(U::Exp, val(&mul_const(to_float(o[0].clone())?.op(), LN_2)?)),
        "expm1" => |o| add_const(val(&float_unary(U::Exp, o[0].clone())?), -1.0),
        "log2" => |o| div_const(val(&float_unary(U::Log, o[0].clone())?), LN_2),
        "log10" => |o| div_const(val(&float_unary(U::Log, o[0].clone())?), LN_10),
        "log1p" => |o| float_unary(U::Log, val(&add_const(to_float(o[0].clone())?.op(), 1.0)?)),
        "sign" => sign,
        "trunc" => trunc,
        "tan" => |o| {
            let x = to_float(o[0].clone())?;
            let (s, c) = (float_unary(U::Sin, x.op())?, float_unary(U::Cos, x.op())?);
            lax::div(&mut Binder, &s, &c)
        },
        "acos" => |o| {
            let a = float_unary(U::Asin, o[0].clone())?;
            lax::sub(&mut Binder, PI / 2.0, &a)
        },
        "sinh" => |o| hyperbolic(o[0].clone(), -1.0),
        "cosh" => |o| hyperbolic(o[0].clone(), 1.0),
        "asinh" => |o| inverse_hyperbolic(o[0].clone(), 1.0),
        "acosh" => |o| inverse_hyperbolic(o[0].clone(), -1.0),
        "atanh" => atanh,
        "atan2" => atan2,
        "hypot" => |o| {
            let (x, y) = (to_float(o[0].clone())?, to_float(o[1].clone())?);
            let (x2, y2) = (
                lax::mul(&mut Binder, x.op(), x.op())?,
                lax::mul(&mut Binder, y.op(), y.op())?,
            );
            float_unary(U::Sqrt, val(&lax::add(&mut Binder, &x2, &y2)?))
        },
        "deg2rad" => |o| mul_const(to_float(o[0].clone())?.op(), PI / 180.0),
        "rad2deg" => |o| mul_const(to_float(o[0].clone())?.op(), 180.0 / PI),
        "greater" => |o| lax::lt(&mut Binder, o[1].clone(), o[0].clone()),
        "greater_equal" => |o| lax::le(&mut Binder, o[1].clone(), o[0].clone()),
        "isnan" => |o| lax::ne(&mut Binder, o[0].clone(), o[0].clone()),
        "isinf" => |o| {
            let x = value_of("isinf", &o[0])?;
            if !x.aval().dtype.is_float() {
                return lax::ne(&mut Binder, o[0].clone(), o[0].clone());
            }
            let a = lax::abs(&mut Binder, x)?;
            lax::eq(&mut Binder, &a, f64::INFINITY)
        },
        "isfinite" => |o| match o[0].value() {
            Some(x) => super::statistics::isfinite(x),
            None => {
                let d = lax::sub(&mut Binder, o[0].clone(), o[0].clone())?;
                lax::eq(&mut Binder, &d, 0.0)
            }
        },
        "logical_not" => |o| lax::unary(&mut Binder, U::Not, &to_bool(o[0].clone())?),
        "logical_and" => |o| logical(B::And, o),
        "logical_or" => |o| logical(B::Or, o),
        "logical_xor" => |o| logical(B::Xor, o),
        "reciprocal" => |o| float_unary(U::Reciprocal, o[0].clone()),
        "sqrt" => |o| float_unary(U::Sqrt, o[0].clone()),
        "exp" => |o| float_unary(U::Exp, o[0].clone()),
        "log" => |o| float_unary(U::Log, o[0].clone()),
        "sin" => |o| float_unary(U::Sin, o[0].clone()),
        "cos" => |o| float_unary(U::Cos, o[0].clone()),
        "asin" => |o| float_unary(U::Asin, o[0].clone()),
        "atan" => |o| float_unary(U::Atan, o[0].clone()),
        "tanh" => |o| float_unary(U::Tanh, o[0].clone()),
        "erf" => |o| float_unary(U::Erf, o[0].clone()),
        "erfc" => |o| float_unary(U::Erfc, o[0].clone()),
        _ => return None,
    })
}

fn value_of<'a>(name: &str, o: &Operand<'a>) -> Result<&'a Value> {
    o.value()
        .ok_or_else(|| Error::new(name, "expected an array operand"))
}

fn add_const(x: Operand, c: f64) -> Result<Value> {
    lax::add(&mut Binder, x, c)
}

fn mul_const(x: Operand, c: f64) -> Result<Value> {
    lax::mul(&mut Binder, x, c)
}

fn div_const(x: Operand, c: f64) -> Result<Value> {
    lax::div(&mut Binder, x, c)
}

/// An operand produced inside a composition: a new array, or an operand passed through.
enum Owned<'a> {
    New(Value),
    Same(Operand<'a>),
}

impl Owned<'_> {
    fn op(&self) -> Operand<'_> {
        match self {
            Owned::New(v) => Operand::Value(v),
            Owned::Same(o) => o.clone(),
        }
    }
}

/// The operand with a float dtype: integer and bool arrays become float32; JS numbers and
/// float arrays pass through.
fn to_float(o: Operand) -> Result<Owned> {
    match o.value() {
        Some(x) if !x.aval().dtype.is_float() => {
            Ok(Owned::New(lax::cast(&mut Binder, x, DType::Float32)?))
        }
        _ => Ok(Owned::Same(o)),
    }
}

fn to_bool(o: Operand) -> Result<Value> {
    lax::cast(&mut Binder, o, DType::Bool)
}

fn float_unary(op: U, o: Operand) -> Result<Value> {
    lax::unary(&mut Binder, op, to_float(o)?.op())
}

fn both_integer(o: &[Operand]) -> bool {
    o.iter()
        .all(|x| x.value().is_none_or(|v| !v.aval().dtype.is_float()))
}

/// True division; two integer operands are converted to float32 first (as jax-js does).
fn divide(o: &[Operand]) -> Result<Value> {
    if !both_integer(o) {
        return lax::div(&mut Binder, o[0].clone(), o[1].clone());
    }
    let (a, b) = (to_float(o[0].clone())?, to_float(o[1].clone())?);
    lax::div(&mut Binder, a.op(), b.op())
}

/// `true` where the remainder `r` of `x / y` is non-zero and its sign differs from `y`'s: the
/// places where floor division and Python's `%` differ from truncating division and `rem`.
fn needs_floor_fix(r: &Value, y: Operand) -> Result<Value> {
    let nonzero = lax::ne(&mut Binder, r, 0.0)?;
    let r_neg = lax::lt(&mut Binder, r, 0.0)?;
    let differ = match y {
        Operand::Literal(y) if y < 0.0 => lax::unary(&mut Binder, U::Not, &r_neg)?,
        Operand::Literal(_) => r_neg,
        y => lax::binary(&mut Binder, B::Xor, &r_neg, &lax::lt(&mut Binder, y, 0.0)?)?,
    };
    lax::binary(&mut Binder, B::And, &nonzero, &differ)
}

fn floor_divide(o: &[Operand]) -> Result<Value> {
    let q = lax::div(&mut Binder, o[0].clone(), o[1].clone())?;
    if q.aval().dtype.is_float() {
        return lax::floor(&mut Binder, &q);
    }
    let r = lax::rem(&mut Binder, o[0].clone(), o[1].clone())?;
    let fix = needs_floor_fix(&r, o[1].clone())?;
    let q1 = lax::sub(&mut Binder, &q, 1.0)?;
    lax::select(&mut Binder, &fix, &q1, &q)
}

fn remainder(o: &[Operand]) -> Result<Value> {
    let r = lax::rem(&mut Binder, o[0].clone(), o[1].clone())?;
    let fix = needs_floor_fix(&r, o[1].clone())?;
    let shifted = lax::add(&mut Binder, &r, o[1].clone())?;
    lax::select(&mut Binder, &fix, &shifted, &r)
}

/// `sign(x)`: −1, 0 or 1, keeping NaN (and −0).
fn sign(o: &[Operand]) -> Result<Value> {
    let lit = Operand::Literal;
    let pos = lax::lt(&mut Binder, lit(0.0), o[0].clone())?;
    let x = value_of("sign", &o[0])?;
    let inner = if x.aval().dtype == DType::Uint32 {
        x.clone()
    } else {
        let neg = lax::lt(&mut Binder, o[0].clone(), lit(0.0))?;
        lax::select(&mut Binder, &neg, lit(-1.0), o[0].clone())?
    };
    lax::select(&mut Binder, &pos, lit(1.0), &inner)
}

fn trunc(o: &[Operand]) -> Result<Value> {
    let x = value_of("trunc", &o[0])?;
    if !x.aval().dtype.is_float() {
        return Ok(x.clone());
    }
    let neg = lax::lt(&mut Binder, o[0].clone(), 0.0)?;
    let up = lax::ceil(&mut Binder, x)?;
    let down = lax::floor(&mut Binder, x)?;
    lax::select(&mut Binder, &neg, &up, &down)
}

/// `(exp(x) + s·exp(−x)) / 2`: cosh for s = 1, sinh for s = −1.
fn hyperbolic(o: Operand, s: f64) -> Result<Value> {
    let x = to_float(o)?;
    let e = float_unary(U::Exp, x.op())?;
    let neg = lax::unary(&mut Binder, U::Neg, x.op())?;
    let e_neg = mul_const(val(&float_unary(U::Exp, val(&neg))?), s)?;
    mul_const(val(&lax::add(&mut Binder, &e, &e_neg)?), 0.5)
}

/// `log(x + sqrt(x² + s))`: asinh for s = 1, acosh for s = −1.
fn inverse_hyperbolic(o: Operand, s: f64) -> Result<Value> {
    let x = to_float(o)?;
    let x2 = lax::mul(&mut Binder, x.op(), x.op())?;
    let root = float_unary(U::Sqrt, val(&add_const(val(&x2), s)?))?;
    float_unary(U::Log, val(&lax::add(&mut Binder, x.op(), &root)?))
}

fn atanh(o: &[Operand]) -> Result<Value> {
    let x = to_float(o[0].clone())?;
    let num = add_const(x.op(), 1.0)?;
    let den = lax::sub(&mut Binder, 1.0, x.op())?;
    let l = float_unary(U::Log, val(&lax::div(&mut Binder, &num, &den)?))?;
    mul_const(val(&l), 0.5)
}

/// `atan2(y, x)` in [−π, π], from `atan(y / x)` corrected by quadrant.
fn atan2(o: &[Operand]) -> Result<Value> {
    let lit = Operand::Literal;
    let (y, x) = (to_float(o[0].clone())?, to_float(o[1].clone())?);
    let (y, x) = (y.op(), x.op());
    let base = float_unary(U::Atan, val(&lax::div(&mut Binder, y.clone(), x.clone())?))?;
    let y_nonneg = lax::le(&mut Binder, lit(0.0), y.clone())?;
    let half_turn = lax::select(&mut Binder, &y_nonneg, lit(PI), lit(-PI))?;
    let left = lax::add(&mut Binder, &base, &half_turn)?;
    let y_pos = lax::lt(&mut Binder, lit(0.0), y.clone())?;
    let y_neg = lax::lt(&mut Binder, y.clone(), lit(0.0))?;
    let axis_neg = lax::select(&mut Binder, &y_neg, lit(-PI / 2.0), y)?;
    let axis = lax::select(&mut Binder, &y_pos, lit(PI / 2.0), &axis_neg)?;
    let x_pos = lax::lt(&mut Binder, lit(0.0), x.clone())?;
    let x_neg = lax::lt(&mut Binder, x, lit(0.0))?;
    let not_right = lax::select(&mut Binder, &x_neg, &left, &axis)?;
    lax::select(&mut Binder, &x_pos, &base, &not_right)
}

fn logical(op: B, o: &[Operand]) -> Result<Value> {
    let (a, b) = (to_bool(o[0].clone())?, to_bool(o[1].clone())?);
    lax::binary(&mut Binder, op, &a, &b)
}
