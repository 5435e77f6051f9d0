//! exp, log, tanh, sin and cos on f32x4 vectors in float32 arithmetic (the bodies of `vmath`'s
//! routines), branch-free, within 1 ulp of the correctly rounded result (89–99% of results
//! equal it; tested against the float64 oracle in `tests/integration/wasm_kernels/vmath.rs`).
//!
//! - exp: k = round(x·log₂e), r = x − k·C₁ − k·C₂ (ln 2 in two parts, k·C₁ exact), exp(r) =
//!   1 + r + r²·P(r) (Cephes' degree-5 fit on |r| ≤ ln2/2), scaled by 2^⌊k/2⌋·2^(k−⌊k/2⌋) so
//!   that subnormal results round once. x is clamped to [−104, 89] first (NaN stays NaN):
//!   beyond, the result rounds to 0 or overflows to ∞ anyway.
//! - log: x = m·2^e with m in [√½, √2) (subnormals scaled by 2²³ first), f = m − 1 exact,
//!   log x = f − f²/2 + f³·P(f) + e·C₂ + e·C₁ (Cephes' degree-8 fit, ln 2 in two parts, e·C₁
//!   exact), summed small terms first; 0 gives −∞, ∞ gives ∞, negative and NaN lanes NaN.
//! - tanh: x + x·z·T(z) (z = x², Cephes' fit) below 0.625, else ±(1 − 2/(exp(2|x|) + 1)),
//!   selected per lane; |2x| is clamped to 44, where the result is ±1 in f32.
//! - sin, cos: n = round(x·2/π) in f32, y = x − n·π/2 in f64 with π/2 in three parts (exact
//!   products for |n| < 2²⁰, so y is accurate to far below an f32 ulp, even near multiples of
//!   π/2), rounded to f32; then Cephes' sinf/cosf polynomials on |y| ≤ π/4 (slightly beyond
//!   when the f32 rounding of x·2/π ties the other way: the fits stay accurate there) and
//!   the quadrant's swap and sign. `vmath::routine` sends |x| ≥ 2²⁰·π/2 to the scalar routine.
//! - Tiny arguments (|x| < 2⁻²⁰, signed zeros included) of sin and tanh return x.

use walrus::ir::{BinaryOp as B, UnaryOp as U};

use super::dsl::{i32c, E};
use super::math_consts::{PIO2_1, PIO2_2, PIO2_3};
use super::simd_ops::{lanes_const, LOW_HALVES};
use super::vmath::{halves, kb, Body, D};

/// An f32x4 value, with arithmetic operators.
#[derive(Clone)]
pub(super) struct F(pub E);

macro_rules! fop {
    ($trait:ident, $method:ident, $op:expr) => {
        impl std::ops::$trait for F {
            type Output = F;
            fn $method(self, o: F) -> F {
                F(self.0.v2($op, o.0))
            }
        }
    };
}
fop!(Add, add, B::F32x4Add);
fop!(Sub, sub, B::F32x4Sub);
fop!(Mul, mul, B::F32x4Mul);
fop!(Div, div, B::F32x4Div);

/// An f32x4 constant.
fn c(v: f32) -> F {
    F(lanes_const([v.to_bits(); 4]))
}

/// An i32x4 constant.
fn ci(v: i32) -> E {
    lanes_const([v as u32; 4])
}

/// `a` where `mask` is set, else `b`.
fn pick(a: F, b: F, mask: E) -> F {
    F(E::Bitselect(Box::new(a.0), Box::new(b.0), Box::new(mask)))
}

/// 2^k for i32x4 lanes k in −126..=127.
fn pow2(k: E) -> F {
    F(k.v2(B::I32x4Add, ci(127)).v2(B::I32x4Shl, i32c(23)))
}

const TINY32: f32 = 9.536_743e-7; // 2⁻²⁰

/// Horner's rule, coefficients highest degree first.
fn horner(coeffs: &[f32], x: &F) -> F {
    let mut acc = c(coeffs[0]);
    for &k in &coeffs[1..] {
        acc = acc * x.clone() + c(k);
    }
    acc
}

