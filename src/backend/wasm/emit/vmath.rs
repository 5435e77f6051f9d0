//! float32 transcendentals on f32x4 vectors, for the SIMD lowering (`simd`): one wasm function
//! `v128 → v128` per operation, emitted once per module (memoised in `math::Lib`).
//!
//! Each function widens its four lanes into two f64x2 halves, runs the scalar float32
//! routine's algorithm (`math_exp`, `math_trig`, `math_erf`: same reductions, same
//! float32-accuracy polynomials with error below 2⁻⁴²) branch-free on both halves, and rounds
//! once to f32. Special cases become lane selects: exp clamps its argument to [−150, 100]
//! (beyond which the f32 result is 0 or ∞ anyway, and 2^k stays a normal f64); log selects
//! −∞ / ∞ / NaN for 0 / ∞ / negative or NaN lanes (f32 subnormals are normal f64s, so no
//! rescaling is needed); tanh computes both of its branches and selects. sin and cos reduce with
//! the scalar four-part Cody–Waite step, exact below 2²⁰·π/2; a lane beyond that (rare) is
//! recomputed by the scalar routine (Payne–Hanek), so results stay within an ulp of the
//! correctly rounded value everywhere, and almost always equal to the scalar code's.

use walrus::ir::{BinaryOp as B, UnaryOp as U};
use walrus::{FunctionId, Module, ValType};

use super::dsl::{function, i32c, when, Var, E, S};
use super::math::Lib;
use super::math_consts::{
    EXP_P32, INV_LN2, LN2_HI, LN2_LO, PIO2_1, PIO2_2, PIO2_3, PIO2_4, PIO4_HI, TANH_T32,
    TWO_OVER_PI_F64,
};
use super::math_trig::TINY;
use super::simd_ops::{lanes_const, HIGH_HALF, LOW_HALVES};
use crate::kernel::UnaryOp;

use ValType::V128;

/// Whether float32 `op` has a vector routine.
pub fn has_vector(op: UnaryOp) -> bool {
    matches!(
        op,
        UnaryOp::Exp | UnaryOp::Log | UnaryOp::Sin | UnaryOp::Cos | UnaryOp::Tanh
    )
}

/// Above this |x| (2²⁰·π/2), sin and cos lanes go to the scalar routine.
const TRIG_VECTOR_LIMIT: f32 = 1_647_099.0;

/// 1.5·2⁵²: adding it to an integral f64 below 2⁵¹ puts the integer in the low bits.
const MAGIC: f64 = 6_755_399_441_055_744.0;

/// An f64x2 value, with arithmetic operators.
#[derive(Clone)]
struct D(E);

macro_rules! dop {
    ($trait:ident, $method:ident, $op:expr) => {
        impl std::ops::$trait for D {
            type Output = D;
            fn $method(self, o: D) -> D {
                D(self.0.v2($op, o.0))
            }
        }
    };
}
dop!(Add, add, B::F64x2Add);
dop!(Sub, sub, B::F64x2Sub);
dop!(Mul, mul, B::F64x2Mul);
dop!(Div, div, B::F64x2Div);

/// An f64x2 constant.
fn k(v: f64) -> D {
    let b = u128::from(v.to_bits());
    D(E::V128(b | (b << 64)))
}

fn kb(bits: u64) -> D {
    k(f64::from_bits(bits))
}

/// An i64x2 constant.
fn ki(v: i64) -> E {
    let b = u128::from(v as u64);
    E::V128(b | (b << 64))
}

impl D {
    fn f(self, op: U) -> D {
        D(self.0.v1(op))
    }
    fn cmp(self, op: B, o: D) -> E {
        self.0.v2(op, o.0)
    }
}

/// `a` where `mask` is set, else `b`.
fn pick(a: D, b: D, mask: E) -> D {
    D(E::Bitselect(Box::new(a.0), Box::new(b.0), Box::new(mask)))
}

/// The statements of one routine body being built.
struct Body<'m> {
    m: &'m mut Module,
    stmts: Vec<S>,
}

