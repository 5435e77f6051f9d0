//! More elementwise numpy functions as compositions of primitives (JAX's formulas): roots and
//! rounding, sign handling, log-add-exp, NaN-aware extrema, bitwise operations, logit and
//! powers of two. Reached by name through [`super::apply`], so JS numbers may be operands.

use super::emit::{bin, cmp, lit, select, un, v};
use crate::core::ops::{BinaryOp as B, CompareOp as C, UnaryOp as U};
use crate::core::{DType, Primitive};
use crate::transform::trace::{bind, Operand};
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
            let a = un(U::Abs, &x)?;
            select(&neg, v(&un(U::Neg, &a)?), v(&a))
        },
        "signbit" => |o| signbit(&arr(&o[0])?),
        "isposinf" => |o| cmp(C::Eq, o[0].clone(), lit(f64::INFINITY)),
        "isneginf" => |o| cmp(C::Eq, o[0].clone(), lit(f64::NEG_INFINITY)),
        "logaddexp" => |o| logaddexp(o, 1.0),
        "logaddexp2" => |o| logaddexp(o, std::f64::consts::LN_2),
        "fmax" => |o| nan_extremum(o, B::Max),
        "fmin" => |o| nan_extremum(o, B::Min),
        "rint" => |o| rint(&arr(&o[0])?),
        "round" => round,
        "ldexp" => ldexp,
        "float_power" => |o| {
            let (x, y) = (float(&o[0])?, float_operand(&o[1])?);
            super::stats::power(&[v(&x), y.as_operand()])
        },
        "bitwise_and" => |o| bitwise(B::And, o),
        "bitwise_or" => |o| bitwise(B::Or, o),
        "bitwise_xor" => |o| bitwise(B::Xor, o),
        "left_shift" => |o| shift(B::Shl, o),
        "right_shift" => |o| shift(B::Shr, o),
        "bitwise_not" => |o| {
            let x = arr(&o[0])?;
            integer("bitwiseNot", &x)?;
            un(U::Not, &x)
        },
        "bitwise_count" => |o| popcount(&arr(&o[0])?),
        "logit" => |o| {
            let x = float(&o[0])?;
            let q = bin(B::Sub, lit(1.0), v(&x))?;
            un(U::Log, &bin(B::Div, v(&x), v(&q))?)
        },
        "nan_to_num" => nan_to_num,
        _ => return None,
    })
}

fn arr(o: &Operand) -> Result<Value> {
    o.value()
        .cloned()
        .ok_or_else(|| Error::new("elementwise", "expected an array operand"))
}

/// The operand as a float array (integers and bools become float32).
pub fn float(o: &Operand) -> Result<Value> {
    let x = arr(o)?;
    if x.aval().dtype.is_float() {
        Ok(x)
    } else {
        bind(Primitive::Cast(DType::Float32), &[v(&x)])
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
            let zero = bin(B::Mul, v(like), lit(0.0))?;
            let s = bin(B::Add, v(&zero), lit(*n))?;
            Ok(s)
        }
    }
}

fn isnan(x: &Value) -> Result<Value> {
    cmp(C::Ne, v(x), v(x))
}

/// `sign(x)·|x|^(1/3)`.
fn cbrt(x: &Value) -> Result<Value> {
    let a = un(U::Abs, x)?;
    let r = un(U::Exp, &bin(B::Mul, v(&un(U::Log, &a)?), lit(1.0 / 3.0))?)?;
    let neg = cmp(C::Lt, v(x), lit(0.0))?;
    select(&neg, v(&un(U::Neg, &r)?), v(&r))
}

/// Normalised sinc: `sin(πx)/(πx)`, 1 at 0.
fn sinc(x: &Value) -> Result<Value> {
    let zero = cmp(C::Eq, v(x), lit(0.0))?;
    let safe = select(&zero, lit(1.0), v(x))?;
    let px = bin(B::Mul, v(&safe), lit(std::f64::consts::PI))?;
    let s = bin(B::Div, v(&un(U::Sin, &px)?), v(&px))?;
    select(&zero, lit(1.0), v(&s))
}

