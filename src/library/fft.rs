//! `numpy.fft` over `{ real, imag }` pairs (there is no complex dtype): the discrete Fourier
//! transform along one axis as products with cosine and sine matrices built from exact integer
//! phases (`(k·t) mod n`), so any length works and gradients come from matmul's rules. Dense:
//! O(n²) per transform. Also `rfft`/`irfft`, `hfft`/`ihfft`, shifts and sample frequencies.

use std::f64::consts::PI;

use super::call::Params;
use super::emit::{bin, cmp, lit, select, un, v};
use super::shape::{moveaxis, normalize_axis};
use crate::core::ops::{BinaryOp as B, CompareOp as C, UnaryOp as U};
use crate::core::{DType, Primitive};
use crate::transform::trace::bind;
use crate::transform::Value;
use crate::util::{Error, Result};

fn iota(shape: Vec<usize>, axis: usize) -> Result<Value> {
    bind(
        Primitive::Iota {
            shape,
            axis,
            dtype: DType::Int32,
        },
        &[],
    )
}

/// `cos` and `sin` of `2π·(k·t mod n)/n` for k < rows, t < cols, in `dtype`, each scaled by
/// `weights(k)` when given.
fn trig(rows: usize, cols: usize, n: usize, dtype: DType) -> Result<(Value, Value)> {
    let k = iota(vec![rows, cols], 0)?;
    let t = iota(vec![rows, cols], 1)?;
    let phase = bin(B::Rem, v(&bin(B::Mul, v(&k), v(&t))?), lit(n as f64))?;
    let phase = bind(Primitive::Cast(dtype), &[v(&phase)])?;
    let angle = bin(B::Mul, v(&phase), lit(2.0 * PI / n as f64))?;
    Ok((un(U::Cos, &angle)?, un(U::Sin, &angle)?))
}

fn mm(a: &Value, b: &Value) -> Result<Value> {
    super::apply("matmul", &[v(a), v(b)])
}

fn float(x: &Value) -> Result<Value> {
    super::math::float(&v(x))
}

/// Length `n` along the last axis: truncated or zero-padded.
fn fit(x: &Value, n: usize) -> Result<Value> {
    let s = x.aval().shape.clone();
    let r = s.len() - 1;
    let len = s[r];
    if len == n {
        return Ok(x.clone());
    }
    if len > n {
        let mut ranges: Vec<(usize, usize)> = s.iter().map(|&d| (0, d)).collect();
        ranges[r] = (0, n);
        return bind(Primitive::Shrink(ranges), &[v(x)]);
    }
    let mut pads = vec![(0, 0); s.len()];
    pads[r] = (0, n - len);
    bind(Primitive::Pad(pads), &[v(x)])
}

fn power_of_two_check(name: &str, n: usize) -> Result<()> {
    if n == 0 {
        return Err(Error::new(name, "the transform length must be positive"));
    }
    Ok(())
}