impl Body<'_> {
    fn bind(&mut self, e: D) -> D {
        D(self.bind_e(e.0))
    }

    fn bind_e(&mut self, e: E) -> E {
        let v = Var::new(self.m, V128);
        self.stmts.push(v.set(e));
        v.get()
    }

    /// `p(x)` for coefficients highest degree first, as `math::horner` evaluates it (even and
    /// odd halves in x² for long polynomials).
    fn horner(&mut self, coeffs: &[u64], x: D) -> D {
        let plain = |cs: &[u64], x: &D| {
            let mut acc = kb(cs[0]);
            for &c in &cs[1..] {
                acc = acc * x.clone() + kb(c);
            }
            acc
        };
        if coeffs.len() <= 4 {
            return plain(coeffs, &x);
        }
        let degree = coeffs.len() - 1;
        let (mut even, mut odd) = (vec![], vec![]);
        for (i, &c) in coeffs.iter().enumerate() {
            if (degree - i).is_multiple_of(2) {
                even.push(c);
            } else {
                odd.push(c);
            }
        }
        let sq = self.bind(x.clone() * x.clone());
        plain(&even, &sq) + x * plain(&odd, &sq)
    }

    fn horner_f(&mut self, coeffs: &[f64], x: D) -> D {
        let bits: Vec<u64> = coeffs.iter().map(|v| v.to_bits()).collect();
        self.horner(&bits, x)
    }

    /// exp(x) as `math_exp::exp` (float32 polynomial), x clamped to [−150, 100].
    fn exp(&mut self, x: D) -> D {
        // pmin/pmax keep a NaN first operand.
        let xc = D(self.bind_e(x.cmp(B::F64x2PMin, k(100.0))));
        let xc = self.bind(D(xc.cmp(B::F64x2PMax, k(-150.0))));
        let kf = self.bind((xc.clone() * kb(INV_LN2)).f(U::F64x2Nearest));
        let hi = self.bind(xc - kf.clone() * kb(LN2_HI));
        let lo = self.bind(kf.clone() * kb(LN2_LO));
        let r = self.bind(hi.clone() - lo.clone());
        let poly = self.horner(&EXP_P32, r.clone());
        let p = self.bind(r.clone() * r.clone() * poly);
        let p = self.bind(r.clone() + (p + ((hi - r) - lo)));
        // 2^k: the integer k sits in the low bits of kf + 1.5·2⁵²; shifted into the exponent
        // field and biased (k + 1023 is in 1..=2046 here).
        let bits = (kf + k(MAGIC)).0.v2(B::I64x2Shl, i32c(52));
        let scale = D(bits.v2(B::I64x2Add, ki(1023 << 52)));
        (k(1.0) + p) * scale
    }

    /// log(x) as `math_exp::log` (float32 series).
    fn log(&mut self, x: D) -> D {
        let ix = self.bind_e(x.0.clone());
        let mant = self.bind_e(ix.clone().v2(B::V128And, ki((1 << 52) - 1)));
        // Lanes with 1 + f above √2 halve the significand and count one more power of two.
        let above = self.bind_e(mant.clone().v2(B::I64x2GtS, ki(0x6_a09e_667f_3bcd)));
        let fbits = mant
            .v2(B::V128Or, ki(1023 << 52))
            .v2(B::I64x2Add, above.clone().v2(B::I64x2Shl, i32c(52)));
        let f = self.bind(D(fbits) - k(1.0));
        let kint = ix
            .v2(B::I64x2ShrS, i32c(52))
            .v2(B::I64x2Sub, ki(1023))
            .v2(B::I64x2Sub, above);
        let kf = self.bind(D(kint.v2(B::I64x2Add, ki(MAGIC.to_bits() as i64))) - k(MAGIC));
        let s = self.bind(f.clone() / (k(2.0) + f.clone()));
        let z = self.bind(s.clone() * s.clone());
        let coeffs: Vec<f64> = (1..=7).rev().map(|j| 2.0 / (2 * j + 1) as f64).collect();
        let poly = self.horner_f(&coeffs, z.clone());
        let r = self.bind(z * poly);
        let hfsq = self.bind(k(0.5) * f.clone() * f.clone());
        let value =
            kf.clone() * kb(LN2_HI) - ((hfsq.clone() - (s * (hfsq + r) + kf * kb(LN2_LO))) - f);
        let finite = x
            .clone()
            .cmp(B::F64x2Gt, k(0.0))
            .v2(B::V128And, x.clone().cmp(B::F64x2Lt, k(f64::INFINITY)));
        let special = pick(
            k(f64::NEG_INFINITY),
            pick(
                k(f64::INFINITY),
                k(f64::NAN),
                x.clone().cmp(B::F64x2Eq, k(f64::INFINITY)),
            ),
            x.cmp(B::F64x2Eq, k(0.0)),
        );
        pick(value, special, finite)
    }

    /// tanh(x) as `math_erf::tanh`: both branches, selected per lane.
    fn tanh(&mut self, x: D) -> D {
        let ax = self.bind(x.clone().f(U::F64x2Abs));
        let z = self.bind(x.clone() * x.clone());
        let poly = self.horner(&TANH_T32, z.clone());
        let small = self.bind(x.clone() + x.clone() * (z * poly));
        // Beyond 22 the result is ±1 to within an f32 rounding; a NaN stays NaN.
        let e = self.exp(k(2.0) * D(ax.clone().cmp(B::F64x2PMin, k(22.0))));
        let large = (k(1.0) - k(2.0) / (e + k(1.0)))
            .0
            .v2(B::V128Or, x.0.clone().v2(B::V128And, ki(i64::MIN)));
        let value = pick(small, D(large), ax.clone().cmp(B::F64x2Lt, k(0.625)));
        // Tiny arguments (signed zeros included) are their own tanh.
        pick(x, value, ax.cmp(B::F64x2Lt, k(TINY)))
    }

    /// sin or cos as `math_trig::sin_cos`, for |x| below 2²⁰·π/2.
    fn sin_cos(&mut self, x: D, cos: bool) -> D {
        let x0 = x.clone();
        let small = self.bind_e(x.clone().f(U::F64x2Abs).cmp(B::F64x2Le, kb(PIO4_HI)));
        // n = round(x·2/π), 0 where |x| ≤ π/4; x − n·π/2 as a double-double (TwoSum).
        let n0 = (x.clone() * kb(TWO_OVER_PI_F64)).f(U::F64x2Nearest);
        let n = self.bind(D(n0.0.v2(B::V128AndNot, small.clone())));
        let mut s = self.bind(x.clone() - n.clone() * kb(PIO2_1));
        let mut e = k(0.0);
        for part in [PIO2_2, PIO2_3] {
            let b = self.bind(n.clone() * kb(part));
            let a = s;
            s = self.bind(a.clone() - b.clone());
            let bb = self.bind(s.clone() - a.clone());
            e = self.bind(e + ((a - (s.clone() - bb.clone())) - (b + bb)));
        }
        let e = self.bind(e - n.clone() * kb(PIO2_4));
        let yh0 = self.bind(s.clone() + e.clone());
        let yl = (s - yh0.clone()) + e;
        let yh = self.bind(pick(x.clone(), yh0, small.clone()));
        let yl = self.bind(D(yl.0.v2(B::V128AndNot, small)));
        let mut q = (n + k(MAGIC)).0;
        if cos {
            q = q.v2(B::I64x2Add, ki(1));
        }
        let q = self.bind_e(q);
        let z = self.bind(yh.clone() * yh.clone());
        let (sin_c, cos_c) = super::math_trig::kernel_coeffs(true);
        let ps = self.horner_f(&sin_c, z.clone());
        let ksin = yh.clone()
            + (yh.clone() * z.clone() * ps + (yl.clone() - k(0.5) * z.clone() * yl.clone()));
        let w = self.bind(k(1.0) - k(0.5) * z.clone());
        let pc = self.horner_f(&cos_c, z.clone());
        let kcos =
            w.clone() + (((k(1.0) - w) - k(0.5) * z.clone()) + (z.clone() * z * pc - yh * yl));
        let odd = q.clone().v2(B::V128And, ki(1)).v2(B::I64x2Ne, ki(0));
        let value = pick(kcos, ksin, odd);
        // Quadrants 2 and 3 negate: bit 1 of q moved to the sign bit.
        let sign = q.v2(B::V128And, ki(2)).v2(B::I64x2Shl, i32c(62));
        let value = D(value.0.v2(B::V128Xor, sign));
        if cos {
            return value;
        }
        // Tiny arguments (signed zeros included) are their own sine.
        let tiny = x0.f(U::F64x2Abs).cmp(B::F64x2Lt, k(TINY));
        pick(x, value, tiny)
    }
}

