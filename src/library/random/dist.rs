//! More `random` distributions with JAX's constructions (so the same key gives JAX's numbers):
//! inverse-CDF samplers built on `uniform`/`normal`, `randint` from two bit streams, and
//! `categorical` by the Gumbel-max trick, `multivariateNormal` through a Cholesky factor.
//! Float32 samples.

use crate::core::DType;
use crate::library::emit::{lit, v};
use crate::library::random::{bits, normal, split, uniform};
use crate::library::reduce::{reduce, ReduceKind as K};
use crate::library::shape::reshape;
use crate::rules::lax;
use crate::transform::trace::{Binder, Operand};
use crate::transform::Value;
use crate::util::{Error, Result};

const EPS: f64 = 1.192_092_9e-7; // finfo(float32).eps
const EPSNEG: f64 = 5.960_464_5e-8; // finfo(float32).epsneg
const TINY: f64 = 1.175_494_4e-38; // finfo(float32).tiny

fn log1p_neg(u: &Value) -> Result<Value> {
    // log(1 − u): exact argument for uniform samples (multiples of 2^-23).
    lax::log(&mut Binder, &lax::sub(&mut Binder, 1.0, u)?)
}

fn exponential(key: &Value, shape: &[usize]) -> Result<Value> {
    let u = uniform(key, shape, 0.0, 1.0)?;
    lax::neg(&mut Binder, &log1p_neg(&u)?)
}

pub(super) fn gumbel(key: &Value, shape: &[usize]) -> Result<Value> {
    let u = uniform(key, shape, TINY, 1.0)?;
    lax::neg(
        &mut Binder,
        &lax::log(
            &mut Binder,
            &lax::neg(&mut Binder, &lax::log(&mut Binder, &u)?)?,
        )?,
    )
}

fn maxwell(key: &Value, shape: &[usize]) -> Result<Value> {
    let mut s = shape.to_vec();
    s.push(3);
    let n = normal(key, &s)?;
    let sq = reduce(
        "maxwell",
        K::Sum,
        &lax::mul(&mut Binder, &n, &n)?,
        Some(&[-1]),
        false,
    )?;
    lax::sqrt(&mut Binder, &sq)
}

fn rademacher(key: &Value, shape: &[usize], dtype: DType) -> Result<Value> {
    let b = crate::library::random::bernoulli(key, 0.5, shape)?;
    let b = lax::cast(&mut Binder, &b, dtype)?;
    lax::sub(&mut Binder, &lax::mul(&mut Binder, &b, 2.0)?, 1.0)
}

/// The two halves of `split(key)`.
fn two_keys(key: &Value) -> Result<(Value, Value)> {
    let ks = split(key, 2)?;
    let row = |i: usize| -> Result<Value> {
        let r = lax::shrink(&mut Binder, &ks, vec![(i, i + 1), (0, 2)])?;
        lax::reshape(&mut Binder, &r, vec![2])
    };
    Ok((row(0)?, row(1)?))
}

/// `randint` in [minval, maxval) (int32), JAX's two-stream modulus construction.
pub(super) fn randint(key: &Value, shape: &[usize], minval: f64, maxval: f64) -> Result<Value> {
    let clip = |x: f64| x.clamp(f64::from(i32::MIN), f64::from(i32::MAX)).floor();
    let (lo, hi) = (clip(minval), clip(maxval));
    let out_of_range = maxval > f64::from(i32::MAX);
    let mut span = if hi <= lo { 1u64 } else { (hi - lo) as u64 };
    if out_of_range && hi > lo {
        span += 1;
    }
    let span = span as u32;
    let multiplier = (65536u64 % u64::from(span)) as u32;
    // uint32 arithmetic, as in JAX: the square wraps modulo 2^32.
    let multiplier = multiplier.wrapping_mul(multiplier) % span;
    let (k1, k2) = two_keys(key)?;
    let (high, low) = (bits(&k1, shape)?, bits(&k2, shape)?);
    let s = f64::from(span);
    let a = lax::mul(
        &mut Binder,
        &lax::rem(&mut Binder, &high, s)?,
        f64::from(multiplier),
    )?;
    let offset = lax::add(&mut Binder, &a, &lax::rem(&mut Binder, &low, s)?)?;
    let offset = lax::rem(&mut Binder, &offset, s)?;
    // Wrapping int32 addition of the offset's bits to minval.
    let off = lax::bitcast(&mut Binder, &offset, DType::Int32)?;
    lax::add(&mut Binder, &off, lo)
}

