//! More elementwise numpy functions as compositions of primitives (JAX's formulas): roots and
//! rounding, sign handling, log-add-exp, NaN-aware extrema, bitwise operations, logit and
//! powers of two, reached by name through [`super::apply`], so JS numbers may be operands;
//! and the two-output `frexp` and `modf`.

use super::emit::{lit, v};
use super::statistics::isfinite;
use crate::core::ops::{BinaryOp as B, UnaryOp as U};
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::{weak_scalar, Binder, Operand};
use crate::transform::Value;
use crate::util::{Error, Result};

type Composite = fn(&[Operand]) -> Result<Value>;

/// The composition implementing elementwise function `name`, if it is one of these.
pub fn lookup(name: &str) -> Option<Composite> {
    Some(match name {
        "cbrt" => |o| cbrt(&float(&o[0])?),
        "sinc" => |o| sinc(&float(&o[0])?),
        "heaviside" => heaviside,
        "copysign" => |o| {
            let x = float(&o[0])?;
            let y = array_of(&o[1], &x)?;
            let neg = signbit(&y)?;
            let a = lax::abs(&mut Binder, &x)?;
            lax::select(&mut Binder, &neg, &lax::neg(&mut Binder, &a)?, &a)
        },
        "signbit" => |o| signbit(&arr(&o[0])?),
        "isposinf" => |o| lax::eq(&mut Binder, o[0].clone(), f64::INFINITY),
        "isneginf" => |o| lax::eq(&mut Binder, o[0].clone(), f64::NEG_INFINITY),
        "logaddexp" => |o| logaddexp(o, 1.0),
        "logaddexp2" => |o| logaddexp(o, std::f64::consts::LN_2),
        "fmax" => |o| nan_extremum(o, B::Max),
        "fmin" => |o| nan_extremum(o, B::Min),
        "rint" => |o| rint(&arr(&o[0])?),
        "round" => round,
        "ldexp" => ldexp,
        "float_power" => |o| {
            let (x, y) = (float(&o[0])?, float_operand(&o[1])?);
            super::power::power(&[v(&x), y.as_operand()])
        },
        "bitwise_and" => |o| bitwise(B::And, o),
        "bitwise_or" => |o| bitwise(B::Or, o),
        "bitwise_xor" => |o| bitwise(B::Xor, o),
        "left_shift" => |o| shift(B::Shl, o),
        "right_shift" => |o| shift(B::Shr, o),
        "bitwise_not" => |o| {
            let x = arr(&o[0])?;
            integer("bitwiseNot", &x)?;
            lax::unary(&mut Binder, U::Not, &x)
        },
        "bitwise_count" => |o| popcount(&arr(&o[0])?),
        "logit" => |o| {
            let x = float(&o[0])?;
            let q = lax::sub(&mut Binder, 1.0, &x)?;
            lax::log(&mut Binder, &lax::div(&mut Binder, &x, &q)?)
        },
        "nan_to_num" => nan_to_num,
        _ => return None,
    })
}

/// The operand as an array: a JS number becomes a weak float32 scalar (it adopts the dtype of
/// the arrays it meets), as JAX converts Python scalars in its numpy functions.
fn arr(o: &Operand) -> Result<Value> {
    match o {
        Operand::Value(x) => Ok((*x).clone()),
        Operand::Literal(n) => weak_scalar("elementwise", *n, DType::Float32),
    }
}

/// The operand as a float array (integers and bools become float32).
pub fn float(o: &Operand) -> Result<Value> {
    let x = arr(o)?;
    if x.aval().dtype.is_float() {
        Ok(x)
    } else {
        lax::cast(&mut Binder, &x, DType::Float32)
    }
}

/// A float operand that may stay a JS number.
enum FloatOperand {
    Array(Value),
    Number(f64),
}

impl FloatOperand {
    fn as_operand(&self) -> Operand<'_> {
        match self {
            FloatOperand::Array(x) => v(x),
            FloatOperand::Number(n) => lit(*n),
        }
    }
}

