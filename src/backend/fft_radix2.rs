//! Power-of-two transforms in f64 for `fft.rs`: iterative radix-2 decimation in time (input in
//! bit-reversed order, output in natural order) and in frequency (the reverse), on separate
//! real and imaginary arrays. Two stages at a time where they fit (radix-4 passes that do the
//! two radix-2 stages' operations in registers), and cache-blocked: stages whose butterflies
//! span at most [`L1_BLOCK`] (then [`L2_BLOCK`]) points run block by block, the wider ones
//! over the whole row. The twiddles of the stage of half-span `h`, `e^(-2πi·j/2h)` for `j < h`
//! (conjugated for the inverse sign), are contiguous at offset `h − 1` of one table.

/// Butterflies spanning at most this many points run a block at a time (two f64 arrays of
/// this length fit a 32 KB L1 cache)...
const L1_BLOCK: usize = 1 << 11;
/// ...then at most this many (512 KB of L2).
const L2_BLOCK: usize = 1 << 14;

pub struct Radix2 {
    pub n: usize,
    /// The bit-reversal permutation (an involution).
    pub rev: Vec<u32>,
    /// Stage by stage: `e^(-2πi·j/2h)` at `h − 1 + j`.
    tw_re: Vec<f64>,
    tw_im: Vec<f64>,
}

/// One butterfly's complex product `(a, b)·(c, d)`.
#[inline(always)]
fn mul(a: f64, b: f64, c: f64, d: f64) -> (f64, f64) {
    (a * c - b * d, a * d + b * c)
}

/// Runs `stage(lo, hi, h)` on every chunk of `span` points for the half-spans `h` from `from`
/// (growing, `grow`) or down to `from` (shrinking), within `span`, two at a time where both fit.
fn schedule(
    n: usize,
    span: usize,
    from: usize,
    grow: bool,
    mut step: impl FnMut(usize, usize, bool),
) {
    let span = span.min(n);
    for start in (0..n).step_by(span) {
        if grow {
            let mut h = from;
            while 2 * h <= span {
                let pair = 4 * h <= span;
                step(start, h, pair);
                h *= if pair { 4 } else { 2 };
            }
        } else {
            let mut h = span / 2;
            while h >= from && h > 0 {
                let pair = h / 2 >= from && h >= 2;
                step(start, h, pair);
                h /= if pair { 4 } else { 2 };
            }
        }
    }
}

/// Runs `f` on the two halves (of `s` points) of each chunk of `2s` points of `re` and `im`.
fn halves(
    re: &mut [f64],
    im: &mut [f64],
    s: usize,
    mut f: impl FnMut([&mut [f64]; 2], [&mut [f64]; 2]),
) {
    for (r, i) in re.chunks_exact_mut(2 * s).zip(im.chunks_exact_mut(2 * s)) {
        let ((r0, r1), (i0, i1)) = (r.split_at_mut(s), i.split_at_mut(s));
        f([r0, r1], [i0, i1]);
    }
}

/// Runs `f` on the four quarters (of `s` points) of each chunk of `4s` points of `re` and `im`.
fn quarters(
    re: &mut [f64],
    im: &mut [f64],
    s: usize,
    mut f: impl FnMut([&mut [f64]; 4], [&mut [f64]; 4]),
) {
    fn split(x: &mut [f64], s: usize) -> [&mut [f64]; 4] {
        let (a, b) = x.split_at_mut(2 * s);
        let ((x0, x1), (x2, x3)) = (a.split_at_mut(s), b.split_at_mut(s));
        [x0, x1, x2, x3]
    }
    for (r, i) in re.chunks_exact_mut(4 * s).zip(im.chunks_exact_mut(4 * s)) {
        f(split(r, s), split(i, s));
    }
}

