//! f64 asin and atan as emitted wasm functions.
//!
//! asin: below 1/2, asin(x) = x + x·z·R(z) with z = x² and R a near-minimax fit; above,
//! asin(x) = π/2 − 2·asin(s) with s = √((1 − |x|)/2) (z = s² exact), where below 0.975 the
//! square root is split as s = df + c (df with a short significand) so π/2 − 2s keeps its
//! low bits. atan: |x| is reduced to |t| < 7/16 around 0, 1/2, 1, 3/2 or ∞
//! (atan(x) = atan(b) + atan((x − b)/(1 + b·x))), then atan(t) = t + t·z·Q(z).

use walrus::{FunctionId, Module};

use super::dsl::{f64c, i64c, if_, when, Var, E, S};
use super::math::{c, f64_var, finish, horner, pick};
use super::math_consts::{
    ASIN_R, ASIN_R32, ATAN_3HALF_HI, ATAN_3HALF_LO, ATAN_HALF_HI, ATAN_HALF_LO, ATAN_Q, ATAN_Q32,
    PIO2_HI, PIO2_LO, PIO4_HI, PIO4_LO,
};
use super::math_trig::TINY;

/// asin(x) for f64.
pub fn asin(m: &mut Module, f32: bool) -> FunctionId {
    let coeffs = pick(f32, &ASIN_R32, &ASIN_R);
    let x = f64_var(m);
    let sq = f64_var(m);
    let (ax, z, s, r, t, df, cc) = (
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
    );
    let two = || f64c(2.0);
    let body = vec![
        ax.set(x.get().abs()),
        when(
            ax.get().lt(f64c(0.5)),
            vec![
                z.set(x.get() * x.get()),
                S::Return(x.get() + x.get() * (z.get() * horner(coeffs, z, sq))),
            ],
        ),
        // |x| > 1 and NaN.
        when(
            ax.get().le(f64c(1.0)).eqz(),
            vec![S::Return(f64c(f64::NAN))],
        ),
        z.set((f64c(1.0) - ax.get()) * f64c(0.5)),
        s.set(z.get().sqrt()),
        r.set(z.get() * horner(coeffs, z, sq)),
        if_(
            ax.get().ge(f64c(0.975)),
            vec![t.set(c(PIO2_HI) - (two() * (s.get() + s.get() * r.get()) - c(PIO2_LO)))],
            vec![
                df.set((s.get().bits() & i64c(0xffff_ffff_0000_0000_u64 as i64)).reinterpret()),
                cc.set((z.get() - df.get() * df.get()) / (s.get() + df.get())),
                t.set(
                    c(PIO4_HI)
                        - ((two() * s.get() * r.get() - (c(PIO2_LO) - two() * cc.get()))
                            - (c(PIO4_HI) - two() * df.get())),
                ),
            ],
        ),
        S::Return(t.get().copysign(x.get())),
    ];
    finish(m, x, body, f32)
}

/// atan(x) for f64.
pub fn atan(m: &mut Module, f32: bool) -> FunctionId {
    let coeffs = pick(f32, &ATAN_Q32, &ATAN_Q);
    let x = f64_var(m);
    let sq = f64_var(m);
    let (ax, t, z, hi, lo) = (f64_var(m), f64_var(m), f64_var(m), f64_var(m), f64_var(m));
    let atan_poly = |t: Var, z: Var| t.get() * (z.get() * horner(coeffs, z, sq));
    let pick = |h: u64, l: u64, tv: E| -> Vec<S> { vec![hi.set(c(h)), lo.set(c(l)), t.set(tv)] };
    let body = vec![
        when(x.get().ne(x.get()), vec![S::Return(x.get())]),
        ax.set(x.get().abs()),
        when(ax.get().lt(f64c(TINY)), vec![S::Return(x.get())]),
        when(
            ax.get().ge(f64c(7.378_697_629_483_821e19)),
            vec![S::Return((c(PIO2_HI) + c(PIO2_LO)).copysign(x.get()))],
        ),
        when(
            ax.get().lt(f64c(0.4375)),
            vec![
                z.set(x.get() * x.get()),
                S::Return(x.get() + atan_poly(x, z)),
            ],
        ),
        if_(
            ax.get().lt(f64c(0.6875)),
            pick(
                ATAN_HALF_HI,
                ATAN_HALF_LO,
                (f64c(2.0) * ax.get() - f64c(1.0)) / (f64c(2.0) + ax.get()),
            ),
            vec![if_(
                ax.get().lt(f64c(1.1875)),
                pick(
                    PIO4_HI,
                    PIO4_LO,
                    (ax.get() - f64c(1.0)) / (ax.get() + f64c(1.0)),
                ),
                vec![if_(
                    ax.get().lt(f64c(2.4375)),
                    pick(
                        ATAN_3HALF_HI,
                        ATAN_3HALF_LO,
                        (ax.get() - f64c(1.5)) / (f64c(1.0) + f64c(1.5) * ax.get()),
                    ),
                    pick(PIO2_HI, PIO2_LO, f64c(-1.0) / ax.get()),
                )],
            )],
        ),
        z.set(t.get() * t.get()),
        S::Return((hi.get() + ((atan_poly(t, z) + lo.get()) + t.get())).copysign(x.get())),
    ];
    finish(m, x, body, f32)
}