fn float_operand(o: &Operand) -> Result<FloatOperand> {
    match o {
        Operand::Literal(n) => Ok(FloatOperand::Number(*n)),
        Operand::Value(_) => Ok(FloatOperand::Array(float(o)?)),
    }
}

/// `o` as an array shaped and typed like a broadcast partner of `like` (numbers become weak
/// scalars of `like`'s dtype).
fn array_of(o: &Operand, like: &Value) -> Result<Value> {
    match o {
        Operand::Value(x) => Ok((*x).clone()),
        Operand::Literal(n) => {
            let zero = lax::mul(&mut Binder, like, 0.0)?;
            let s = lax::add(&mut Binder, &zero, *n)?;
            Ok(s)
        }
    }
}

fn isnan(x: &Value) -> Result<Value> {
    lax::ne(&mut Binder, x, x)
}

/// `sign(x)·|x|^(1/3)`.
fn cbrt(x: &Value) -> Result<Value> {
    let a = lax::abs(&mut Binder, x)?;
    let r = lax::exp(
        &mut Binder,
        &lax::mul(&mut Binder, &lax::log(&mut Binder, &a)?, 1.0 / 3.0)?,
    )?;
    let neg = lax::lt(&mut Binder, x, 0.0)?;
    lax::select(&mut Binder, &neg, &lax::neg(&mut Binder, &r)?, &r)
}

/// Normalised sinc: `sin(πx)/(πx)`, 1 at 0.
fn sinc(x: &Value) -> Result<Value> {
    let zero = lax::eq(&mut Binder, x, 0.0)?;
    let safe = lax::select(&mut Binder, &zero, 1.0, x)?;
    let px = lax::mul(&mut Binder, &safe, std::f64::consts::PI)?;
    let s = lax::div(&mut Binder, &lax::sin(&mut Binder, &px)?, &px)?;
    lax::select(&mut Binder, &zero, 1.0, &s)
}

/// 0 for x < 0, `h` at 0, 1 for x > 0 (NaN stays NaN).
fn heaviside(o: &[Operand]) -> Result<Value> {
    let x = float(&o[0])?;
    let neg = lax::lt(&mut Binder, &x, 0.0)?;
    let pos = lax::lt(&mut Binder, 0.0, &x)?;
    let at_zero = lax::select(&mut Binder, &pos, 1.0, o[1].clone())?;
    let out = lax::select(&mut Binder, &neg, 0.0, &at_zero)?;
    lax::select(&mut Binder, &isnan(&x)?, &x, &out)
}

/// True where the sign is negative, including −0 (integers: x < 0).
fn signbit(x: &Value) -> Result<Value> {
    let neg = lax::lt(&mut Binder, x, 0.0)?;
    if !x.aval().dtype.is_float() {
        return Ok(neg);
    }
    let zero = lax::eq(&mut Binder, x, 0.0)?;
    let inv_neg = lax::lt(&mut Binder, &lax::reciprocal(&mut Binder, x)?, 0.0)?;
    lax::binary(
        &mut Binder,
        B::Or,
        &neg,
        &lax::binary(&mut Binder, B::And, &zero, &inv_neg)?,
    )
}

/// `log(b^x + b^y)/log(b)` for base `e` (`ln_b` = 1) or 2, stable for large arguments.
fn logaddexp(o: &[Operand], ln_b: f64) -> Result<Value> {
    let x = float(&o[0])?;
    let y = float_operand(&o[1])?;
    let m = lax::max(&mut Binder, &x, y.as_operand())?;
    let d = lax::sub(&mut Binder, &x, y.as_operand())?;
    let nd = lax::neg(&mut Binder, &lax::abs(&mut Binder, &d)?)?;
    // log_b(1 + b^(−|d|)) = log(1 + exp(−|d|·ln b)) / ln b
    let e = lax::exp(&mut Binder, &lax::mul(&mut Binder, &nd, ln_b)?)?;
    let l = lax::div(
        &mut Binder,
        &lax::log(&mut Binder, &lax::add(&mut Binder, &e, 1.0)?)?,
        ln_b,
    )?;
    let out = lax::add(&mut Binder, &m, &l)?;
    // Equal infinities give NaN in d: the answer is then x + y.
    let s = lax::add(&mut Binder, &x, y.as_operand())?;
    lax::select(&mut Binder, &isnan(&d)?, &s, &out)
}