/// The f32x4 → f32x4 function computing float32 `op` lane-wise (see the module docs).
pub fn routine(lib: &mut Lib, m: &mut Module, op: UnaryOp) -> FunctionId {
    let x = Var::new(m, V128);
    let res = Var::new(m, V128);
    let mut b = Body { m, stmts: vec![] };
    let halves = [
        x.get().v1(U::F64x2PromoteLowF32x4),
        E::Shuffle(HIGH_HALF, Box::new(x.get()), Box::new(x.get())).v1(U::F64x2PromoteLowF32x4),
    ];
    let mut out = vec![];
    for half in halves {
        let h = b.bind(D(half));
        let v = match op {
            UnaryOp::Exp => b.exp(h),
            UnaryOp::Log => b.log(h),
            UnaryOp::Tanh => b.tanh(h),
            UnaryOp::Sin => b.sin_cos(h, false),
            UnaryOp::Cos => b.sin_cos(h, true),
            other => unreachable!("{other:?} has no vector routine"),
        };
        out.push(v.0.v1(U::F32x4DemoteF64x2Zero));
    }
    let [lo, hi]: [E; 2] = out.try_into().unwrap_or_else(|_| unreachable!());
    let mut stmts = b.stmts;
    stmts.push(res.set(E::Shuffle(LOW_HALVES, Box::new(lo), Box::new(hi))));
    if matches!(op, UnaryOp::Sin | UnaryOp::Cos) {
        // Huge finite (and infinite) lanes: the scalar routine, one lane at a time.
        let scalar = lib.get(m, op, true);
        let mask = Var::new(m, V128);
        let limit = lanes_const([TRIG_VECTOR_LIMIT.to_bits(); 4]);
        stmts.push(mask.set(x.get().v1(U::F32x4Abs).v2(B::F32x4Ge, limit)));
        let mut lanes = vec![];
        for idx in 0..4u8 {
            let lane = x.get().unop(U::F32x4ExtractLane { idx }, ValType::F32);
            let fixed = res.get().v2(
                B::F32x4ReplaceLane { idx },
                E::Call(scalar, ValType::F32, vec![lane]),
            );
            lanes.push(when(
                mask.get().unop(U::I32x4ExtractLane { idx }, ValType::I32),
                vec![res.set(fixed)],
            ));
        }
        stmts.push(when(mask.get().unop(U::V128AnyTrue, ValType::I32), lanes));
    }
    stmts.push(S::Return(res.get()));
    function(m, &[x], V128, &stmts)
}
