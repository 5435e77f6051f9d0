//! The math routines of a kernel module: each transcendental a kernel uses is emitted once, as
//! a wasm function the kernel calls (`Lib` memoises them per module). Routines compute in f64;
//! a float32 routine widens its argument, runs the same algorithm with shorter polynomials
//! (error below 2⁻⁴²) and rounds once, which keeps f32 results within an ulp of the correctly
//! rounded value (and almost always equal to it). The routines themselves live in
//! `math_exp` (exp, log, fmod), `math_trig` (sin, cos), `math_inv` (asin, atan) and `math_erf`
//! (tanh, erf, erfc), the scalar threefry2x32 in `threefry`; this file has the registry and
//! shared helpers (Horner evaluation, powers of two, exact products).

use std::collections::HashMap;

use walrus::{FunctionId, Module, ValType};

use super::dsl::{f64_bits, function, i32c, i64c, Var, E, S};
use super::{math_erf, math_exp, math_inv, math_trig, threefry, vmath};
use crate::kernel::{ThreefryMode, UnaryOp};

/// A routine of the library.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Routine {
    /// A unary transcendental on f32 (`true`) or f64.
    Op(UnaryOp, bool),
    /// f64 remainder with the sign of the dividend (C `fmod`).
    Fmod,
    /// erfc(x) for x ≥ 0.84375 (shared by erf and erfc), f64 → f64, with float32-accuracy
    /// polynomials (`true`) or full ones.
    ErfcTail(bool),
    /// Word `k` of the bits of 2/π (for the trigonometric argument reduction).
    TwoOverPi,
    /// A float32 op through its vector body (`vmath`) on one value: f32 → f32.
    Lane(UnaryOp),
    /// threefry2x32 in a mode on i32 operands (`threefry::function_of`).
    Threefry(ThreefryMode),
}

/// The routines emitted so far in one module.
#[derive(Default)]
pub struct Lib {
    funcs: HashMap<Routine, FunctionId>,
}

impl Lib {
    /// Whether no routine has been emitted.
    pub fn is_empty(&self) -> bool {
        self.funcs.is_empty()
    }

    /// The function computing `op` on f32 (`f32 = true`) or f64, emitting it on first use.
    pub fn get(&mut self, m: &mut Module, op: UnaryOp, f32: bool) -> FunctionId {
        self.routine(m, Routine::Op(op, f32))
    }

    pub fn fmod(&mut self, m: &mut Module) -> FunctionId {
        self.routine(m, Routine::Fmod)
    }

    pub fn routine(&mut self, m: &mut Module, r: Routine) -> FunctionId {
        if let Some(&f) = self.funcs.get(&r) {
            return f;
        }
        let f = match r {
            Routine::Op(op, f32) => match op {
                UnaryOp::Exp => math_exp::exp(m, f32),
                UnaryOp::Log => math_exp::log(m, f32),
                UnaryOp::Sin => math_trig::sin_cos(self, m, false, f32),
                UnaryOp::Cos => math_trig::sin_cos(self, m, true, f32),
                UnaryOp::Asin => math_inv::asin(m, f32),
                UnaryOp::Atan => math_inv::atan(m, f32),
                UnaryOp::Tanh => {
                    let exp = self.routine(m, Routine::Op(UnaryOp::Exp, false));
                    math_erf::tanh(m, exp, f32)
                }
                UnaryOp::Erf => {
                    let tail = self.routine(m, Routine::ErfcTail(f32));
                    math_erf::erf(m, tail, f32)
                }
                UnaryOp::Erfc => {
                    let tail = self.routine(m, Routine::ErfcTail(f32));
                    math_erf::erfc(m, tail, f32)
                }
                other => unreachable!("{other:?} has a wasm instruction"),
            },
            Routine::Fmod => math_exp::fmod(m),
            Routine::ErfcTail(f32) => {
                let exp = self.routine(m, Routine::Op(UnaryOp::Exp, false));
                math_erf::erfc_tail(m, exp, f32)
            }
            Routine::TwoOverPi => math_trig::two_over_pi(m),
            Routine::Lane(op) => vmath::lane(self, m, op),
            Routine::Threefry(mode) => threefry::function_of(m, mode),
        };
        self.funcs.insert(r, f);
        f
    }
}