/// `fmax`/`fmin`: the extremum, ignoring a NaN operand.
fn nan_extremum(o: &[Operand], op: B) -> Result<Value> {
    let x = arr(&o[0])?;
    let y = array_of(&o[1], &x)?;
    let m = lax::binary(&mut Binder, op, &x, &y)?;
    let y_or = lax::select(&mut Binder, &isnan(&y)?, &x, &m)?;
    lax::select(&mut Binder, &isnan(&x)?, &y, &y_or)
}

/// Round half to even (integers unchanged); zero keeps the sign of x, infinities and NaN pass.
fn rint(x: &Value) -> Result<Value> {
    if !x.aval().dtype.is_float() {
        return Ok(x.clone());
    }
    lax::round_even(&mut Binder, x)
}

/// `round(x, decimals)`: `rint(x·10^d)/10^d` (NumPy's method).
fn round(o: &[Operand]) -> Result<Value> {
    let x = arr(&o[0])?;
    let decimals = match o.get(1) {
        None => 0.0,
        Some(Operand::Literal(d)) if d.fract() == 0.0 => *d,
        Some(_) => return Err(Error::new("round", "decimals must be an integer")),
    };
    if decimals == 0.0 || !x.aval().dtype.is_float() {
        return rint(&x);
    }
    let s = 10f64.powf(decimals);
    let r = rint(&lax::mul(&mut Binder, &x, s)?)?;
    lax::div(&mut Binder, &r, s)
}

/// `2^n` as float32 for integer `n` in [−126, 127], built from the exponent bits (exact).
fn pow2(n: &Value) -> Result<Value> {
    let biased = lax::add(&mut Binder, n, 127.0)?;
    let bits = lax::binary(&mut Binder, B::Shl, &biased, 23.0)?;
    lax::bitcast(&mut Binder, &bits, DType::Float32)
}

/// `x · 2^n` for integer `n`, exact while the result is representable.
fn ldexp(o: &[Operand]) -> Result<Value> {
    let x = float(&o[0])?;
    let n = match &o[1] {
        Operand::Value(n) if n.aval().dtype.is_float() => {
            return Err(Error::new("ldexp", "the exponent must be an integer array"))
        }
        Operand::Value(n) => lax::cast(&mut Binder, *n, DType::Int32)?,
        Operand::Literal(k) => {
            let zero = lax::cast(&mut Binder, &x, DType::Int32)?;
            let zero = lax::mul(&mut Binder, &zero, 0.0)?;
            lax::add(&mut Binder, &zero, *k)?
        }
    };
    // Two factors cover exponents in [−252, 254] without overflow of either.
    let n = lax::min(&mut Binder, &lax::max(&mut Binder, &n, -252.0)?, 254.0)?;
    let half = lax::div(&mut Binder, &n, 2.0)?;
    let rest = lax::sub(&mut Binder, &n, &half)?;
    let y = lax::mul(&mut Binder, &x, &pow2(&half)?)?;
    lax::mul(&mut Binder, &y, &pow2(&rest)?)
}

fn integer(name: &str, x: &Value) -> Result<()> {
    match x.aval().dtype {
        DType::Int32 | DType::Uint32 | DType::Bool => Ok(()),
        d => Err(Error::new(
            name,
            format!("needs integer or bool arrays, got {}", d.name()),
        )),
    }
}