/// 0 for x < 0, `h` at 0, 1 for x > 0 (NaN stays NaN).
fn heaviside(o: &[Operand]) -> Result<Value> {
    let x = float(&o[0])?;
    let neg = cmp(C::Lt, v(&x), lit(0.0))?;
    let pos = cmp(C::Lt, lit(0.0), v(&x))?;
    let at_zero = select(&pos, lit(1.0), o[1].clone())?;
    let out = select(&neg, lit(0.0), v(&at_zero))?;
    select(&isnan(&x)?, v(&x), v(&out))
}

/// True where the sign is negative, including −0 (integers: x < 0).
fn signbit(x: &Value) -> Result<Value> {
    let neg = cmp(C::Lt, v(x), lit(0.0))?;
    if !x.aval().dtype.is_float() {
        return Ok(neg);
    }
    let zero = cmp(C::Eq, v(x), lit(0.0))?;
    let inv_neg = cmp(C::Lt, v(&un(U::Reciprocal, x)?), lit(0.0))?;
    bin(B::Or, v(&neg), v(&bin(B::And, v(&zero), v(&inv_neg))?))
}

/// `log(b^x + b^y)/log(b)` for base `e` (`ln_b` = 1) or 2, stable for large arguments.
fn logaddexp(o: &[Operand], ln_b: f64) -> Result<Value> {
    let x = float(&o[0])?;
    let y = float_operand(&o[1])?;
    let m = bin(B::Max, v(&x), y.as_operand())?;
    let d = bin(B::Sub, v(&x), y.as_operand())?;
    let nd = un(U::Neg, &un(U::Abs, &d)?)?;
    // log_b(1 + b^(−|d|)) = log(1 + exp(−|d|·ln b)) / ln b
    let e = un(U::Exp, &bin(B::Mul, v(&nd), lit(ln_b))?)?;
    let l = bin(
        B::Div,
        v(&un(U::Log, &bin(B::Add, v(&e), lit(1.0))?)?),
        lit(ln_b),
    )?;
    let out = bin(B::Add, v(&m), v(&l))?;
    // Equal infinities give NaN in d: the answer is then x + y.
    let s = bin(B::Add, v(&x), y.as_operand())?;
    select(&isnan(&d)?, v(&s), v(&out))
}

/// `fmax`/`fmin`: the extremum, ignoring a NaN operand.
fn nan_extremum(o: &[Operand], op: B) -> Result<Value> {
    let x = arr(&o[0])?;
    let y = array_of(&o[1], &x)?;
    let m = bin(op, v(&x), v(&y))?;
    let y_or = select(&isnan(&y)?, v(&x), v(&m))?;
    select(&isnan(&x)?, v(&y), v(&y_or))
}

/// Round half to even (integers unchanged).
fn rint(x: &Value) -> Result<Value> {
    if !x.aval().dtype.is_float() {
        return Ok(x.clone());
    }
    let f = un(U::Floor, x)?;
    let d = bin(B::Sub, v(x), v(&f))?; // exact below 2^mantissa, 0 above
    let up = bin(B::Add, v(&f), lit(1.0))?;
    let f_even = cmp(C::Eq, v(&bin(B::Rem, v(&f), lit(2.0))?), lit(0.0))?;
    let tie = select(&f_even, v(&f), v(&up))?;
    let below = cmp(C::Lt, v(&d), lit(0.5))?;
    let above = cmp(C::Lt, lit(0.5), v(&d))?;
    let r = select(&above, v(&up), v(&tie))?;
    let r = select(&below, v(&f), v(&r))?;
    // A result of zero keeps the sign of x (NumPy: rint(-0.5) is -0.0): x·0 is ±0 like x.
    let is_zero = cmp(C::Eq, v(&r), lit(0.0))?;
    let signed_zero = bin(B::Mul, v(x), lit(0.0))?;
    let r = select(&is_zero, v(&signed_zero), v(&r))?;
    // Infinities and NaN pass through (d is NaN for them).
    let finite = cmp(C::Eq, v(&bin(B::Sub, v(x), v(x))?), lit(0.0))?;
    select(&finite, v(&r), v(x))
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
    let r = rint(&bin(B::Mul, v(&x), lit(s))?)?;
    bin(B::Div, v(&r), lit(s))
}

/// `2^n` as float32 for integer `n` in [−126, 127], built from the exponent bits (exact).
fn pow2(n: &Value) -> Result<Value> {
    let biased = bin(B::Add, v(n), lit(127.0))?;
    let bits = bin(B::Shl, v(&biased), lit(23.0))?;
    bind(Primitive::Bitcast(DType::Float32), &[v(&bits)])
}