impl Radix2 {
    pub fn new(n: usize) -> Radix2 {
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
        let (re, im) = super::fft::roots(n, n / 2);
        let (mut tw_re, mut tw_im) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut h = 1;
        while h < n {
            let stride = n / (2 * h);
            tw_re.extend((0..h).map(|j| re[j * stride]));
            tw_im.extend((0..h).map(|j| im[j * stride]));
            h *= 2;
        }
        Radix2 {
            n,
            rev,
            tw_re,
            tw_im,
        }
    }

    /// The twiddles of the stage of half-span `h`, as (real, imaginary) slices of length `h`.
    fn stage(&self, h: usize) -> (&[f64], &[f64]) {
        (&self.tw_re[h - 1..2 * h - 1], &self.tw_im[h - 1..2 * h - 1])
    }

    /// Decimation in time: `re`, `im` in bit-reversed order → the transform, in natural order.
    pub fn dit(&self, re: &mut [f64], im: &mut [f64], inverse: bool) {
        self.stages(re, im, inverse, true);
    }

    /// Decimation in frequency: `re`, `im` in natural order → the transform, bit-reversed.
    pub fn dif(&self, re: &mut [f64], im: &mut [f64], inverse: bool) {
        self.stages(re, im, inverse, false);
    }

    /// Every stage of [`Self::dit`] (`dit`: half-spans growing, the stages within each L1
    /// block, then each L2 block, then the whole array) or [`Self::dif`] (the same in reverse).
    fn stages(&self, re: &mut [f64], im: &mut [f64], inverse: bool, dit: bool) {
        let n = self.n;
        let sign = if inverse { -1.0 } else { 1.0 };
        let mut levels = [(L1_BLOCK, 1), (L2_BLOCK, L1_BLOCK), (n, L2_BLOCK)];
        if !dit {
            levels.reverse();
        }
        for (block, from) in levels {
            let span = block.min(n);
            schedule(n, block, from, dit, |start, h, pair| {
                let (r, i) = (&mut re[start..start + span], &mut im[start..start + span]);
                match (dit, pair) {
                    (true, true) => self.dit4(r, i, h, sign),
                    (true, false) => self.dit2(r, i, h, sign),
                    (false, true) => self.dif4(r, i, h, sign),
                    (false, false) => self.dif2(r, i, h, sign),
                }
            });
        }
    }

    /// One DIT stage of half-span `h` over whole chunks of `2h`.
    fn dit2(&self, re: &mut [f64], im: &mut [f64], h: usize, sign: f64) {
        let (twr, twi) = self.stage(h);
        halves(re, im, h, |[r0, r1], [i0, i1]| {
            for j in 0..h {
                let (wr, wi) = (twr[j], sign * twi[j]);
                let (tr, ti) = mul(r1[j], i1[j], wr, wi);
                let (ar, ai) = (r0[j], i0[j]);
                (r0[j], i0[j], r1[j], i1[j]) = (ar + tr, ai + ti, ar - tr, ai - ti);
            }
        });
    }

    /// The DIT stages of half-spans `h` then `2h` over whole chunks of `4h`, in registers.
    fn dit4(&self, re: &mut [f64], im: &mut [f64], h: usize, sign: f64) {
        let ((t1r, t1i), (t2r, t2i)) = (self.stage(h), self.stage(2 * h));
        quarters(re, im, h, |[r0, r1, r2, r3], [i0, i1, i2, i3]| {
            for j in 0..h {
                let (w1r, w1i) = (t1r[j], sign * t1i[j]);
                let (u1r, u1i) = mul(r1[j], i1[j], w1r, w1i);
                let (b0r, b0i, b1r, b1i) = (r0[j] + u1r, i0[j] + u1i, r0[j] - u1r, i0[j] - u1i);
                let (u3r, u3i) = mul(r3[j], i3[j], w1r, w1i);
                let (b2r, b2i, b3r, b3i) = (r2[j] + u3r, i2[j] + u3i, r2[j] - u3r, i2[j] - u3i);
                let (war, wai) = (t2r[j], sign * t2i[j]);
                let (wbr, wbi) = (t2r[j + h], sign * t2i[j + h]);
                let (u2r, u2i) = mul(b2r, b2i, war, wai);
                let (u4r, u4i) = mul(b3r, b3i, wbr, wbi);
                (r0[j], i0[j], r2[j], i2[j]) = (b0r + u2r, b0i + u2i, b0r - u2r, b0i - u2i);
                (r1[j], i1[j], r3[j], i3[j]) = (b1r + u4r, b1i + u4i, b1r - u4r, b1i - u4i);
            }
        });
    }