/// The transforms. `arrays`: [real, imag] (fft, ifft, irfft, hfft) or [x] (rfft, ihfft);
/// parameters: axis (default −1), n (default: the input length, or 2(m−1) for irfft/hfft).
pub fn fft(name: &str, arrays: &[Value], p: &Params) -> Result<Vec<Value>> {
    let first = &arrays[0];
    let rank = first.aval().shape.len();
    if rank == 0 {
        return Err(Error::new(name, "needs an array of at least 1 dimension"));
    }
    if arrays.len() > 1 && arrays[1].aval().shape != first.aval().shape {
        return Err(Error::new(
            name,
            "real and imag parts must have the same shape",
        ));
    }
    let ax = normalize_axis(name, p.int(0, -1)?, rank)?;
    let last = rank as i64 - 1;
    let to_last = |x: &Value| -> Result<Value> { float(&moveaxis(x, ax as i64, last)?) };
    let back = |x: &Value| -> Result<Value> { moveaxis(x, last, ax as i64) };
    let len = first.aval().shape[ax];
    let parts: Vec<Value> = arrays.iter().map(to_last).collect::<Result<_>>()?;
    let dtype = parts[0].aval().dtype;
    match name {
        "fft" | "ifft" => {
            let n = p.usize(1, len)?;
            power_of_two_check(name, n)?;
            let (re, im) = (fit(&parts[0], n)?, fit(&parts[1], n)?);
            let (c, s) = trig(n, n, n, dtype)?;
            let (rc, rs, ic, is) = (mm(&re, &c)?, mm(&re, &s)?, mm(&im, &c)?, mm(&im, &s)?);
            let (out_re, out_im) = if name == "fft" {
                (bin(B::Add, v(&rc), v(&is))?, bin(B::Sub, v(&ic), v(&rs))?)
            } else {
                let scale = 1.0 / n as f64;
                (
                    bin(B::Mul, v(&bin(B::Sub, v(&rc), v(&is))?), lit(scale))?,
                    bin(B::Mul, v(&bin(B::Add, v(&ic), v(&rs))?), lit(scale))?,
                )
            };
            Ok(vec![back(&out_re)?, back(&out_im)?])
        }
        "rfft" | "ihfft" => {
            let n = p.usize(1, len)?;
            power_of_two_check(name, n)?;
            let x = fit(&parts[0], n)?;
            let (c, s) = trig(n, n / 2 + 1, n, dtype)?;
            let (xc, xs) = (mm(&x, &c)?, mm(&x, &s)?);
            let (re, im) = if name == "rfft" {
                (xc, un(U::Neg, &xs)?)
            } else {
                let scale = 1.0 / n as f64;
                (
                    bin(B::Mul, v(&xc), lit(scale))?,
                    bin(B::Mul, v(&xs), lit(scale))?,
                )
            };
            Ok(vec![back(&re)?, back(&im)?])
        }
        "irfft" | "hfft" => {
            let n = p.usize(1, 2 * len.saturating_sub(1))?;
            power_of_two_check(name, n)?;
            let m = n / 2 + 1;
            let (re, im) = (fit(&parts[0], m)?, fit(&parts[1], m)?);
            let im = if name == "hfft" { un(U::Neg, &im)? } else { im };
            let (c, s) = trig(m, n, n, dtype)?;
            // Each frequency but 0 (and n/2 for even n) stands for itself and its mirror.
            let k = iota(vec![m, 1], 0)?;
            let single = bin(
                B::Or,
                v(&cmp(C::Eq, v(&k), lit(0.0))?),
                v(&cmp(
                    C::Eq,
                    v(&bin(B::Mul, v(&k), lit(2.0))?),
                    lit(n as f64),
                )?),
            )?;
            let w = select(&single, lit(1.0), lit(2.0))?;
            let w = bind(Primitive::Cast(dtype), &[v(&w)])?;
            let (c, s) = (bin(B::Mul, v(&c), v(&w))?, bin(B::Mul, v(&s), v(&w))?);
            let out = bin(B::Sub, v(&mm(&re, &c)?), v(&mm(&im, &s)?))?;
            let scale = if name == "irfft" { 1.0 / n as f64 } else { 1.0 };
            Ok(vec![back(&bin(B::Mul, v(&out), lit(scale))?)?])
        }
        _ => Err(Error::new(name, "unknown transform")),
    }
}

/// `fftshift` (zero frequency to the centre) or `ifftshift` over the axes of the parameters
/// (count, axes…; NaN: all axes).
pub fn shift(name: &str, x: &Value, p: &Params) -> Result<Value> {
    let s = x.aval().shape.clone();
    let axes: Vec<usize> = match p.axes(0)? {
        None => (0..s.len()).collect(),
        Some(a) => a
            .iter()
            .map(|&k| normalize_axis(name, k, s.len()))
            .collect::<Result<_>>()?,
    };
    let mut y = x.clone();
    for ax in axes {
        let n = s[ax];
        let k = if name == "fftshift" { n / 2 } else { n - n / 2 };
        y = super::shape_extra::roll_axis(&y, k as i64, ax)?;
    }
    Ok(y)
}

/// Sample frequencies (parameters: n, d): `fftfreq` [0, 1, …, −1]/(d·n), `rfftfreq` [0 … n/2]/(d·n).
pub fn fftfreq(name: &str, p: &Params) -> Result<Value> {
    let n = p.usize(0, 0)?;
    if n == 0 {
        return Err(Error::new(name, "n must be positive"));
    }
    let d = p.num(1, 1.0);
    let len = if name == "rfftfreq" { n / 2 + 1 } else { n };
    let i = bind(Primitive::Cast(DType::Float32), &[v(&iota(vec![len], 0)?)])?;
    let i = if name == "rfftfreq" {
        i
    } else {
        let wrap = cmp(C::Lt, v(&i), lit(n.div_ceil(2) as f64))?;
        select(&wrap, v(&i), v(&bin(B::Sub, v(&i), lit(n as f64))?))?
    };
    bin(B::Mul, v(&i), lit(1.0 / (d * n as f64)))
}
