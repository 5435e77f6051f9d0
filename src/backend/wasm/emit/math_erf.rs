//! f64 tanh, erf and erfc as emitted wasm functions.
//!
//! tanh: x + x·z·T(z) below 0.625, 1 − 2/(exp(2|x|) + 1) above, ±1 beyond 22.
//! erf: x + x·F(z) below 0.84375, else ±(1 − erfc(|x|)), ±1 beyond 6.
//! erfc: from the erf polynomial below 0.84375 (as 0.5 − ((x − 0.5) + x·F) from 1/4, which is
//! exact in its first step), else exp(−x²)·G(x) with G piecewise: polynomials in x − centre up
//! to 3.5 and in 1/x − centre beyond (divided by x); x² is split exactly (Dekker) so
//! exp(−x²) loses nothing to its rounding. For x ≤ −0.84375, erfc(x) = 2 − erfc(−x).

use walrus::{FunctionId, Module, ValType};

use super::dsl::{cond, f64c, function, when, Var, E, S};
use super::math::{c, f64_var, finish, horner, pick, two_prod};
use super::math_consts::*;
use super::math_trig::TINY;

use ValType::F64;

/// tanh(x) for f64, given the f64 exp routine.
pub fn tanh(m: &mut Module, exp: FunctionId, f32: bool) -> FunctionId {
    let coeffs = pick(f32, &TANH_T32, &TANH_T);
    let x = f64_var(m);
    let sq = f64_var(m);
    let (ax, z) = (f64_var(m), f64_var(m));
    let body = vec![
        ax.set(x.get().abs()),
        when(ax.get().lt(f64c(TINY)), vec![S::Return(x.get())]),
        when(
            ax.get().lt(f64c(0.625)),
            vec![
                z.set(x.get() * x.get()),
                S::Return(x.get() + x.get() * (z.get() * horner(coeffs, z, sq))),
            ],
        ),
        when(x.get().ne(x.get()), vec![S::Return(x.get())]),
        when(
            ax.get().gt(f64c(22.0)),
            vec![S::Return(f64c(1.0).copysign(x.get()))],
        ),
        S::Return(
            (f64c(1.0) - f64c(2.0) / (E::Call(exp, F64, vec![f64c(2.0) * ax.get()]) + f64c(1.0)))
                .copysign(x.get()),
        ),
    ];
    finish(m, x, body, f32)
}

/// erfc(a) for a ≥ 0.84375 (0 from 28 on).
pub fn erfc_tail(m: &mut Module, exp: FunctionId, f32: bool) -> FunctionId {
    let a = f64_var(m);
    let sq = f64_var(m);
    let (g, u, hh, ll, w) = (f64_var(m), f64_var(m), f64_var(m), f64_var(m), f64_var(m));
    let near = |coeffs: &[u64], mid: u64| -> Vec<S> {
        vec![u.set(a.get() - c(mid)), g.set(horner(coeffs, u, sq))]
    };
    let far = |coeffs: &[u64], mid: u64| -> Vec<S> {
        vec![
            u.set(f64c(1.0) / a.get() - c(mid)),
            g.set(horner(coeffs, u, sq) / a.get()),
        ]
    };
    let pieces: [(f64, Vec<S>); 6] = [
        (1.25, near(pick(f32, &ERFC_G032, &ERFC_G0), ERFC_MID0)),
        (1.75, near(pick(f32, &ERFC_G132, &ERFC_G1), ERFC_MID1)),
        (2.5, near(pick(f32, &ERFC_G232, &ERFC_G2), ERFC_MID2)),
        (3.5, near(pick(f32, &ERFC_G332, &ERFC_G3), ERFC_MID3)),
        (6.0, far(pick(f32, &ERFC_H032, &ERFC_H0), ERFC_TMID0)),
        (
            f64::INFINITY,
            far(pick(f32, &ERFC_H132, &ERFC_H1), ERFC_TMID1),
        ),
    ];
    // if a < b0 { piece 0 } else if a < b1 { … } else { last piece }
    let mut chain: Vec<S> = vec![];
    for (bound, stmts) in pieces.into_iter().rev() {
        chain = if chain.is_empty() {
            stmts
        } else {
            vec![S::If(a.get().lt(f64c(bound)), stmts, chain)]
        };
    }
    let mut body = vec![when(a.get().ge(f64c(28.0)), vec![S::Return(f64c(0.0))])];
    body.extend(chain);
    body.extend(two_prod(m, a, a, hh, ll));
    body.extend([
        w.set(E::Call(exp, F64, vec![-hh.get()]) * g.get()),
        S::Return(w.get() - w.get() * ll.get()),
    ]);
    function(m, &[a], F64, &body)
}

/// x·F(x²) = erf(x) − x for |x| < 0.84375, with z = x² set.
fn small(x: Var, z: Var, sq: Var, f32: bool) -> E {
    x.get() * horner(pick(f32, &ERF_F32, &ERF_F), z, sq)
}

/// erf(x) for f64, given the erfc tail routine.
pub fn erf(m: &mut Module, tail: FunctionId, f32: bool) -> FunctionId {
    let x = f64_var(m);
    let sq = f64_var(m);
    let (ax, z) = (f64_var(m), f64_var(m));
    let body = vec![
        when(x.get().ne(x.get()), vec![S::Return(x.get())]),
        ax.set(x.get().abs()),
        when(
            ax.get().lt(f64c(0.84375)),
            vec![
                z.set(x.get() * x.get()),
                S::Return(x.get() + small(x, z, sq, f32)),
            ],
        ),
        when(
            ax.get().ge(f64c(6.0)),
            vec![S::Return(f64c(1.0).copysign(x.get()))],
        ),
        S::Return((f64c(1.0) - E::Call(tail, F64, vec![ax.get()])).copysign(x.get())),
    ];
    finish(m, x, body, f32)
}

/// erfc(x) for f64, given the erfc tail routine.
pub fn erfc(m: &mut Module, tail: FunctionId, f32: bool) -> FunctionId {
    let x = f64_var(m);
    let sq = f64_var(m);
    let z = f64_var(m);
    let body = vec![
        when(x.get().ne(x.get()), vec![S::Return(x.get())]),
        when(
            x.get().abs().lt(f64c(0.84375)),
            vec![
                z.set(x.get() * x.get()),
                S::Return(cond(
                    x.get().lt(f64c(0.25)),
                    f64c(1.0) - (x.get() + small(x, z, sq, f32)),
                    f64c(0.5) - ((x.get() - f64c(0.5)) + small(x, z, sq, f32)),
                )),
            ],
        ),
        S::Return(cond(
            x.get().gt(f64c(0.0)),
            E::Call(tail, F64, vec![x.get()]),
            f64c(2.0) - E::Call(tail, F64, vec![-x.get()]),
        )),
    ];
    finish(m, x, body, f32)
}