/// `x · 2^n` for integer `n`, exact while the result is representable.
fn ldexp(o: &[Operand]) -> Result<Value> {
    let x = float(&o[0])?;
    let n = match &o[1] {
        Operand::Value(n) if n.aval().dtype.is_float() => {
            return Err(Error::new("ldexp", "the exponent must be an integer array"))
        }
        Operand::Value(n) => bind(Primitive::Cast(DType::Int32), &[v(n)])?,
        Operand::Literal(k) => {
            let zero = bind(Primitive::Cast(DType::Int32), &[v(&x)])?;
            let zero = bin(B::Mul, v(&zero), lit(0.0))?;
            bin(B::Add, v(&zero), lit(*k))?
        }
    };
    // Two factors cover exponents in [−252, 254] without overflow of either.
    let n = bin(B::Min, v(&bin(B::Max, v(&n), lit(-252.0))?), lit(254.0))?;
    let half = bin(B::Div, v(&n), lit(2.0))?;
    let rest = bin(B::Sub, v(&n), v(&half))?;
    let y = bin(B::Mul, v(&x), v(&pow2(&half)?))?;
    bin(B::Mul, v(&y), v(&pow2(&rest)?))
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
    bin(op, o[0].clone(), o[1].clone())
}

/// `x << y` or `x >> y` with XLA's semantics for shift amounts outside `[0, 32)`: 0, or for an
/// arithmetic right shift the sign bit filled (the primitives take the amount modulo 32).
fn shift(op: B, o: &[Operand]) -> Result<Value> {
    let shifted = bitwise(op, o)?;
    let dtype = shifted.aval().dtype;
    let fill = match (op, dtype) {
        (B::Shr, DType::Int32) => bin(B::Shr, o[0].clone(), lit(31.0))?,
        _ => bin(B::Mul, v(&shifted), lit(0.0))?,
    };
    let out_of_range = match &o[1] {
        Operand::Literal(y) if (0.0..32.0).contains(y) => return Ok(shifted),
        Operand::Literal(_) => return Ok(fill),
        Operand::Value(y) if y.aval().dtype == DType::Int32 => {
            let u = bind(Primitive::Bitcast(DType::Uint32), &[v(y)])?;
            cmp(C::Lt, lit(31.0), v(&u))?
        }
        Operand::Value(y) if y.aval().dtype == DType::Uint32 => cmp(C::Lt, lit(31.0), v(y))?,
        Operand::Value(_) => return Ok(shifted),
    };
    select(&out_of_range, v(&fill), v(&shifted))
}

/// The number of set bits of each element (of its two's complement for int32), as uint8 in
/// JAX; here as the input's integer dtype.
fn popcount(x: &Value) -> Result<Value> {
    integer("bitwiseCount", x)?;
    let d = x.aval().dtype;
    let u = match d {
        DType::Bool => bind(Primitive::Cast(DType::Uint32), &[v(x)])?,
        DType::Int32 => bind(Primitive::Bitcast(DType::Uint32), &[v(x)])?,
        _ => x.clone(),
    };
    let step = |u: &Value, shift: f64, mask: f64| -> Result<Value> {
        let a = bin(B::And, v(u), lit(mask))?;
        let b = bin(B::And, v(&bin(B::Shr, v(u), lit(shift))?), lit(mask))?;
        bin(B::Add, v(&a), v(&b))
    };
    let mut c = step(&u, 1.0, 1431655765.0)?; // 0x55555555
    c = step(&c, 2.0, 858993459.0)?; // 0x33333333
    c = step(&c, 4.0, 252645135.0)?; // 0x0f0f0f0f
    c = step(&c, 8.0, 16711935.0)?; // 0x00ff00ff
    c = step(&c, 16.0, 65535.0)?;
    let out = if d == DType::Bool { DType::Int32 } else { d };
    bind(Primitive::Cast(out), &[v(&c)])
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
    let y = select(
        &cmp(C::Eq, v(&x), lit(f64::NEG_INFINITY))?,
        value(3, -max),
        v(&x),
    )?;
    let y = select(
        &cmp(C::Eq, v(&x), lit(f64::INFINITY))?,
        value(2, max),
        v(&y),
    )?;
    select(&isnan(&x)?, value(1, 0.0), v(&y))
}