/// Points uniform in the Euclidean unit ball of `d` dimensions, of shape `shape + [d]`:
/// jax-js's construction (only `p` = 2), a normal direction `z / |z|` (from the first key of
/// `split(key, 2)`) scaled by the radius `u^(1/d)`, `u` uniform (from the second).
pub fn ball(key: &Value, d: f64, p: f64, shape: &[usize]) -> Result<Value> {
    if d.fract() != 0.0 || d < 1.0 {
        return Err(Error::new(
            "ball",
            format!("dimension must be a positive integer, got {d}"),
        ));
    }
    if p != 2.0 {
        return Err(Error::new(
            "ball",
            "only the Euclidean p=2 case is supported",
        ));
    }
    let (k1, k2) = two_keys(key)?;
    let mut zs = shape.to_vec();
    zs.push(d as usize);
    let z = normal(&k1, &zs)?;
    let squares = lax::mul(&mut Binder, &z, &z)?;
    let norm = lax::sqrt(
        &mut Binder,
        &reduce("ball", K::Sum, &squares, Some(&[-1]), true)?,
    )?;
    let mut us = shape.to_vec();
    us.push(1);
    let u = uniform(&k2, &us, 0.0, 1.0)?;
    let log = lax::log(&mut Binder, &u)?;
    let radius = lax::exp(&mut Binder, &lax::mul(&mut Binder, &log, 1.0 / d)?)?;
    lax::mul(&mut Binder, &lax::div(&mut Binder, &z, &norm)?, &radius)
}

/// Samples of distribution `name` of shape `shape` with its parameters `a`, `b`, `c` in order
/// (NaN where it has fewer).
pub fn sample(name: &str, key: &Value, shape: &[usize], a: f64, b: f64, c: f64) -> Result<Value> {
    match name {
        "exponential" => exponential(key, shape),
        "gumbel" => gumbel(key, shape),
        "cauchy" => {
            let u = uniform(key, shape, EPS, 1.0)?;
            let t = lax::mul(
                &mut Binder,
                &lax::sub(&mut Binder, &u, 0.5)?,
                std::f64::consts::PI,
            )?;
            crate::library::apply("tan", &[v(&t)])
        }
        "laplace" => {
            let u = uniform(key, shape, -1.0 + EPSNEG, 1.0)?;
            let l = log1p_neg(&lax::abs(&mut Binder, &u)?)?;
            lax::mul(&mut Binder, &crate::library::apply("sign", &[v(&u)])?, &l)
        }
        "logistic" => {
            let x = uniform(key, shape, TINY, 1.0)?;
            lax::sub(&mut Binder, &lax::log(&mut Binder, &x)?, &log1p_neg(&x)?)
        }
        "lognormal" => lax::exp(
            &mut Binder,
            &lax::mul(&mut Binder, &normal(key, shape)?, a)?,
        ),
        "rademacher" => rademacher(key, shape, DType::Int32),
        "rayleigh" => {
            let u = uniform(key, shape, 0.0, 1.0)?;
            let r = lax::sqrt(
                &mut Binder,
                &lax::mul(&mut Binder, &lax::log(&mut Binder, &u)?, -2.0)?,
            )?;
            lax::mul(&mut Binder, a, &r)
        }
        "maxwell" => maxwell(key, shape),
        "doubleSidedMaxwell" => {
            let (k1, k2) = two_keys(key)?;
            let m = maxwell(&k1, shape)?;
            let s = rademacher(&k2, shape, DType::Float32)?;
            let x = lax::mul(&mut Binder, &lax::mul(&mut Binder, &s, &m)?, b)?;
            lax::add(&mut Binder, &x, a)
        }
        "weibullMin" => {
            let u = uniform(key, shape, 0.0, 1.0)?;
            let e = lax::neg(&mut Binder, &log1p_neg(&u)?)?;
            let pw = crate::library::power::power(&[v(&e), lit(1.0 / b)])?;
            lax::mul(&mut Binder, &pw, a)
        }
        "pareto" => lax::exp(
            &mut Binder,
            &lax::div(&mut Binder, &exponential(key, shape)?, a)?,
        ),
        "triangular" => {
            let f = |x: f64| f64::from(x as f32);
            let (left, mode, right) = (f(a), f(b), f(c));
            let fc = f((mode - left) as f32 as f64 / ((right - left) as f32 as f64));
            let u = uniform(key, shape, 0.0, 1.0)?;
            let t1 = lax::mul(
                &mut Binder,
                &lax::mul(&mut Binder, &u, right - left)?,
                mode - left,
            )?;
            let out1 = lax::add(&mut Binder, left, &lax::sqrt(&mut Binder, &t1)?)?;
            let q = lax::sub(&mut Binder, 1.0, &u)?;
            let t2 = lax::mul(
                &mut Binder,
                &lax::mul(&mut Binder, &q, right - left)?,
                right - mode,
            )?;
            let out2 = lax::sub(&mut Binder, right, &lax::sqrt(&mut Binder, &t2)?)?;
            lax::select(&mut Binder, &lax::lt(&mut Binder, &u, fc)?, &out1, &out2)
        }
        "geometric" => {
            let u = uniform(key, shape, 0.0, 1.0)?;
            let u = lax::select(&mut Binder, &lax::eq(&mut Binder, &u, 0.0)?, 1.0, &u)?;
            let denom = f64::from((-(a as f32) as f64).ln_1p() as f32);
            let g = lax::floor(
                &mut Binder,
                &lax::div(&mut Binder, &lax::log(&mut Binder, &u)?, denom)?,
            )?;
            let g = lax::add(&mut Binder, &g, 1.0)?;
            lax::cast(&mut Binder, &g, DType::Int32)
        }
        "randint" => randint(key, shape, a, b),
        _ => Err(Error::new(name, "unknown distribution")),
    }
}

