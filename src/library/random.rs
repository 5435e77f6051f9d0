//! Counter-based random numbers bit-exact with JAX's default (partitionable) threefry-2x32:
//! a key is a uint32 `[2]` array; element `i` of `bits(key, shape)` is `x0 ^ x1` of
//! threefry2x32(key, (0, i)), and `split(key, n)[i]` is `(x0, x1)`. threefry2x32 is one
//! elementwise primitive (`Primitive::Threefry`, its words chosen by a mode), so a draw and
//! the arithmetic on it fuse into one kernel, and it runs (and traces) like any other
//! operation. The other distributions are in `random/dist.rs`, permutations and choice in
//! `random/shuffle.rs`.

pub(super) mod dist;
pub(super) mod shuffle;

use crate::core::ops::{BinaryOp as B, ThreefryMode};
use crate::core::DType;
use crate::rules::lax;
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
        let s = lax::shrink(&mut Binder, key, vec![(i, i + 1)])?;
        lax::reshape(&mut Binder, &s, vec![])
    };
    Ok((word(0)?, word(1)?))
}

/// threefry2x32 of `key` on the counters `(0, i)` for `i` in `0..n`: the words of each mode.
fn counters(key: &Value, n: usize, modes: &[ThreefryMode]) -> Result<Vec<Value>> {
    let (k0, k1) = key_words(key)?;
    let lo = lax::iota(&mut Binder, vec![n], 0, DType::Uint32)?;
    modes
        .iter()
        .map(|&mode| {
            let operands = [(&k0).into(), (&k1).into(), 0.0.into(), (&lo).into()];
            lax::threefry(&mut Binder, mode, operands)
        })
        .collect()
}

/// 32 random bits per element of `shape` (uint32).
pub fn bits(key: &Value, shape: &[usize]) -> Result<Value> {
    crate::core::shape::check("random", shape, 4)?;
    let n = crate::core::shape::size(shape);
    let x = counters(key, n, &[ThreefryMode::Xor])?;
    lax::reshape(&mut Binder, &x[0], shape.to_vec())
}

/// `num` new keys (uint32 `[num, 2]`).
pub fn split(key: &Value, num: usize) -> Result<Value> {
    let words = counters(key, num, &[ThreefryMode::Word0, ThreefryMode::Word1])?;
    let columns = words
        .iter()
        .map(|x| lax::reshape(&mut Binder, x, vec![num, 1]))
        .collect::<Result<Vec<_>>>()?;
    lax::concatenate(&mut Binder, &columns, 1)
}

/// Uniform float32 in `[minval, maxval)`: 23 random mantissa bits under the exponent of 1.0,
/// minus 1, scaled, clamped below by `minval` (JAX's construction).
pub fn uniform(key: &Value, shape: &[usize], minval: f64, maxval: f64) -> Result<Value> {
    let b = bits(key, shape)?;
    let mantissa = lax::binary(&mut Binder, B::Shr, &b, 9.0)?;
    let one_bits = lax::binary(&mut Binder, B::Or, &mantissa, f64::from(1.0f32.to_bits()))?;
    let in_one_two = lax::bitcast(&mut Binder, &one_bits, DType::Float32)?;
    let unit = lax::sub(&mut Binder, &in_one_two, 1.0)?;
    let scaled = lax::mul(&mut Binder, &unit, maxval - minval)?;
    let shifted = lax::add(&mut Binder, &scaled, minval)?;
    lax::max(&mut Binder, &shifted, minval)
}

/// Standard normal float32: `√2 · erfinv(u)` with `u` uniform in (−1, 1) (JAX's construction).
pub fn normal(key: &Value, shape: &[usize]) -> Result<Value> {
    let lo = f64::from(f32::from_bits((-1.0f32).to_bits() - 1)); // nextafter(−1, 0)
    let u = uniform(key, shape, lo, 1.0)?;
    let e = erfinv(&u)?;
    lax::mul(&mut Binder, &e, std::f64::consts::SQRT_2)
}

/// `true` with probability `p`.
pub fn bernoulli(key: &Value, p: f64, shape: &[usize]) -> Result<Value> {
    let u = uniform(key, shape, 0.0, 1.0)?;
    lax::lt(&mut Binder, &u, p)
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
    let one_minus = lax::sub(&mut Binder, 1.0, x)?;
    let one_plus = lax::add(&mut Binder, 1.0, x)?;
    let prod = lax::mul(&mut Binder, &one_minus, &one_plus)?;
    let log = lax::log(&mut Binder, &prod)?;
    let w = lax::neg(&mut Binder, &log)?;
    let horner = |w: &Value, coeffs: &[f64]| -> Result<Value> {
        let mut p = lax::mul(&mut Binder, w, 0.0)?;
        p = lax::add(&mut Binder, &p, coeffs[0])?;
        for &c in &coeffs[1..] {
            let pw = lax::mul(&mut Binder, &p, w)?;
            p = lax::add(&mut Binder, c, &pw)?;
        }
        Ok(p)
    };
    let small = horner(&lax::sub(&mut Binder, &w, 2.5)?, &SMALL)?;
    let root = lax::sqrt(&mut Binder, &w)?;
    let large = horner(&lax::sub(&mut Binder, &root, 3.0)?, &LARGE)?;
    let is_small = lax::lt(&mut Binder, &w, 5.0)?;
    let p = lax::select(&mut Binder, &is_small, &small, &large)?;
    lax::mul(&mut Binder, &p, x)
}
