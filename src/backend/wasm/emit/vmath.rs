//! float32 transcendentals on f32x4 vectors, for the SIMD lowering (`simd`), which inlines
//! them (a call per vector would cost about as much as a short body).
//!
//! exp, log, tanh, sin and cos compute in float32 arithmetic (`vmath32`: Cephes-style
//! reductions and fits, within 1 ulp); sin and cos lanes with |x| ≥ 2²⁰·π/2 (rare) are
//! recomputed by the scalar routine (Payne–Hanek reduction). asin and atan widen their lanes
//! into two f64x2 halves and run their scalar routines' algorithms branch-free (`vmath_inv`),
//! rounding once (f32 subnormals are normal f64s, so no rescaling is needed). erf and erfc
//! widen likewise and use fits of their own with one polynomial for the whole tail
//! (`vmath_erf`), both formulas computed for every lane and selected.

use walrus::ir::{BinaryOp as B, UnaryOp as U};
use walrus::{FunctionId, Module, ValType};

use super::dsl::{function, when, Var, E, S};
use super::math::Lib;
use super::simd_ops::{lanes_const, HIGH_HALF, LOW_HALVES};
use super::vmath32::F;
use crate::kernel::UnaryOp;

use ValType::V128;

/// Whether float32 `op` has a vector routine.
pub fn has_vector(op: UnaryOp) -> bool {
    matches!(
        op,
        UnaryOp::Exp
            | UnaryOp::Log
            | UnaryOp::Sin
            | UnaryOp::Cos
            | UnaryOp::Tanh
            | UnaryOp::Asin
            | UnaryOp::Atan
            | UnaryOp::Erf
            | UnaryOp::Erfc
    )
}

/// Above this |x| (2²⁰·π/2), sin and cos lanes go to the scalar routine.
const TRIG_VECTOR_LIMIT: f32 = 1_647_099.0;

/// 1.5·2⁵²: adding it to an integral f64 below 2⁵¹ puts the integer in the low bits.
pub(super) const MAGIC: f64 = 6_755_399_441_055_744.0;

/// An f64x2 value, with arithmetic operators.
#[derive(Clone)]
pub(super) struct D(pub E);

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
pub(super) fn k(v: f64) -> D {
    let b = u128::from(v.to_bits());
    D(E::V128(b | (b << 64)))
}

pub(super) fn kb(bits: u64) -> D {
    k(f64::from_bits(bits))
}

/// An i64x2 constant.
pub(super) fn ki(v: i64) -> E {
    let b = u128::from(v as u64);
    E::V128(b | (b << 64))
}

/// `a` where `mask` is set, else `b`.
pub(super) fn pick(a: D, b: D, mask: E) -> D {
    D(E::Bitselect(Box::new(a.0), Box::new(b.0), Box::new(mask)))
}

/// The statements of one routine body being built.
pub(super) struct Body<'m> {
    pub m: &'m mut Module,
    pub stmts: Vec<S>,
}

impl Body<'_> {
    pub fn bind(&mut self, e: D) -> D {
        D(self.bind_e(e.0))
    }

    pub fn bind_e(&mut self, e: E) -> E {
        let v = Var::new(self.m, V128);
        self.stmts.push(v.set(e));
        v.get()
    }

    /// `p(x)` for coefficients highest degree first, as `math::horner` evaluates it (even and
    /// odd halves in x² for long polynomials).
    pub(super) fn horner(&mut self, coeffs: &[u64], x: D) -> D {
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
}

/// Statements and the value computing float32 `op` lane-wise on the f32x4 local `x`, inlined
/// into the kernel (a call per vector costs as much as a short body).
pub fn inline(lib: &mut Lib, m: &mut Module, op: UnaryOp, x: Var) -> (Vec<S>, E) {
    let res = Var::new(m, V128);
    let mut b = Body { m, stmts: vec![] };
    let value = match op {
        UnaryOp::Asin | UnaryOp::Atan | UnaryOp::Erf | UnaryOp::Erfc => {
            let mut out = vec![];
            for half in halves(x.get()) {
                let h = b.bind(D(half));
                let y = match op {
                    UnaryOp::Asin => b.asin64(h),
                    UnaryOp::Erf => b.erf64(h, false),
                    UnaryOp::Erfc => b.erf64(h, true),
                    _ => b.atan64(h),
                };
                out.push(y.0.v1(U::F32x4DemoteF64x2Zero));
            }
            let [lo, hi]: [E; 2] = out.try_into().unwrap_or_else(|_| unreachable!());
            E::Shuffle(LOW_HALVES, Box::new(lo), Box::new(hi))
        }
        UnaryOp::Exp => b.exp32(F(x.get())).0,
        UnaryOp::Log => b.log32(F(x.get())).0,
        UnaryOp::Tanh => b.tanh32(F(x.get())).0,
        UnaryOp::Sin => b.sin_cos32(F(x.get()), false).0,
        UnaryOp::Cos => b.sin_cos32(F(x.get()), true).0,
        other => unreachable!("{other:?} has no vector routine"),
    };
    let mut stmts = b.stmts;
    stmts.push(res.set(value));
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
    (stmts, res.get())
}

/// The f32 → f32 function computing float32 `op` through its vector body (lane 0 of a
/// splat), so that scalar code gives the same bits as vector code.
pub fn lane(lib: &mut Lib, m: &mut Module, op: UnaryOp) -> FunctionId {
    let x = Var::new(m, ValType::F32);
    let v = Var::new(m, V128);
    let (body, value) = inline(lib, m, op, v);
    let mut stmts = vec![v.set(x.get().v1(U::F32x4Splat))];
    stmts.extend(body);
    stmts.push(S::Return(
        value.unop(U::F32x4ExtractLane { idx: 0 }, ValType::F32),
    ));
    function(m, &[x], ValType::F32, &stmts)
}

/// The low and high two lanes of an f32x4, widened to f64x2.
pub(super) fn halves(x: E) -> [E; 2] {
    [
        x.clone().v1(U::F64x2PromoteLowF32x4),
        E::Shuffle(HIGH_HALF, Box::new(x.clone()), Box::new(x)).v1(U::F64x2PromoteLowF32x4),
    ]
}
