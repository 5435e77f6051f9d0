//! The FFT routine (`kernel::RoutineKind::Fft`) as the `cpu` and `wasm` devices compute it: in
//! f64 whatever the dtype (each result rounded once), O(n log n) for every length.
//!
//! - A power of two: iterative radix-2 decimation in time. The input is permuted into
//!   bit-reversed order; the stages whose butterflies span at most [`BLOCK`] points run block
//!   by block (in cache), the rest over the whole row. Twiddles `e^(∓2πi·k/n)` come from two
//!   tables of exact `sin`/`cos` (`k = hi·S + lo`), one product each.
//! - Any other length: Bluestein's chirp z-transform, `X[k] = w[k]·Σ_t (x[t]·w[t])·w̄[k−t]`
//!   with `w[k] = e^(∓iπ·k²/n)` (`k² mod 2n` computed exactly), the convolution done by
//!   power-of-two transforms of length `M ≥ 2n − 1`; the filter's transform is computed once
//!   per call and shared by the rows.

use crate::core::DType;

/// Butterflies spanning at most this many points run a block at a time.
const BLOCK: usize = 1 << 11;

/// A power-of-two transform: the bit-reversal permutation and the twiddles of the forward
/// transform (`e^(-2πi·k/n)`, `k < n/2`).
struct Radix2 {
    n: usize,
    rev: Vec<u32>,
    tw_re: Vec<f64>,
    tw_im: Vec<f64>,
}

/// `e^(-2πi·k/n)` for `k < count`, from exact tables of `S` coarse and `S` fine angles.
pub fn roots(n: usize, count: usize) -> (Vec<f64>, Vec<f64>) {
    let s = (count as f64).sqrt().ceil().max(1.0) as usize;
    let angle = |k: usize| -2.0 * std::f64::consts::PI * (k % n) as f64 / n as f64;
    let fine: Vec<(f64, f64)> = (0..s).map(|k| (angle(k).cos(), angle(k).sin())).collect();
    let coarse: Vec<(f64, f64)> = (0..count.div_ceil(s))
        .map(|h| (angle(h * s).cos(), angle(h * s).sin()))
        .collect();
    (0..count)
        .map(|k| {
            let ((a, b), (c, d)) = (coarse[k / s], fine[k % s]);
            (a * c - b * d, a * d + b * c)
        })
        .unzip()
}

impl Radix2 {
    fn new(n: usize) -> Radix2 {
        let bits = n.trailing_zeros();
        let rev = (0..n as u32)
            .map(|i| {
                if bits == 0 {
                    0
                } else {
                    i.reverse_bits() >> (32 - bits)
                }
            })
            .collect();
        let (tw_re, tw_im) = roots(n, n / 2);
        Radix2 {
            n,
            rev,
            tw_re,
            tw_im,
        }
    }

    /// Transforms `re`, `im` (length `n`) in place; `inverse` conjugates the twiddles.
    fn run(&self, re: &mut [f64], im: &mut [f64], inverse: bool) {
        let n = self.n;
        for i in 0..n {
            let j = self.rev[i] as usize;
            if i < j {
                re.swap(i, j);
                im.swap(i, j);
            }
        }
        let block = BLOCK.min(n);
        for start in (0..n).step_by(block) {
            let mut h = 1;
            while 2 * h <= block {
                self.stage(
                    &mut re[start..start + block],
                    &mut im[start..start + block],
                    h,
                    inverse,
                );
                h *= 2;
            }
        }
        let mut h = block;
        while h < n {
            self.stage(re, im, h, inverse);
            h *= 2;
        }
    }

    /// The butterflies of half-span `h` over `re`, `im` (a whole number of `2h` blocks).
    fn stage(&self, re: &mut [f64], im: &mut [f64], h: usize, inverse: bool) {
        let stride = self.n / (2 * h);
        let sign = if inverse { -1.0 } else { 1.0 };
        for (re, im) in re.chunks_exact_mut(2 * h).zip(im.chunks_exact_mut(2 * h)) {
            let (re0, re1) = re.split_at_mut(h);
            let (im0, im1) = im.split_at_mut(h);
            for j in 0..h {
                let (wr, wi) = (self.tw_re[j * stride], sign * self.tw_im[j * stride]);
                let (br, bi) = (re1[j], im1[j]);
                let (tr, ti) = (br * wr - bi * wi, br * wi + bi * wr);
                let (ar, ai) = (re0[j], im0[j]);
                re0[j] = ar + tr;
                im0[j] = ai + ti;
                re1[j] = ar - tr;
                im1[j] = ai - ti;
            }
        }
    }
}

