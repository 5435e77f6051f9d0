//! The FFT routine (`kernel::RoutineKind::Fft`) as the `cpu` and `wasm` devices compute it: in
//! f64 whatever the dtype (each result rounded once), O(n log n) for every length.
//!
//! - A power of two: the row is loaded in bit-reversed order and transformed by decimation in
//!   time (`fft_radix2.rs`). Twiddles `e^(∓2πi·k/n)` come from two tables of exact
//!   `sin`/`cos` (`k = hi·S + lo`), one product each.
//! - Any other length: Bluestein's chirp z-transform, `X[k] = w[k]·Σ_t (x[t]·w[t])·w̄[k−t]`
//!   with `w[k] = e^(∓iπ·k²/n)` (`k² mod 2n` computed exactly), the convolution done by
//!   power-of-two transforms of length `M ≥ 2n − 1`: decimation in frequency (natural order in,
//!   bit-reversed out), the product with the filter's transform (kept bit-reversed), then
//!   decimation in time back to natural order — no permutation pass. The filter's transform is
//!   computed once per call and shared by the rows.

use super::fft_radix2::Radix2;
use crate::core::DType;

/// `e^(-2πi·k/n)` for any `k`, from exact tables of about `√n` coarse and `√n` fine angles
/// (`k mod n = hi·S + lo`): one complex product each.
struct Roots {
    n: usize,
    s: usize,
    coarse: Vec<(f64, f64)>,
    fine: Vec<(f64, f64)>,
}

impl Roots {
    fn new(n: usize) -> Roots {
        let s = (n as f64).sqrt().ceil().max(1.0) as usize;
        let angle = |k: usize| -2.0 * std::f64::consts::PI * k as f64 / n as f64;
        let at = |k: usize| (angle(k).cos(), angle(k).sin());
        Roots {
            n,
            s,
            coarse: (0..n.div_ceil(s)).map(|h| at(h * s)).collect(),
            fine: (0..s).map(at).collect(),
        }
    }

    fn at(&self, k: usize) -> (f64, f64) {
        let k = k % self.n;
        let ((a, b), (c, d)) = (self.coarse[k / self.s], self.fine[k % self.s]);
        (a * c - b * d, a * d + b * c)
    }
}

/// `e^(-2πi·k/n)` for `k < count`.
pub fn roots(n: usize, count: usize) -> (Vec<f64>, Vec<f64>) {
    let r = Roots::new(n);
    (0..count).map(|k| r.at(k)).unzip()
}

/// Bluestein's algorithm for length `n`: the chirp `w` and the transform of the filter `w̄`
/// in bit-reversed order, scaled by `1/M` for the inverse transform that ends the convolution.
struct Bluestein {
    n: usize,
    inner: Radix2,
    chirp_re: Vec<f64>,
    chirp_im: Vec<f64>,
    filter_re: Vec<f64>,
    filter_im: Vec<f64>,
}

impl Bluestein {
    fn new(n: usize, inverse: bool) -> Bluestein {
        let m = (2 * n - 1).next_power_of_two();
        // e^(∓iπ·p/n) = e^(∓2πi·p/2n) with p = k² mod 2n.
        let roots = Roots::new(2 * n);
        let sign = if inverse { -1.0 } else { 1.0 };
        let (chirp_re, chirp_im): (Vec<f64>, Vec<f64>) = (0..n as u64)
            .map(|k| {
                let (c, s) = roots.at((k * k % (2 * n as u64)) as usize);
                (c, sign * s)
            })
            .unzip();
        let inner = Radix2::new(m);
        let (mut fr, mut fi) = (vec![0.0; m], vec![0.0; m]);
        for k in 0..n {
            fr[k] = chirp_re[k];
            fi[k] = -chirp_im[k];
            if k > 0 {
                fr[m - k] = chirp_re[k];
                fi[m - k] = -chirp_im[k];
            }
        }
        inner.dif(&mut fr, &mut fi, false);
        let scale = 1.0 / m as f64;
        fr.iter_mut().chain(fi.iter_mut()).for_each(|v| *v *= scale);
        Bluestein {
            n,
            inner,
            chirp_re,
            chirp_im,
            filter_re: fr,
            filter_im: fi,
        }
    }

    /// Transforms the first `n` points of `re`, `im` (length `M`, the rest scratch).
    fn run(&self, re: &mut [f64], im: &mut [f64]) {
        let n = self.n;
        let chirp = |re: &mut [f64], im: &mut [f64]| {
            for k in 0..n {
                let (a, b, c, s) = (re[k], im[k], self.chirp_re[k], self.chirp_im[k]);
                re[k] = a * c - b * s;
                im[k] = a * s + b * c;
            }
        };
        chirp(re, im);
        re[n..].fill(0.0);
        im[n..].fill(0.0);
        self.inner.dif(re, im, false);
        let filter = self.filter_re.iter().zip(&self.filter_im);
        for ((a, b), (c, d)) in re.iter_mut().zip(im.iter_mut()).zip(filter) {
            (*a, *b) = (*a * c - *b * d, *a * d + *b * c);
        }
        self.inner.dit(re, im, true);
        chirp(re, im);
    }
}

/// Bluestein's tables for length `n` (used by the WebGPU FFT): the power-of-two length `M`,
/// the chirp `w[k]` (`k < n`) and the filter's transform scaled by `1/M` (`k < M`, natural
/// order), as (real, imaginary) parts.
pub fn bluestein_tables(n: usize, inverse: bool) -> (usize, [Vec<f64>; 4]) {
    let b = Bluestein::new(n, inverse);
    let natural = |v: &[f64]| -> Vec<f64> { b.inner.rev.iter().map(|&r| v[r as usize]).collect() };
    let (fr, fi) = (natural(&b.filter_re), natural(&b.filter_im));
    (b.inner.n, [b.chirp_re, b.chirp_im, fr, fi])
}

