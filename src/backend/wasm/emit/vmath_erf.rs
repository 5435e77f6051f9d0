//! erf and erfc of float32 lanes (the vector bodies of `vmath`'s routines): each f32x4 widens
//! into two f64x2 halves, computed with fits of float32 accuracy (relative errors below 2⁻³⁵,
//! `gen_math_consts.py`) and rounded once, so results stay within an ulp of the correctly
//! rounded value.
//!
//! - |x| < 0.84375: erf(x) = x + x·F(x²), erfc(x) = 1 − erf(x).
//! - Beyond, the tail erfc(a) for a = |x| clamped to [0.84375, 10.0625] (erfc rounds to 0 in
//!   float32 from there): exp(−a²)·t·H(t) with t = 1/(1 + 3a/8), one polynomial H over the
//!   whole tail. a² is exact in f64 (a has 24 significant bits), so exp(−a²) is computed from
//!   an exact argument: k = round(−a²/ln 2), r = −a² − k·ln 2 (ln 2 in two parts), 2^k·(1 + r
//!   + r²·P(r)). Then erf(x) = ±(1 − tail) and erfc(x) = tail, or 2 − tail for x < 0.
//!
//! Every half computes both formulas and selects per lane (branches on the lanes' masks
//! mispredict on mixed inputs and cost more than they save). NaN lanes fall to the tail,
//! whose clamp keeps the NaN; ±∞ give erf ±1, erfc 0 or 2.

use walrus::ir::BinaryOp as B;

use super::dsl::i32c;
use super::math_consts::{ERFC_TV, ERF_FV, EXP_PV, INV_LN2, LN2_HI, LN2_LO};
use super::vmath::{k, kb, ki, pick, Body, D, MAGIC};
use super::vmath_inv::with_sign_of;

/// Below this |x| the small-argument formula; from it the tail.
const SMALL: f64 = 0.84375;
/// erfc(x) rounds to 0 in float32 from here on; tail arguments are clamped to it.
const TAIL_MAX: f64 = 10.0625;
/// The tail's variable is t = 1/(1 + P·a).
const P: f64 = 0.375;

impl Body<'_> {
    /// exp(y) for f64x2 lanes y in [−102, −0.7] (float32 accuracy).
    fn exp_tail(&mut self, y: D) -> D {
        let v = self.bind(y.clone() * kb(INV_LN2) + k(MAGIC));
        let kf = self.bind(v.clone() - k(MAGIC));
        let r = self.bind((y - kf.clone() * kb(LN2_HI)) - kf * kb(LN2_LO));
        let poly = self.horner(&EXP_PV, r.clone());
        let near = k(1.0) + r.clone() + r.clone() * r * poly;
        // v's low bits hold k; (k + 1023) << 52 is 2^k (k + 1023 lies in 1..2047).
        let scale = v.0.v2(B::I64x2Add, ki(1023)).v2(B::I64x2Shl, i32c(52));
        near * D(scale)
    }

    /// erf(x), or erfc(x) with `complement`, per f64x2 half (float32 accuracy).
    pub fn erf64(&mut self, x: D, complement: bool) -> D {
        let ax = self.abs64(&x);
        let small = self.bind_e(ax.clone().0.v2(B::F64x2Lt, k(SMALL).0));
        let z = self.bind(x.clone() * x.clone());
        let poly = self.horner(&ERF_FV, z);
        let s = self.bind(x.clone() + x.clone() * poly);
        let lo = D(ax.0.v2(B::F64x2Max, k(SMALL).0));
        let a = self.bind(D(lo.0.v2(B::F64x2Min, k(TAIL_MAX).0)));
        let t = self.bind(k(1.0) / (k(1.0) + k(P) * a.clone()));
        let h = self.horner(&ERFC_TV, t.clone());
        let g = self.bind(t * h);
        let y = self.bind(k(0.0) - a.clone() * a);
        let exp = self.exp_tail(y);
        let e = self.bind(exp * g);
        if complement {
            let positive = x.0.v2(B::F64x2Gt, k(0.0).0);
            let tail = pick(e.clone(), k(2.0) - e, positive);
            pick(k(1.0) - s, tail, small)
        } else {
            pick(s, with_sign_of(k(1.0) - e, x), small)
        }
    }
}