/// Bluestein's algorithm for length `n`: the chirp `w` and the transform of the filter `w̄`
/// (scaled by `1/M` for the inverse transform that ends the convolution).
struct Bluestein {
    n: usize,
    inner: Radix2,
    chirp: Vec<(f64, f64)>,
    filter_re: Vec<f64>,
    filter_im: Vec<f64>,
}

impl Bluestein {
    fn new(n: usize, inverse: bool) -> Bluestein {
        let m = (2 * n - 1).next_power_of_two();
        let sign = if inverse { 1.0 } else { -1.0 };
        let chirp: Vec<(f64, f64)> = (0..n as u64)
            .map(|k| {
                let phase = (k * k % (2 * n as u64)) as f64;
                let a = sign * std::f64::consts::PI * phase / n as f64;
                (a.cos(), a.sin())
            })
            .collect();
        let inner = Radix2::new(m);
        let (mut fr, mut fi) = (vec![0.0; m], vec![0.0; m]);
        for (k, &(c, s)) in chirp.iter().enumerate() {
            fr[k] = c;
            fi[k] = -s;
            if k > 0 {
                fr[m - k] = c;
                fi[m - k] = -s;
            }
        }
        inner.run(&mut fr, &mut fi, false);
        let scale = 1.0 / m as f64;
        fr.iter_mut().chain(fi.iter_mut()).for_each(|v| *v *= scale);
        Bluestein {
            n,
            inner,
            chirp,
            filter_re: fr,
            filter_im: fi,
        }
    }

    /// Transforms the first `n` points of `re`, `im` (length `M`, the rest scratch).
    fn run(&self, re: &mut [f64], im: &mut [f64]) {
        let n = self.n;
        for (k, &(c, s)) in self.chirp.iter().enumerate() {
            let (a, b) = (re[k], im[k]);
            re[k] = a * c - b * s;
            im[k] = a * s + b * c;
        }
        re[n..].fill(0.0);
        im[n..].fill(0.0);
        self.inner.run(re, im, false);
        for k in 0..re.len() {
            let (a, b) = (re[k], im[k]);
            let (c, d) = (self.filter_re[k], self.filter_im[k]);
            re[k] = a * c - b * d;
            im[k] = a * d + b * c;
        }
        self.inner.run(re, im, true);
        for (k, &(c, s)) in self.chirp.iter().enumerate() {
            let (a, b) = (re[k], im[k]);
            re[k] = a * c - b * s;
            im[k] = a * s + b * c;
        }
    }
}

/// Bluestein's tables for length `n` (used by the WebGPU FFT): the power-of-two length `M`,
/// the chirp `w[k]` (`k < n`) and the filter's transform scaled by `1/M` (`k < M`), as
/// (real, imaginary) parts.
pub fn bluestein_tables(n: usize, inverse: bool) -> (usize, [Vec<f64>; 4]) {
    let b = Bluestein::new(n, inverse);
    let (cr, ci): (Vec<f64>, Vec<f64>) = b.chirp.iter().copied().unzip();
    (b.inner.n, [cr, ci, b.filter_re, b.filter_im])
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

    fn run(&self, re: &mut [f64], im: &mut [f64]) {
        match self {
            Plan::Radix2(r, inverse) => r.run(re, im, *inverse),
            Plan::Bluestein(b) => b.run(re, im),
        }
    }
}

fn load(dtype: DType, bytes: &[u8], out: &mut [f64]) {
    match dtype {
        DType::Float64 => {
            for (o, c) in out.iter_mut().zip(bytes.chunks_exact(8)) {
                *o = f64::from_le_bytes(c.try_into().expect("8 bytes"));
            }
        }
        _ => {
            for (o, c) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                *o = f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64;
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
        load(dtype, r, &mut wr[..n]);
        load(dtype, i, &mut wi[..n]);
        plan.run(&mut wr, &mut wi);
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
                wr[..n].copy_from_slice(&re);
                wi[..n].copy_from_slice(&im);
                plan.run(&mut wr, &mut wi);
                let scale: f64 = re.iter().chain(&im).map(|v| v.abs()).sum();
                for k in 0..n {
                    let err = (wr[k] - want_re[k]).abs().max((wi[k] - want_im[k]).abs());
                    assert!(err <= 1e-12 * scale, "n {n} inverse {inverse} [{k}]: {err}");
                }
            }
        }
    }
}
