//! asin and atan of float32 lanes (the vector bodies of `vmath`'s routines): each f32x4 widens
//! into two f64x2 halves that run the scalar float32 routines' algorithms (`math_inv`: the
//! same reductions and float32-accuracy polynomials, error below 2⁻⁴²) branch-free, and
//! rounds once, so results stay within an ulp of the correctly rounded value.
//!
//! - atan: |x| is reduced to |t| < 7/16 around b = 0, 1/2, 1, 3/2 or ∞ by one division per
//!   lane, t = (|x| − b)/(1 + b·|x|) (t = −1/|x| beyond 39/16), its numerator, denominator
//!   and atan(b) selected per lane; then atan(b) + t + t·z·Q(z) (z = t²) with x's sign. NaN
//!   lanes fall to the last interval, where −1/NaN stays NaN; ±∞ gives ±π/2.
//! - asin: z = x² below |x| = 1/2, else z = (1 − |x|)/2 and s = √z; one polynomial R(z) for
//!   both, then |x| + |x|·z·R(z) or π/2 − 2·(s + s·z·R(z)), with x's sign. |x| > 1 and NaN
//!   give a negative or NaN z, whose square root is NaN.

use walrus::ir::BinaryOp as B;

use super::math_consts::{ASIN_R32, ATAN_3HALF_HI, ATAN_HALF_HI, ATAN_Q32, PIO2_HI, PIO4_HI};
use super::vmath::{k, kb, pick, Body, D};

/// x's sign bit on the non-negative f64x2 `v`.
pub(super) fn with_sign_of(v: D, x: D) -> D {
    let sign = x.0.v2(B::V128And, k(-0.0).0);
    D(v.0.v2(B::V128Or, sign))
}

impl Body<'_> {
    pub(super) fn abs64(&mut self, x: &D) -> D {
        let mask = k(f64::from_bits(i64::MAX as u64)).0;
        self.bind(D(x.0.clone().v2(B::V128And, mask)))
    }

    /// atan(x) per f64x2 half (float32 accuracy).
    pub fn atan64(&mut self, x: D) -> D {
        let ax = self.abs64(&x);
        let below = |b: f64| ax.clone().0.v2(B::F64x2Lt, k(b).0);
        // The intervals from the top down: each `pick` overrides the lanes below its bound.
        let (mut num, mut den, mut hi) = (k(-1.0), ax.clone(), kb(PIO2_HI));
        let steps: [(f64, D, D, u64); 4] = [
            (
                2.4375,
                ax.clone() - k(1.5),
                k(1.0) + k(1.5) * ax.clone(),
                ATAN_3HALF_HI,
            ),
            (1.1875, ax.clone() - k(1.0), ax.clone() + k(1.0), PIO4_HI),
            (
                0.6875,
                k(2.0) * ax.clone() - k(1.0),
                k(2.0) + ax.clone(),
                ATAN_HALF_HI,
            ),
            (0.4375, ax.clone(), k(1.0), 0),
        ];
        for (bound, n, d, h) in steps {
            let mask = self.bind_e(below(bound));
            num = self.bind(pick(n, num, mask.clone()));
            den = self.bind(pick(d, den, mask.clone()));
            hi = self.bind(pick(kb(h), hi, mask));
        }
        let t = self.bind(num / den);
        let z = self.bind(t.clone() * t.clone());
        let poly = self.horner(&ATAN_Q32, z.clone());
        let value = hi + (t.clone() * (z * poly) + t);
        with_sign_of(value, x)
    }

    /// asin(x) per f64x2 half (float32 accuracy).
    pub fn asin64(&mut self, x: D) -> D {
        let ax = self.abs64(&x);
        let small = self.bind_e(ax.clone().0.v2(B::F64x2Lt, k(0.5).0));
        let z_large = (k(1.0) - ax.clone()) * k(0.5);
        let z = self.bind(pick(ax.clone() * ax.clone(), z_large, small.clone()));
        let s = self.bind(D(z.clone().0.v1(walrus::ir::UnaryOp::F64x2Sqrt)));
        let poly = self.horner(&ASIN_R32, z.clone());
        let r = self.bind(z * poly);
        let near = ax.clone() + ax * r.clone();
        let far = kb(PIO2_HI) - k(2.0) * (s.clone() + s * r);
        with_sign_of(pick(near, far, small), x)
    }
}
