//! `numpy.fft` over `{ real, imag }` pairs (there is no complex dtype): every transform is the
//! `fft` routine primitive (O(n log n) for any length, `rules::fft`) along the last axis, the
//! transformed axis moved there and back, with NumPy's lengths (`n`: truncate or zero-pad),
//! scaling and real-input forms built around it: `rfft` transforms `(x, 0)` and keeps the
//! non-negative frequencies, `irfft` rebuilds the Hermitian spectrum (`X[n−k] = conj X[k]`)
//! and keeps the real part; the n-D transforms apply these along one axis at a time. Gradients
//! and batching come from the primitive's rules. Also shifts and sample frequencies.

use super::emit::v;
use super::shape::{moveaxis, normalize_axis};
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

fn float(x: &Value) -> Result<Value> {
    super::math::float(&v(x))
}

/// `x` with its last axis cut to `[start, end)`.
fn cut(x: &Value, start: usize, end: usize) -> Result<Value> {
    let s = x.aval().shape.clone();
    let mut ranges: Vec<(usize, usize)> = s.iter().map(|&d| (0, d)).collect();
    ranges[s.len() - 1] = (start, end);
    lax::shrink(&mut Binder, x, ranges)
}

/// Length `n` along the last axis: truncated or zero-padded.
fn fit(x: &Value, n: usize) -> Result<Value> {
    let s = x.aval().shape.clone();
    let r = s.len() - 1;
    let len = s[r];
    if len >= n {
        return if len == n {
            Ok(x.clone())
        } else {
            cut(x, 0, n)
        };
    }
    let mut pads = vec![(0, 0); s.len()];
    pads[r] = (0, n - len);
    lax::pad(&mut Binder, x, pads)
}

/// Zeros of `x`'s shape and dtype (a view: no operation reads `x`'s values).
fn zeros_like(x: &Value) -> Result<Value> {
    let n = *x.aval().shape.last().expect("rank ≥ 1");
    fit(&cut(x, 0, 0)?, n)
}

/// The `fft` routine along the last axis (float16 computed in float32).
fn transform(re: &Value, im: &Value, inverse: bool) -> Result<(Value, Value)> {
    let half = re.aval().dtype == DType::Float16;
    let cast = |x: &Value, d: DType| lax::cast(&mut Binder, x, d);
    let (re, im) = if half {
        (cast(re, DType::Float32)?, cast(im, DType::Float32)?)
    } else {
        (re.clone(), im.clone())
    };
    let mut out = lax::fft(&mut Binder, &re, &im, inverse)?;
    let (a, b) = (out.remove(0), out.remove(0));
    if half {
        Ok((cast(&a, DType::Float16)?, cast(&b, DType::Float16)?))
    } else {
        Ok((a, b))
    }
}

fn scale(x: &Value, by: f64) -> Result<Value> {
    lax::mul(&mut Binder, x, by)
}

/// The full spectrum of length `n` whose first `n/2 + 1` terms are `(re, im)` (Hermitian:
/// `X[n−k] = conj X[k]`).
fn hermitian(re: &Value, im: &Value, n: usize) -> Result<(Value, Value)> {
    let m = n / 2 + 1;
    let tail = n - m;
    if tail == 0 {
        return Ok((re.clone(), im.clone()));
    }
    let last = re.aval().shape.len() - 1;
    let mirror = |x: &Value| lax::flip(&mut Binder, &cut(x, 1, 1 + tail)?, vec![last]);
    let join = |a: &Value, b: &Value| lax::concatenate(&mut Binder, &[a.clone(), b.clone()], last);
    Ok((
        join(re, &mirror(re)?)?,
        join(im, &lax::neg(&mut Binder, &mirror(im)?)?)?,
    ))
}

/// The transform length: `n`, else `default`; positive.
fn length(name: &str, n: Option<usize>, default: usize) -> Result<usize> {
    let n = n.unwrap_or(default);
    if n == 0 {
        return Err(Error::new(
            name,
            format!("invalid number of data points ({n}): the transform length must be positive"),
        ));
    }
    Ok(n)
}

