//! Counter-based random numbers bit-exact with JAX's default (partitionable) threefry-2x32:
//! a key is a uint32 `[2]` array; element `i` of `bits(key, shape)` is `x0 ^ x1` of
//! threefry2x32(key, (0, i)), and `split(key, n)[i]` is `(x0, x1)`. Built from integer
//! primitives, so it runs (and traces) like any other operation.

use super::emit::{bin, lit, v};
use crate::core::ops::{BinaryOp as B, CompareOp as C, UnaryOp as U};
use crate::core::{DType, Primitive};
use crate::rules::lax;
use crate::transform::trace::bind;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

/// The two words of a key (uint32 `[2]`) as uint32 scalars.
fn key_words(key: &Value) -> Result<(Value, Value)> {
    if key.aval().shape != [2] || key.aval().dtype != DType::Uint32 {
        return Err(Error::new(
            "random",
            format!(
                "a key is a uint32 array of shape [2], got {}",
                key.aval().describe()
            ),
        ));
    }
    let word = |i| -> Result<Value> {
        let s = bind(Primitive::Shrink(vec![(i, i + 1)]), &[v(key)])?;
        bind(Primitive::Reshape(vec![]), &[v(&s)])
    };
    Ok((word(0)?, word(1)?))
}

fn rotl(x: &Value, r: u32) -> Result<Value> {
    let hi = bin(B::Shl, v(x), lit(r as f64))?;
    let lo = bin(B::Shr, v(x), lit((32 - r) as f64))?;
    bin(B::Or, v(&hi), v(&lo))
}

/// threefry2x32 with key words `k0`, `k1` on counters `(x0, x1)` (uint32, same shape).
fn threefry(k0: &Value, k1: &Value, x0: &Value, x1: &Value) -> Result<(Value, Value)> {
    let parity = bin(B::Xor, v(k0), v(k1))?;
    let k2 = bin(B::Xor, v(&parity), lit(0x1BD1_1BDA as f64))?;
    let ks = [k0.clone(), k1.clone(), k2];
    const ROTATIONS: [[u32; 4]; 2] = [[13, 15, 26, 6], [17, 29, 16, 24]];
    let mut a = bin(B::Add, v(x0), v(&ks[0]))?;
    let mut b = bin(B::Add, v(x1), v(&ks[1]))?;
    for i in 0..5 {
        for &r in &ROTATIONS[i % 2] {
            a = bin(B::Add, v(&a), v(&b))?;
            b = rotl(&b, r)?;
            b = bin(B::Xor, v(&a), v(&b))?;
        }
        a = bin(B::Add, v(&a), v(&ks[(i + 1) % 3]))?;
        let inject = bin(B::Add, v(&ks[(i + 2) % 3]), lit((i + 1) as f64))?;
        b = bin(B::Add, v(&b), v(&inject))?;
    }
    Ok((a, b))
}

/// threefry of `key` on counters `(0, i)` for `i` in `0..n`.
fn counters(key: &Value, n: usize) -> Result<(Value, Value)> {
    let (k0, k1) = key_words(key)?;
    let lo = lax::iota(&mut Binder, vec![n], 0, DType::Uint32)?;
    let hi = bin(B::Mul, v(&lo), lit(0.0))?;
    threefry(&k0, &k1, &hi, &lo)
}

/// 32 random bits per element of `shape` (uint32).
pub fn bits(key: &Value, shape: &[usize]) -> Result<Value> {
    crate::core::shape::check("random", shape, 4)?;
    let n = crate::core::shape::size(shape);
    let (a, b) = counters(key, n)?;
    let x = bin(B::Xor, v(&a), v(&b))?;
    bind(Primitive::Reshape(shape.to_vec()), &[v(&x)])
}

/// `num` new keys (uint32 `[num, 2]`).
pub fn split(key: &Value, num: usize) -> Result<Value> {
    let (a, b) = counters(key, num)?;
    let col = |x: &Value| bind(Primitive::Reshape(vec![num, 1]), &[v(x)]);
    let (a, b) = (col(&a)?, col(&b)?);
    bind(Primitive::Concatenate(1), &[v(&a), v(&b)])
}

