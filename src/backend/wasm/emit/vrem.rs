//! Exact remainders and quotients on vectors: float32 `fmod(x, y)` (`BinaryOp::Rem`) on f32x4,
//! and uint32 `x / d`, `x % d` on u32x4 by a divisor `d` uniform across lanes — the same bits
//! as the scalar lowering and the cpu interpreter.
//!
//! fmod: the scalar routine (`math_exp::fmod`) is exact long division; here
//! each half widens to f64x2 and computes r = x − trunc(x/y)·y. For float32 x and y with
//! |x/y| < 2²⁴ every step is exact: a non-integral quotient lies at least 2⁻²⁴ from an
//! integer (x − n·y is a nonzero multiple of the smaller operand's ulp; when x's ulp is the
//! smaller one, |x/y| < 1 − 2⁻²⁴), far beyond the f64 division's rounding error, so the
//! truncation is the exact one; n·y has at most 48 significant bits; and the exact remainder
//! is a float32 value, so the subtraction and the narrowing are exact too. The sign of x is
//! then set on the result (a zero remainder takes x's sign; a nonzero one has it already).
//! Lanes outside that range — |x/y| ≥ 2²⁴, y zero, infinite or NaN, x infinite or NaN — are
//! recomputed by the scalar routine, one lane at a time, only when a vector has any.
//!
//! uint32 by a uniform d ≥ 1: q = trunc(x·ρ) in f64, ρ the f64 just above 1/d. x·ρ is at least
//! x/d (so an exact quotient is never truncated one short) and exceeds it by under 2⁻²⁰/d, while
//! a non-integral x/d lies at least 1/d below the next integer: q is the exact quotient; the
//! remainder is x − q·d in wrapping i32 arithmetic. d = 0 gives 0 (as the interpreter).

use walrus::ir::{BinaryOp as B, UnaryOp as U};
use walrus::{Module, ValType};

use super::dsl::{f64c, i64c, when, Var, E, S};
use super::math::Lib;
use super::simd_ops::{lanes_const, HIGH_HALF, LOW_HALVES};
use super::vmath::halves;

use ValType::V128;

/// 2²⁴ as f32: the quotient magnitude from which lanes take the scalar routine.
const QUOTIENT_LIMIT: f32 = 16_777_216.0;

fn splat32(bits: u32) -> E {
    lanes_const([bits; 4])
}

fn narrow(lo: E, hi: E) -> E {
    E::Shuffle(
        LOW_HALVES,
        Box::new(lo.v1(U::F32x4DemoteF64x2Zero)),
        Box::new(hi.v1(U::F32x4DemoteF64x2Zero)),
    )
}

/// Statements and the value computing `fmod(x, y)` lane-wise on the f32x4 locals `x`, `y`.
pub fn fmod32(lib: &mut Lib, m: &mut Module, x: Var, y: Var) -> (Vec<S>, E) {
    let mut stmts = vec![];
    let mut bind = |stmts: &mut Vec<S>, e: E| {
        let v = Var::new(m, V128);
        stmts.push(v.set(e));
        v.get()
    };
    let mut quotients = vec![];
    let mut remainders = vec![];
    for (xh, yh) in halves(x.get()).into_iter().zip(halves(y.get())) {
        let xd = bind(&mut stmts, xh);
        let yd = bind(&mut stmts, yh);
        let q = bind(&mut stmts, xd.clone().v2(B::F64x2Div, yd.clone()));
        let n = q.clone().v1(U::F64x2Trunc);
        remainders.push(xd.v2(B::F64x2Sub, n.v2(B::F64x2Mul, yd)));
        quotients.push(q);
    }
    let [r_lo, r_hi]: [E; 2] = remainders.try_into().unwrap_or_else(|_| unreachable!());
    let [q_lo, q_hi]: [E; 2] = quotients.try_into().unwrap_or_else(|_| unreachable!());
    let sign = x.get().v2(B::V128And, splat32(0x8000_0000));
    let res = Var::new(m, V128);
    stmts.push(res.set(narrow(r_lo, r_hi).v2(B::V128Or, sign)));
    let in_range = narrow(q_lo, q_hi)
        .v1(U::F32x4Abs)
        .v2(B::F32x4Lt, splat32(QUOTIENT_LIMIT.to_bits()))
        .v2(
            B::V128And,
            y.get()
                .v1(U::F32x4Abs)
                .v2(B::F32x4Lt, splat32(f32::INFINITY.to_bits())),
        );
    let scalar_lanes = Var::new(m, V128);
    stmts.push(scalar_lanes.set(in_range.v1(U::V128Not)));
    let fmod = lib.fmod(m);
    let mut lanes = vec![];
    for idx in 0..4u8 {
        let lane = |v: Var| {
            v.get()
                .unop(U::F32x4ExtractLane { idx }, ValType::F32)
                .widen()
        };
        let exact = E::Call(fmod, ValType::F64, vec![lane(x), lane(y)]).demote();
        let fixed = res.get().v2(B::F32x4ReplaceLane { idx }, exact);
        lanes.push(when(
            scalar_lanes
                .get()
                .unop(U::I32x4ExtractLane { idx }, ValType::I32),
            vec![res.set(fixed)],
        ));
    }
    stmts.push(when(
        scalar_lanes.get().unop(U::V128AnyTrue, ValType::I32),
        lanes,
    ));
    (stmts, res.get())
}

/// Statements and the values computing uint32 `x / d` (`rem = false`) or `x % d` lane-wise on
/// each u32x4 local of `xs`, for the i32 scalar `d` (the same in every lane).
pub fn udiv_uniform(m: &mut Module, rem: bool, xs: &[Var], d: E) -> (Vec<S>, Vec<E>) {
    let dv = Var::new(m, ValType::I32);
    let recip = Var::new(m, V128);
    let above = (f64c(1.0) / d.clone().extend_u().u64_to_f64()).bits() + i64c(1);
    let mut stmts = vec![dv.set(d), recip.set(above.reinterpret().v1(U::F64x2Splat))];
    let splat_d = dv.get().v1(U::I32x4Splat);
    // All ones unless d = 0.
    let nonzero = Var::new(m, V128);
    stmts.push(nonzero.set(splat_d.clone().v2(B::I32x4Ne, lanes_const([0; 4]))));
    let mut values = vec![];
    for &x in xs {
        let high = E::Shuffle(HIGH_HALF, Box::new(x.get()), Box::new(x.get()));
        let [lo, hi] = [x.get(), high].map(|h| {
            h.v1(U::F64x2ConvertLowI32x4U)
                .v2(B::F64x2Mul, recip.get())
                .v1(U::F64x2Trunc)
                .v1(U::I32x4TruncSatF64x2UZero)
        });
        let q = Var::new(m, V128);
        stmts.push(q.set(E::Shuffle(LOW_HALVES, Box::new(lo), Box::new(hi))));
        let value = if rem {
            x.get()
                .v2(B::I32x4Sub, q.get().v2(B::I32x4Mul, splat_d.clone()))
        } else {
            q.get()
        };
        values.push(value.v2(B::V128And, nonzero.get()));
    }
    (stmts, values)
}