/// A transform of rows of length `n`.
enum Plan {
    Radix2(Radix2, bool),
    Bluestein(Bluestein),
}

impl Plan {
    fn new(n: usize, inverse: bool) -> Plan {
        if n.is_power_of_two() {
            Plan::Radix2(Radix2::new(n), inverse)
        } else {
            Plan::Bluestein(Bluestein::new(n, inverse))
        }
    }

    /// The length of the work rows.
    fn work(&self) -> usize {
        match self {
            Plan::Radix2(r, _) => r.n,
            Plan::Bluestein(b) => b.inner.n,
        }
    }

    /// Transforms row `(re, im)` (bytes of `dtype`) into the work rows; the result is their
    /// first `n` points.
    fn run(&self, dtype: DType, (re, im): (&[u8], &[u8]), wr: &mut [f64], wi: &mut [f64]) {
        match self {
            Plan::Radix2(r, inverse) => {
                load(dtype, re, wr, Some(&r.rev));
                load(dtype, im, wi, Some(&r.rev));
                r.dit(wr, wi, *inverse);
            }
            Plan::Bluestein(b) => {
                load(dtype, re, &mut wr[..b.n], None);
                load(dtype, im, &mut wi[..b.n], None);
                b.run(wr, wi);
            }
        }
    }
}

/// Element `i` of a float32 or float64 buffer.
#[inline(always)]
fn element(dtype: DType, bytes: &[u8], i: usize) -> f64 {
    match dtype {
        DType::Float64 => f64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes")),
        _ => f32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes")) as f64,
    }
}

/// `out[i] = x[order[i]]` (or `x[i]` without an order) for the elements `x` of `bytes`.
fn load(dtype: DType, bytes: &[u8], out: &mut [f64], order: Option<&[u32]>) {
    match order {
        Some(order) => {
            for (o, &j) in out.iter_mut().zip(order) {
                *o = element(dtype, bytes, j as usize);
            }
        }
        None => {
            for (i, o) in out.iter_mut().enumerate() {
                *o = element(dtype, bytes, i);
            }
        }
    }
}

fn store(dtype: DType, values: &[f64], bytes: &mut [u8]) {
    match dtype {
        DType::Float64 => {
            for (v, c) in values.iter().zip(bytes.chunks_exact_mut(8)) {
                c.copy_from_slice(&v.to_le_bytes());
            }
        }
        _ => {
            for (v, c) in values.iter().zip(bytes.chunks_exact_mut(4)) {
                c.copy_from_slice(&(*v as f32).to_le_bytes());
            }
        }
    }
}

/// Transforms the rows of length `n` of `(re, im)` (float32 or float64 bytes) into
/// `(out_re, out_im)`.
pub fn transform(
    dtype: DType,
    n: usize,
    inverse: bool,
    (re, im): (&[u8], &[u8]),
    (out_re, out_im): (&mut [u8], &mut [u8]),
) {
    if n == 0 {
        return;
    }
    let plan = Plan::new(n, inverse);
    let (mut wr, mut wi) = (vec![0.0; plan.work()], vec![0.0; plan.work()]);
    let row = n * dtype.byte_size();
    let rows = re.chunks_exact(row).zip(im.chunks_exact(row));
    let outs = out_re
        .chunks_exact_mut(row)
        .zip(out_im.chunks_exact_mut(row));
    for ((r, i), (or, oi)) in rows.zip(outs) {
        plan.run(dtype, (r, i), &mut wr, &mut wi);
        store(dtype, &wr[..n], or);
        store(dtype, &wi[..n], oi);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dense DFT in f64, for comparison.
    fn dft(re: &[f64], im: &[f64], inverse: bool) -> (Vec<f64>, Vec<f64>) {
        let n = re.len();
        let sign = if inverse { 1.0 } else { -1.0 };
        (0..n)
            .map(|k| {
                let mut acc = (0.0, 0.0);
                for t in 0..n {
                    let a = sign * 2.0 * std::f64::consts::PI * ((k * t) % n) as f64 / n as f64;
                    acc.0 += re[t] * a.cos() - im[t] * a.sin();
                    acc.1 += re[t] * a.sin() + im[t] * a.cos();
                }
                acc
            })
            .unzip()
    }

    #[test]
    fn every_length_matches_the_dense_transform() {
        for n in (1..70).chain([96, 128, 1000, 1024, 4097]) {
            for inverse in [false, true] {
                let re: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
                let im: Vec<f64> = (0..n).map(|i| (i as f64 * 0.11).cos() - 0.5).collect();
                let (want_re, want_im) = dft(&re, &im, inverse);
                let plan = Plan::new(n, inverse);
                let (mut wr, mut wi) = (vec![0.0; plan.work()], vec![0.0; plan.work()]);
                let bytes =
                    |v: &[f64]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
                plan.run(DType::Float64, (&bytes(&re), &bytes(&im)), &mut wr, &mut wi);
                let scale: f64 = re.iter().chain(&im).map(|v| v.abs()).sum();
                for k in 0..n {
                    let err = (wr[k] - want_re[k]).abs().max((wi[k] - want_im[k]).abs());
                    assert!(err <= 1e-12 * scale, "n {n} inverse {inverse} [{k}]: {err}");
                }
            }
        }
    }
}