/// Gumbel-max sampling of categories along `axis` of `logits`.
/// JAX's `replace=False`: the Gumbel-top-k trick, `k` = the product of the leading
/// `prefix` axes of `shape` distinct categories per batch element.
fn without_replacement(
    key: &Value,
    logits: &Value,
    axis: usize,
    shape: &[usize],
    prefix: usize,
) -> Result<Value> {
    let ls = logits.aval().shape.clone();
    let (nd, n) = (ls.len(), ls[axis]);
    let k = crate::core::shape::size(&shape[..prefix]);
    if k > n {
        return Err(Error::new(
            "categorical",
            format!("{k} samples without replacement exceed the {n} categories"),
        ));
    }
    let g = gumbel(key, &ls)?;
    let l = crate::library::math::float(&v(logits))?;
    let z = lax::add(&mut Binder, &l, &g)?;
    let mut perm: Vec<usize> = (0..nd).filter(|&a| a != axis).collect();
    perm.push(axis);
    let z = lax::transpose(&mut Binder, &z, perm)?;
    let idx = crate::library::indexing::top_k(&z, k, -1)?.remove(1); // [batch…, k]
    let mut back = vec![nd - 1];
    back.extend(0..nd - 1);
    let idx = lax::transpose(&mut Binder, &idx, back)?;
    lax::reshape(&mut Binder, &idx, shape.to_vec())
}

/// Category indices from `softmax(logits)` along `axis`, of shape `shape` (default: the batch
/// shape), with or without replacement.
pub fn categorical(
    key: &Value,
    logits: &Value,
    axis: i64,
    shape: Option<&[usize]>,
    replace: bool,
) -> Result<Value> {
    let ls = logits.aval().shape.clone();
    let nd = ls.len();
    if nd == 0 {
        return Err(Error::new(
            "categorical",
            "logits must have at least one axis",
        ));
    }
    let axis = crate::library::shape::normalize_axis("categorical", axis, nd)?;
    let mut batch = ls.clone();
    let n = batch.remove(axis);
    let shape: Vec<usize> = shape.map_or_else(|| batch.clone(), <[usize]>::to_vec);
    if shape.len() < batch.len() || shape[shape.len() - batch.len()..] != batch[..] {
        return Err(Error::new(
            "categorical",
            format!("shape {shape:?} must end with the batch shape {batch:?}"),
        ));
    }
    let prefix = shape.len() - batch.len();
    if !replace {
        return without_replacement(key, logits, axis, &shape, prefix);
    }
    let mut sample_shape = shape.clone();
    sample_shape.insert(prefix + axis, n);
    let g = gumbel(key, &sample_shape)?;
    let mut lshape = vec![1; prefix];
    lshape.extend(&ls);
    let l = lax::reshape(&mut Binder, logits, lshape)?;
    let l = crate::library::math::float(&v(&l))?;
    let z = lax::add(&mut Binder, &g, &l)?;
    crate::library::indexing::arg_extreme(
        "categorical",
        &z,
        Some((prefix + axis) as i64),
        false,
        true,
    )
}

/// `mean + L·z` with `L = cholesky(cov)` and `z` standard normal of shape `shape + [n]`
/// (`sample_shape`; default: the broadcast batch shape).
pub fn multivariate_normal(
    key: &Value,
    mean: &Value,
    cov: &Value,
    sample_shape: Option<&[usize]>,
) -> Result<Value> {
    let (ms, cs) = (mean.aval().shape.clone(), cov.aval().shape.clone());
    let n = *ms
        .last()
        .ok_or_else(|| Error::new("multivariateNormal", "mean must be at least 1-D"))?;
    if cs.len() < 2 || cs[cs.len() - 2..] != [n, n] {
        return Err(Error::new(
            "multivariateNormal",
            format!("cov must have shape [..., {n}, {n}], got {cs:?}"),
        ));
    }
    let batch: Vec<usize> = match sample_shape {
        Some(s) => s.to_vec(),
        None => crate::library::manipulation::broadcast_shape(
            "multivariateNormal",
            &[ms[..ms.len() - 1].to_vec(), cs[..cs.len() - 2].to_vec()],
        )?,
    };
    let mut zs = batch.clone();
    zs.push(n);
    let z = crate::library::random::normal(key, &zs)?;
    let l = crate::library::lax_linalg::cholesky_lower("multivariateNormal", cov)?;
    let mut col = zs.clone();
    col.push(1);
    let lz = crate::library::apply("matmul", &[v(&l), Operand::Value(&reshape(&z, col)?)])?;
    let mut out = lz.aval().shape.clone();
    out.pop();
    lax::add(&mut Binder, mean, &reshape(&lz, out)?)
}