fn bitwise(op: B, o: &[Operand]) -> Result<Value> {
    for x in o.iter().filter_map(Operand::value) {
        integer("bitwise", x)?;
    }
    lax::binary(&mut Binder, op, o[0].clone(), o[1].clone())
}

/// `x << y` or `x >> y` with XLA's semantics for shift amounts outside `[0, 32)`: 0, or for an
/// arithmetic right shift the sign bit filled (the primitives take the amount modulo 32).
fn shift(op: B, o: &[Operand]) -> Result<Value> {
    let shifted = bitwise(op, o)?;
    let dtype = shifted.aval().dtype;
    // The sign fill of an arithmetic right shift; otherwise zero (a literal in the select, so
    // that `shifted` has one use and fuses into it).
    let sign_fill = match (op, dtype) {
        (B::Shr, DType::Int32) => Some(lax::binary(&mut Binder, B::Shr, o[0].clone(), 31.0)?),
        _ => None,
    };
    let out_of_range = match &o[1] {
        Operand::Literal(y) if (0.0..32.0).contains(y) => return Ok(shifted),
        Operand::Literal(_) => {
            return match sign_fill {
                Some(fill) => Ok(fill),
                None => lax::mul(&mut Binder, &shifted, 0.0),
            }
        }
        Operand::Value(y) if y.aval().dtype == DType::Int32 => {
            let u = lax::bitcast(&mut Binder, y, DType::Uint32)?;
            lax::lt(&mut Binder, 31.0, &u)?
        }
        Operand::Value(y) if y.aval().dtype == DType::Uint32 => lax::lt(&mut Binder, 31.0, *y)?,
        Operand::Value(_) => return Ok(shifted),
    };
    match sign_fill {
        Some(fill) => lax::select(&mut Binder, &out_of_range, &fill, &shifted),
        None => lax::select(&mut Binder, &out_of_range, 0.0, &shifted),
    }
}

/// The number of set bits of each element (of its two's complement for int32), as uint8 in
/// JAX; here as the input's integer dtype.
fn popcount(x: &Value) -> Result<Value> {
    integer("bitwiseCount", x)?;
    let d = x.aval().dtype;
    let u = match d {
        DType::Bool => lax::cast(&mut Binder, x, DType::Uint32)?,
        DType::Int32 => lax::bitcast(&mut Binder, x, DType::Uint32)?,
        _ => x.clone(),
    };
    let step = |u: &Value, shift: f64, mask: f64| -> Result<Value> {
        let a = lax::binary(&mut Binder, B::And, u, mask)?;
        let b = lax::binary(
            &mut Binder,
            B::And,
            &lax::binary(&mut Binder, B::Shr, u, shift)?,
            mask,
        )?;
        lax::add(&mut Binder, &a, &b)
    };
    let mut c = step(&u, 1.0, 1431655765.0)?; // 0x55555555
    c = step(&c, 2.0, 858993459.0)?; // 0x33333333
    c = step(&c, 4.0, 252645135.0)?; // 0x0f0f0f0f
    c = step(&c, 8.0, 16711935.0)?; // 0x00ff00ff
    c = step(&c, 16.0, 65535.0)?;
    let out = if d == DType::Bool { DType::Int32 } else { d };
    lax::cast(&mut Binder, &c, out)
}

/// Replaces NaN by `o[1]`, +∞ by `o[2]` and −∞ by `o[3]` (a NaN number: the dtype's largest
/// finite value of that sign).
fn nan_to_num(o: &[Operand]) -> Result<Value> {
    let x = arr(&o[0])?;
    let d = x.aval().dtype;
    if !d.is_float() {
        return Ok(x);
    }
    let max = match d {
        DType::Float16 => 65504.0,
        DType::Float32 => f64::from(f32::MAX),
        _ => f64::MAX,
    };
    let value = |i: usize, default: f64| match o.get(i) {
        Some(Operand::Literal(n)) if n.is_nan() => lit(default),
        Some(op) => op.clone(),
        None => lit(default),
    };
    let y = lax::select(
        &mut Binder,
        &lax::eq(&mut Binder, &x, f64::NEG_INFINITY)?,
        value(3, -max),
        &x,
    )?;
    let y = lax::select(
        &mut Binder,
        &lax::eq(&mut Binder, &x, f64::INFINITY)?,
        value(2, max),
        &y,
    )?;
    lax::select(&mut Binder, &isnan(&x)?, value(1, 0.0), &y)
}