/// The transforms. `arrays`: [real, imag] (fft, ifft, irfft, hfft) or [x] (rfft, ihfft);
/// along `axis`, of length `n` (default: the input length, or 2(m−1) for irfft/hfft).
pub fn fft(name: &str, arrays: &[Value], axis: i64, n: Option<usize>) -> Result<Vec<Value>> {
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
    let ax = normalize_axis(name, axis, rank)?;
    let last = rank as i64 - 1;
    let to_last = |x: &Value| -> Result<Value> { float(&moveaxis(x, ax as i64, last)?) };
    let back = |x: &Value| -> Result<Value> { moveaxis(x, last, ax as i64) };
    let len = first.aval().shape[ax];
    let parts: Vec<Value> = arrays.iter().map(to_last).collect::<Result<_>>()?;
    let rename = |e| super::lax_linalg::rename(e, name);
    match name {
        "fft" | "ifft" => {
            let n = length(name, n, len)?;
            let (re, im) = (fit(&parts[0], n)?, fit(&parts[1], n)?);
            let inverse = name == "ifft";
            let (re, im) = transform(&re, &im, inverse).map_err(rename)?;
            let k = if inverse { 1.0 / n as f64 } else { 1.0 };
            let (re, im) = if inverse {
                (scale(&re, k)?, scale(&im, k)?)
            } else {
                (re, im)
            };
            Ok(vec![back(&re)?, back(&im)?])
        }
        "rfft" | "ihfft" => {
            let n = length(name, n, len)?;
            let x = fit(&parts[0], n)?;
            let (re, im) = transform(&x, &zeros_like(&x)?, false).map_err(rename)?;
            let (re, im) = (cut(&re, 0, n / 2 + 1)?, cut(&im, 0, n / 2 + 1)?);
            let (re, im) = if name == "rfft" {
                (re, im)
            } else {
                let k = 1.0 / n as f64;
                (scale(&re, k)?, scale(&im, -k)?)
            };
            Ok(vec![back(&re)?, back(&im)?])
        }
        "irfft" | "hfft" => {
            let n = length(name, n, 2 * len.saturating_sub(1))?;
            let m = n / 2 + 1;
            let (re, im) = (fit(&parts[0], m)?, fit(&parts[1], m)?);
            let im = if name == "hfft" {
                lax::neg(&mut Binder, &im)?
            } else {
                im
            };
            let (re, im) = hermitian(&re, &im, n)?;
            let (out, _) = transform(&re, &im, true).map_err(rename)?;
            let k = if name == "irfft" { 1.0 / n as f64 } else { 1.0 };
            Ok(vec![back(&scale(&out, k)?)?])
        }
        _ => Err(Error::new(name, "unknown transform")),
    }
}

/// The n-D transforms over `axes` (`None`: every axis), one axis at a time: `fftn`/`ifftn`
/// apply `fft`/`ifft` along each; `rfftn` applies `rfft` along the last and `fft` along the
/// others, `irfftn` `ifft` along all but the last and then `irfft` along it. `arrays` as for
/// [`fft`]; errors name `name`.
pub fn fftn(name: &str, arrays: &[Value], axes: Option<&[i64]>) -> Result<Vec<Value>> {
    let rank = arrays[0].aval().shape.len() as i64;
    let all: Vec<i64> = axes.map_or_else(|| (0..rank).collect(), <[i64]>::to_vec);
    let rename = |e| super::lax_linalg::rename(e, name);
    let step = |step: &str, xs: &[Value], axis: i64| fft(step, xs, axis, None).map_err(rename);
    let over = |xs: Vec<Value>, axes: &[i64], each: &str| {
        axes.iter()
            .try_fold(xs, |cur, &axis| step(each, &cur, axis))
    };
    match name {
        "fftn" | "ifftn" => over(arrays.to_vec(), &all, &name[..name.len() - 1]),
        "rfftn" | "irfftn" => {
            let Some((&last, rest)) = all.split_last() else {
                return Err(Error::new(name, "needs at least one axis"));
            };
            if name == "rfftn" {
                over(step("rfft", arrays, last)?, rest, "fft")
            } else {
                step("irfft", &over(arrays.to_vec(), rest, "ifft")?, last)
            }
        }
        _ => Err(Error::new(name, "unknown transform")),
    }
}

/// `fftshift` (zero frequency to the centre) or `ifftshift` over `axes` (`None`: all axes).
pub fn shift(name: &str, x: &Value, axes: Option<&[i64]>) -> Result<Value> {
    let s = x.aval().shape.clone();
    let axes: Vec<usize> = match axes {
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
        y = super::manipulation::roll_axis(&y, k as i64, ax)?;
    }
    Ok(y)
}

/// Sample frequencies: `fftfreq` [0, 1, …, −1]/(d·n), `rfftfreq` [0 … n/2]/(d·n).
pub fn fftfreq(name: &str, n: usize, d: f64) -> Result<Value> {
    if n == 0 {
        return Err(Error::new(name, "n must be positive"));
    }
    let len = if name == "rfftfreq" { n / 2 + 1 } else { n };
    let i = lax::cast(
        &mut Binder,
        &lax::iota_i32(&mut Binder, vec![len], 0)?,
        DType::Float32,
    )?;
    let i = if name == "rfftfreq" {
        i
    } else {
        let wrap = lax::lt(&mut Binder, &i, n.div_ceil(2) as f64)?;
        lax::select(
            &mut Binder,
            &wrap,
            &i,
            &lax::sub(&mut Binder, &i, n as f64)?,
        )?
    };
    lax::mul(&mut Binder, &i, 1.0 / (d * n as f64))
}