impl Body<'_> {
    fn bind32(&mut self, x: F) -> F {
        F(self.bind_e(x.0))
    }

    pub fn exp32(&mut self, x: F) -> F {
        let xc = self.bind32(F(x.0.v2(B::F32x4PMin, c(89.0).0)));
        let xc = self.bind32(F(xc.0.v2(B::F32x4PMax, c(-104.0).0)));
        let kf = self.bind32(F((xc.clone() * c(std::f32::consts::LOG2_E))
            .0
            .v1(U::F32x4Nearest)));
        let r = self.bind32(xc - kf.clone() * c(0.693_359_4));
        let r = self.bind32(r - kf.clone() * c(-2.121_944_4e-4));
        let z = r.clone() * r.clone();
        let p = horner(
            &[
                1.987_569_1e-4,
                1.398_199_9e-3,
                8.333_452e-3,
                4.166_579_6e-2,
                1.666_666_5e-1,
                5e-1, // Cephes' 5.0000001201e-1 rounds to 0.5 in f32
            ],
            &r,
        );
        let y = self.bind32(p * z + r + c(1.0));
        let k = self.bind_e(kf.0.v1(U::I32x4TruncSatF32x4S));
        let half = self.bind_e(k.clone().v2(B::I32x4ShrS, i32c(1)));
        let rest = k.v2(B::I32x4Sub, half.clone());
        y * pow2(half) * pow2(rest)
    }

    pub fn log32(&mut self, x: F) -> F {
        // Subnormal lanes are scaled by 2²³ (their exponent corrected below); zero, negative
        // and NaN lanes take their special results at the end.
        let sub = self.bind_e(x.0.clone().v2(B::F32x4Lt, c(f32::MIN_POSITIVE).0));
        let xs = pick(x.clone() * c(8_388_608.0), x.clone(), sub.clone());
        let bits = self.bind_e(xs.0);
        // x = m·2^e with m in [0.5, 1); below √½ the lane takes 2m − 1 and e − 1 instead.
        let m = self.bind32(F(bits
            .clone()
            .v2(B::V128And, ci(0x007f_ffff))
            .v2(B::V128Or, ci(0x3f00_0000))));
        let low = self.bind_e(
            m.0.clone()
                .v2(B::F32x4Lt, c(std::f32::consts::FRAC_1_SQRT_2).0),
        );
        let e = bits
            .v2(B::I32x4ShrU, i32c(23))
            .v2(B::I32x4Sub, ci(126))
            .v2(B::I32x4Sub, sub.v2(B::V128And, ci(23)))
            .v2(B::I32x4Add, low.clone());
        let ef = self.bind32(F(e.v1(U::F32x4ConvertI32x4S)));
        let f = self.bind32(m.clone() - c(1.0) + F(m.0.v2(B::V128And, low)));
        let z = self.bind32(f.clone() * f.clone());
        let p = horner(
            &[
                7.037_683_6e-2,
                -1.151_461e-1,
                1.167_699_9e-1,
                -1.242_014_1e-1,
                1.424_932_3e-1,
                -1.666_805_8e-1,
                2.000_071_4e-1,
                -2.499_999_4e-1,
                3.333_333e-1,
            ],
            &f,
        );
        let y = f.clone() * (z.clone() * p) + ef.clone() * c(-2.121_944_4e-4) - c(0.5) * z;
        let value = (f + y) + ef * c(0.693_359_4);
        let finite =
            x.0.clone()
                .v2(B::F32x4Gt, c(0.0).0)
                .v2(B::V128And, x.0.clone().v2(B::F32x4Lt, c(f32::INFINITY).0));
        let special = pick(
            c(f32::NEG_INFINITY),
            pick(
                c(f32::INFINITY),
                c(f32::NAN),
                x.0.clone().v2(B::F32x4Eq, c(f32::INFINITY).0),
            ),
            x.0.v2(B::F32x4Eq, c(0.0).0),
        );
        pick(value, special, finite)
    }

    pub fn tanh32(&mut self, x: F) -> F {
        let ax = self.bind32(F(x.0.clone().v1(U::F32x4Abs)));
        let z = self.bind32(x.clone() * x.clone());
        let t = horner(
            &[
                -5.704_988_7e-3,
                2.063_909e-2,
                -5.373_971_6e-2,
                1.333_144_2e-1,
                -3.333_328e-1,
            ],
            &z,
        );
        let small = x.clone() + x.clone() * z * t;
        let e = self.exp32(c(2.0) * F(ax.0.clone().v2(B::F32x4PMin, c(22.0).0)));
        let e = self.bind32(e);
        let large = (c(1.0) - c(2.0) / (e + c(1.0)))
            .0
            .v2(B::V128Or, x.0.clone().v2(B::V128And, ci(i32::MIN)));
        let value = pick(small, F(large), ax.0.clone().v2(B::F32x4Lt, c(0.625).0));
        pick(x, value, ax.0.v2(B::F32x4Lt, c(TINY32).0))
    }

    pub fn sin_cos32(&mut self, x: F, cos: bool) -> F {
        let nf = self.bind32(F((x.clone() * c(std::f32::consts::FRAC_2_PI))
            .0
            .v1(U::F32x4Nearest)));
        // y = x − n·π/2 in f64, per half.
        let mut ys = vec![];
        for (xh, nh) in halves(x.0.clone()).into_iter().zip(halves(nf.0.clone())) {
            let n = self.bind(D(nh));
            let y = D(xh) - n.clone() * kb(PIO2_1);
            let y = self.bind(y);
            let y = self.bind(y - n.clone() * kb(PIO2_2));
            let y = y - n * kb(PIO2_3);
            ys.push(y.0.v1(U::F32x4DemoteF64x2Zero));
        }
        let [lo, hi]: [E; 2] = ys.try_into().unwrap_or_else(|_| unreachable!());
        let y = self.bind32(F(E::Shuffle(LOW_HALVES, Box::new(lo), Box::new(hi))));
        let z = self.bind32(y.clone() * y.clone());
        let ps = horner(&[-1.951_529_6e-4, 8.332_161e-3, -1.666_665_5e-1], &z);
        let sin = y.clone() * z.clone() * ps + y;
        let pc = horner(&[2.443_315_7e-5, -1.388_731_6e-3, 4.166_664_6e-2], &z);
        let cos_v = z.clone() * z.clone() * pc - c(0.5) * z + c(1.0);
        let mut q = nf.0.v1(U::I32x4TruncSatF32x4S);
        if cos {
            q = q.v2(B::I32x4Add, ci(1));
        }
        let q = self.bind_e(q);
        let odd = q.clone().v2(B::V128And, ci(1)).v2(B::I32x4Ne, ci(0));
        let value = pick(cos_v, sin, odd);
        // Quadrants 2 and 3 negate: bit 1 of q moved to the sign bit.
        let sign = q.v2(B::V128And, ci(2)).v2(B::I32x4Shl, i32c(30));
        let value = F(value.0.v2(B::V128Xor, sign));
        if cos {
            return value;
        }
        let tiny = x.0.clone().v1(U::F32x4Abs).v2(B::F32x4Lt, c(TINY32).0);
        pick(x, value, tiny)
    }
}