/// `[mantissa, exponent]` with `x = m · 2^e`, |m| in [0.5, 1) (0, ±∞ and NaN: `[x, 0]`);
/// float32 input (integers are converted). Works on the bits only: GPUs may flush subnormal
/// floats to zero in arithmetic and comparisons (SwiftShader does), so a subnormal's mantissa
/// bits `f` are converted to the (normal, exact) float `f` and `x = ±f · 2^-149`.
pub fn frexp(x: &Value) -> Result<Vec<Value>> {
    let x = super::math::float(&v(x))?;
    if x.aval().dtype != DType::Float32 {
        return Err(Error::new("frexp", "supports float32 arrays only"));
    }
    let u = |c: u32| lit(f64::from(c));
    let bits = lax::bitcast(&mut Binder, &x, DType::Uint32)?;
    let magnitude = lax::binary(&mut Binder, B::And, &bits, u(0x7fff_ffff))?;
    let sub = lax::lt(&mut Binder, &magnitude, u(0x0080_0000))?;
    let fraction = lax::convert(
        &mut Binder,
        &lax::binary(&mut Binder, B::And, &bits, u(0x007f_ffff))?,
        DType::Float32,
    )?;
    let fbits = lax::bitcast(&mut Binder, &fraction, DType::Uint32)?;
    let sign = lax::binary(&mut Binder, B::And, &bits, u(0x8000_0000))?;
    let src = lax::select(
        &mut Binder,
        &sub,
        &lax::binary(&mut Binder, B::Or, &fbits, &sign)?,
        &bits,
    )?;
    let biased = lax::binary(
        &mut Binder,
        B::And,
        &lax::binary(&mut Binder, B::Shr, &src, 23.0)?,
        255.0,
    )?;
    let e = lax::convert(&mut Binder, &biased, DType::Int32)?;
    let offset = lax::select(&mut Binder, &sub, 126.0 + 149.0, 126.0)?;
    let e = lax::sub(
        &mut Binder,
        &e,
        &lax::convert(&mut Binder, &offset, DType::Int32)?,
    )?;
    let mbits = lax::binary(&mut Binder, B::And, &src, u(0x807f_ffff))?;
    let mbits = lax::binary(&mut Binder, B::Or, &mbits, u(126 << 23))?;
    let m = lax::bitcast(&mut Binder, &mbits, DType::Float32)?;
    let zero = lax::eq(&mut Binder, &magnitude, 0.0)?;
    let finite = isfinite(&x)?;
    let special = lax::binary(
        &mut Binder,
        B::Or,
        &zero,
        &lax::unary(&mut Binder, U::Not, &finite)?,
    )?;
    Ok(vec![
        lax::select(&mut Binder, &special, &x, &m)?,
        lax::select(&mut Binder, &special, 0.0, &e)?,
    ])
}

/// `[fractional part, integral part]`, both with the sign of `x` (±∞: `[0, ±∞]`).
pub fn modf(x: &Value) -> Result<Vec<Value>> {
    let x = super::math::float(&v(x))?;
    let int = super::apply("trunc", &[v(&x)])?;
    let frac = lax::sub(&mut Binder, &x, &int)?;
    let inf = lax::eq(&mut Binder, &lax::abs(&mut Binder, &x)?, f64::INFINITY)?;
    Ok(vec![lax::select(&mut Binder, &inf, 0.0, &frac)?, int])
}