/// Uniform float32 in `[minval, maxval)`: 23 random mantissa bits under the exponent of 1.0,
/// minus 1, scaled, clamped below by `minval` (JAX's construction).
pub fn uniform(key: &Value, shape: &[usize], minval: f64, maxval: f64) -> Result<Value> {
    let b = bits(key, shape)?;
    let mantissa = bin(B::Shr, v(&b), lit(9.0))?;
    let one_bits = bin(B::Or, v(&mantissa), lit(f64::from(1.0f32.to_bits())))?;
    let in_one_two = bind(Primitive::Bitcast(DType::Float32), &[v(&one_bits)])?;
    let unit = bin(B::Sub, v(&in_one_two), lit(1.0))?;
    let scaled = bin(B::Mul, v(&unit), lit(maxval - minval))?;
    let shifted = bin(B::Add, v(&scaled), lit(minval))?;
    bin(B::Max, v(&shifted), lit(minval))
}

/// Standard normal float32: `√2 · erfinv(u)` with `u` uniform in (−1, 1) (JAX's construction).
pub fn normal(key: &Value, shape: &[usize]) -> Result<Value> {
    let lo = f64::from(f32::from_bits((-1.0f32).to_bits() - 1)); // nextafter(−1, 0)
    let u = uniform(key, shape, lo, 1.0)?;
    let e = erfinv(&u)?;
    bin(B::Mul, v(&e), lit(std::f64::consts::SQRT_2))
}

/// `true` with probability `p`.
pub fn bernoulli(key: &Value, p: f64, shape: &[usize]) -> Result<Value> {
    let u = uniform(key, shape, 0.0, 1.0)?;
    bind(Primitive::Compare(C::Lt), &[v(&u), lit(p)])
}

/// The inverse error function, Giles' single-precision approximation (what XLA uses).
pub fn erfinv(x: &Value) -> Result<Value> {
    const SMALL: [f64; 9] = [
        2.81022636e-08,
        3.43273939e-07,
        -3.5233877e-06,
        -4.39150654e-06,
        0.00021858087,
        -0.00125372503,
        -0.00417768164,
        0.246640727,
        1.50140941,
    ];
    const LARGE: [f64; 9] = [
        -0.000200214257,
        0.000100950558,
        0.00134934322,
        -0.00367342844,
        0.00573950773,
        -0.0076224613,
        0.00943887047,
        1.00167406,
        2.83297682,
    ];
    let one_minus = bin(B::Sub, lit(1.0), v(x))?;
    let one_plus = bin(B::Add, lit(1.0), v(x))?;
    let prod = bin(B::Mul, v(&one_minus), v(&one_plus))?;
    let log = bind(Primitive::Unary(U::Log), &[v(&prod)])?;
    let w = bind(Primitive::Unary(U::Neg), &[v(&log)])?;
    let horner = |w: &Value, coeffs: &[f64]| -> Result<Value> {
        let mut p = bin(B::Mul, v(w), lit(0.0))?;
        p = bin(B::Add, v(&p), lit(coeffs[0]))?;
        for &c in &coeffs[1..] {
            let pw = bin(B::Mul, v(&p), v(w))?;
            p = bin(B::Add, lit(c), v(&pw))?;
        }
        Ok(p)
    };
    let small = horner(&bin(B::Sub, v(&w), lit(2.5))?, &SMALL)?;
    let root = bind(Primitive::Unary(U::Sqrt), &[v(&w)])?;
    let large = horner(&bin(B::Sub, v(&root), lit(3.0))?, &LARGE)?;
    let is_small = bind(Primitive::Compare(C::Lt), &[v(&w), lit(5.0)])?;
    let p = bind(Primitive::Where, &[v(&is_small), v(&small), v(&large)])?;
    bin(B::Mul, v(&p), v(x))
}