    /// One DIF stage of half-span `h` over whole chunks of `2h`.
    fn dif2(&self, re: &mut [f64], im: &mut [f64], h: usize, sign: f64) {
        let (twr, twi) = self.stage(h);
        halves(re, im, h, |[r0, r1], [i0, i1]| {
            for j in 0..h {
                let (wr, wi) = (twr[j], sign * twi[j]);
                let (ar, ai, br, bi) = (r0[j], i0[j], r1[j], i1[j]);
                let (dr, di) = mul(ar - br, ai - bi, wr, wi);
                (r0[j], i0[j], r1[j], i1[j]) = (ar + br, ai + bi, dr, di);
            }
        });
    }

    /// The DIF stages of half-spans `h` then `h/2` over whole chunks of `2h`, in registers.
    fn dif4(&self, re: &mut [f64], im: &mut [f64], h: usize, sign: f64) {
        let q = h / 2;
        let ((t1r, t1i), (t2r, t2i)) = (self.stage(h), self.stage(q));
        quarters(re, im, q, |[r0, r1, r2, r3], [i0, i1, i2, i3]| {
            for j in 0..q {
                let (war, wai) = (t1r[j], sign * t1i[j]);
                let (wbr, wbi) = (t1r[j + q], sign * t1i[j + q]);
                let (b0r, b0i) = (r0[j] + r2[j], i0[j] + i2[j]);
                let (b2r, b2i) = mul(r0[j] - r2[j], i0[j] - i2[j], war, wai);
                let (b1r, b1i) = (r1[j] + r3[j], i1[j] + i3[j]);
                let (b3r, b3i) = mul(r1[j] - r3[j], i1[j] - i3[j], wbr, wbi);
                let (wr, wi) = (t2r[j], sign * t2i[j]);
                let (c1r, c1i) = mul(b0r - b1r, b0i - b1i, wr, wi);
                let (c3r, c3i) = mul(b2r - b3r, b2i - b3i, wr, wi);
                (r0[j], i0[j], r1[j], i1[j]) = (b0r + b1r, b0i + b1i, c1r, c1i);
                (r2[j], i2[j], r3[j], i3[j]) = (b2r + b3r, b2i + b3i, c3r, c3i);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decimation in time and in frequency agree at every blocking level (L1, L2, global).
    #[test]
    fn dit_and_dif_agree_at_every_size() {
        for bits in [1, 2, 5, 11, 12, 14, 15, 17] {
            let n = 1 << bits;
            let r = Radix2::new(n);
            for inverse in [false, true] {
                let re: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
                let im: Vec<f64> = (0..n).map(|i| (i as f64 * 0.11).cos()).collect();
                let (mut ar, mut ai) = (re.clone(), im.clone());
                r.dif(&mut ar, &mut ai, inverse);
                let mut br: Vec<f64> = r.rev.iter().map(|&j| re[j as usize]).collect();
                let mut bi: Vec<f64> = r.rev.iter().map(|&j| im[j as usize]).collect();
                r.dit(&mut br, &mut bi, inverse);
                let scale = (n as f64).sqrt();
                for k in 0..n {
                    let j = r.rev[k] as usize;
                    let err = (ar[k] - br[j]).abs().max((ai[k] - bi[j]).abs());
                    assert!(err < 1e-12 * scale * n as f64, "n {n} [{k}]: {err}");
                }
            }
        }
    }
}