/// Builds a unary routine from its f64 body over the f64 local `x`. With `f32`, the function
/// takes and returns f32: it widens its argument into `x` and rounds every result once.
pub fn finish(m: &mut Module, x: Var, body: Vec<S>, f32: bool) -> FunctionId {
    if !f32 {
        return function(m, &[x], ValType::F64, &body);
    }
    let xf = Var::new(m, ValType::F32);
    let mut stmts = vec![x.set(xf.get().widen())];
    stmts.extend(body.into_iter().map(demote_returns));
    function(m, &[xf], ValType::F32, &stmts)
}

fn demote_returns(s: S) -> S {
    let all = |v: Vec<S>| v.into_iter().map(demote_returns).collect();
    match s {
        S::Return(e) => S::Return(e.demote()),
        S::If(c, a, b) => S::If(c, all(a), all(b)),
        S::While(c, body) => S::While(c, all(body)),
        S::Block(body) => S::Block(all(body)),
        other => other,
    }
}

/// Picks the float32 or the full-precision coefficient set.
pub fn pick<'a>(f32: bool, short: &'a [u64], full: &'a [u64]) -> &'a [u64] {
    if f32 {
        short
    } else {
        full
    }
}

/// The f64 with these bits.
pub fn c(bits: u64) -> E {
    f64_bits(bits)
}

/// `p(x)` for coefficients given highest degree first (as f64 bit patterns), for an f64 local
/// `x`; `sq` is a scratch local. Long polynomials are evaluated as E(x²) + x·O(x²) (two
/// independent Horner chains, half the latency of one); short ones by Horner's rule.
pub fn horner(coeffs: &[u64], x: Var, sq: Var) -> E {
    if coeffs.len() <= 4 {
        return plain_horner(coeffs, &x.get());
    }
    let degree = coeffs.len() - 1;
    let (mut even, mut odd) = (vec![], vec![]);
    for (i, &k) in coeffs.iter().enumerate() {
        if (degree - i).is_multiple_of(2) {
            even.push(k);
        } else {
            odd.push(k);
        }
    }
    E::Seq(
        vec![sq.set(x.get() * x.get())],
        Box::new(plain_horner(&even, &sq.get()) + x.get() * plain_horner(&odd, &sq.get())),
    )
}

fn plain_horner(coeffs: &[u64], x: &E) -> E {
    let mut acc = c(coeffs[0]);
    for &k in &coeffs[1..] {
        acc = acc * x.clone() + c(k);
    }
    acc
}

/// `horner` for coefficients given as f64 values, highest degree first.
pub fn horner_f(coeffs: &[f64], x: Var, sq: Var) -> E {
    let bits: Vec<u64> = coeffs.iter().map(|v| v.to_bits()).collect();
    horner(&bits, x, sq)
}

/// 2^k as an f64 for an i32 `k` in −1022..=1023.
pub fn pow2(k: E) -> E {
    ((k + i32c(1023)).extend_s().shl(i64c(52))).reinterpret()
}

/// `x · 2^k` for an i32 local `k` in −2044..=2046, rounding once (the first factor is exact
/// when `x` is near 1).
pub fn scale(x: E, k: Var) -> E {
    let half = k.get().shr_s(i32c(1));
    x * pow2(half.clone()) * pow2(k.get() - half)
}

/// The top 26 significant bits of an f64 (for exact products without fma).
pub fn high_half(x: E) -> E {
    (x.bits() & i64c(0xffff_ffff_f800_0000_u64 as i64)).reinterpret()
}

/// Sets `hi + lo = a · b` exactly (Dekker), for f64 locals `a`, `b` and scratch locals.
pub fn two_prod(m: &mut Module, a: Var, b: Var, hi: Var, lo: Var) -> Vec<S> {
    let (ah, al, bh, bl) = (
        Var::new(m, ValType::F64),
        Var::new(m, ValType::F64),
        Var::new(m, ValType::F64),
        Var::new(m, ValType::F64),
    );
    vec![
        ah.set(high_half(a.get())),
        al.set(a.get() - ah.get()),
        bh.set(high_half(b.get())),
        bl.set(b.get() - bh.get()),
        hi.set(a.get() * b.get()),
        lo.set(
            ((ah.get() * bh.get() - hi.get()) + ah.get() * bl.get() + al.get() * bh.get())
                + al.get() * bl.get(),
        ),
    ]
}

/// A fresh f64 local.
pub fn f64_var(m: &mut Module) -> Var {
    Var::new(m, ValType::F64)
}
