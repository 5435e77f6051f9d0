//! f64 exp, log and fmod as emitted wasm functions.
//!
//! exp: k = round(x / ln 2), r = x − k·ln2 (ln 2 in two parts, the first exact when multiplied
//! by k), exp(r) = 1 + r + r²·P(r) with P a near-minimax fit on |r| ≤ 0.35, then scaled by 2^k in two exact steps so subnormal results round once.
//! log: x = 2^k·(1 + f) with 1 + f in [√2/2, √2), s = f/(2 + f),
//! log(1 + f) = f − f²/2 + s·(f²/2 + R(s²)) with R the atanh series (|s| ≤ 0.172).
//! fmod: the exact remainder by binary long division on the significands.

use walrus::{FunctionId, Module, ValType};

use super::dsl::{cond, f64c, function, i32c, i64c, if_, when, Var, S};
use super::math::{c, f64_var, finish, horner, horner_f, pick, scale};
use super::math_consts::{EXP_P, EXP_P32, INV_LN2, LN2_HI, LN2_LO};

use ValType::{F64, I32, I64};

/// exp(x) for f64.
pub fn exp(m: &mut Module, f32: bool) -> FunctionId {
    let x = f64_var(m);
    let sq = f64_var(m);
    let (kf, hi, lo, r, p) = (f64_var(m), f64_var(m), f64_var(m), f64_var(m), f64_var(m));
    let k = Var::new(m, I32);
    let coeffs = pick(f32, &EXP_P32, &EXP_P);
    let body = vec![
        // NaN and overflow: x + inf is NaN or inf.
        when(
            x.get().gt(c(0x4086_2e42_fefa_39ef)) | x.get().ne(x.get()),
            vec![S::Return(x.get() * f64c(f64::INFINITY))],
        ),
        // Below ln(2^-1075) the result rounds to 0.
        when(
            x.get().lt(c(0xc087_4910_d52d_3051)),
            vec![S::Return(f64c(0.0))],
        ),
        kf.set((x.get() * c(INV_LN2)).nearest()),
        hi.set(x.get() - kf.get() * c(LN2_HI)),
        lo.set(kf.get() * c(LN2_LO)),
        r.set(hi.get() - lo.get()),
        p.set(r.get() * r.get() * horner(coeffs, r, sq)),
        // exp(r) = 1 + (r + p); the correction ((hi − r) − lo) recovers r's rounding error.
        p.set(r.get() + (p.get() + ((hi.get() - r.get()) - lo.get()))),
        k.set(kf.get().trunc_i32()),
        S::Return(scale(f64c(1.0) + p.get(), k)),
    ];
    finish(m, x, body, f32)
}

/// log(x) for f64.
pub fn log(m: &mut Module, f32: bool) -> FunctionId {
    let x = f64_var(m);
    let sq = f64_var(m);
    let (f, s, z, hfsq, r, kf) = (
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
    );
    let (ix, mant) = (Var::new(m, I64), Var::new(m, I64));
    let k = Var::new(m, I32);
    // R(z) = Σ_{j≥1} 2 z^j / (2j + 1) = z · Σ_{j=1..J} 2 z^(j−1)/(2j + 1), z ≤ 0.0295: the
    // first omitted term is below 2⁻⁵⁸ (J = 10) or 2⁻⁴³ (J = 7, float32).
    let terms = if f32 { 7 } else { 10 };
    let coeffs: Vec<f64> = (1..=terms)
        .rev()
        .map(|j| 2.0 / (2 * j + 1) as f64)
        .collect();
    let sqrt2_mantissa = 0x6_a09e_667f_3bcd_i64;
    let body = vec![
        // Zero, negative, NaN and infinity.
        when(
            (x.get().gt(f64c(0.0)) & x.get().lt(f64c(f64::INFINITY))).eqz(),
            vec![S::Return(cond(
                x.get().eq(f64c(0.0)),
                f64c(f64::NEG_INFINITY),
                cond(x.get().eq(f64c(f64::INFINITY)), x.get(), f64c(f64::NAN)),
            ))],
        ),
        k.set(i32c(0)),
        // Subnormals: scale into the normal range.
        when(
            x.get().lt(f64c(f64::MIN_POSITIVE)),
            vec![
                x.set(x.get() * f64c(18_014_398_509_481_984.0)),
                k.set(i32c(-54)),
            ],
        ),
        ix.set(x.get().bits()),
        k.set(k.get() + (ix.get().shr_u(i64c(52))).wrap() - i32c(1023)),
        mant.set(ix.get() & i64c((1 << 52) - 1)),
        // 1 + f in [√2/2, √2): halve the significand above √2.
        if_(
            mant.get().gt(i64c(sqrt2_mantissa)),
            vec![
                f.set((mant.get() | i64c(1022 << 52)).reinterpret() - f64c(1.0)),
                k.set(k.get() + i32c(1)),
            ],
            vec![f.set((mant.get() | i64c(1023 << 52)).reinterpret() - f64c(1.0))],
        ),
        kf.set(k.get().widen()),
        s.set(f.get() / (f64c(2.0) + f.get())),
        z.set(s.get() * s.get()),
        r.set(z.get() * horner_f(&coeffs, z, sq)),
        hfsq.set(f64c(0.5) * f.get() * f.get()),
        S::Return(
            kf.get() * c(LN2_HI)
                - ((hfsq.get() - (s.get() * (hfsq.get() + r.get()) + kf.get() * c(LN2_LO)))
                    - f.get()),
        ),
    ];
    finish(m, x, body, f32)
}

/// fmod(x, y) for f64: the exact remainder of x / y truncated, with the sign of x.
pub fn fmod(m: &mut Module) -> FunctionId {
    let (x, y) = (f64_var(m), f64_var(m));
    let (ux, uy, i) = (Var::new(m, I64), Var::new(m, I64), Var::new(m, I64));
    let (ex, ey) = (Var::new(m, I32), Var::new(m, I32));
    let sign = Var::new(m, I64);
    let implicit = i64c(1 << 52);
    let mantissa = i64c((1 << 52) - 1);
    let zero_x = S::Return(f64c(0.0) * x.get());
    // Unpacks a value into (significand with implicit bit, exponent), normalising subnormals.
    let unpack = |u: Var, e: Var| -> Vec<S> {
        vec![if_(
            e.get().eqz(),
            vec![
                i.set(u.get().shl(i64c(12))),
                S::While(
                    i.get().ge(i64c(0)),
                    vec![e.set(e.get() - i32c(1)), i.set(i.get().shl(i64c(1)))],
                ),
                u.set(u.get().shl((i32c(1) - e.get()).extend_s())),
            ],
            vec![u.set((u.get() & mantissa.clone()) | implicit.clone())],
        )]
    };
    // One step of the long division: subtract when it fits.
    let step = |zero: &S| -> S {
        S::Block(vec![
            i.set(ux.get() - uy.get()),
            when(
                i.get().ge(i64c(0)),
                vec![when(i.get().eqz(), vec![zero.clone()]), ux.set(i.get())],
            ),
        ])
    };
    let mut body = vec![
        ux.set(x.get().bits()),
        uy.set(y.get().bits()),
        ex.set((ux.get().shr_u(i64c(52))).wrap() & i32c(0x7ff)),
        ey.set((uy.get().shr_u(i64c(52))).wrap() & i32c(0x7ff)),
        sign.set(ux.get() & i64c(i64::MIN)),
        // y = 0, y NaN, x infinite or NaN: NaN.
        when(
            uy.get().shl(i64c(1)).eqz() | y.get().ne(y.get()) | ex.get().eq(i32c(0x7ff)),
            vec![S::Return((x.get() * y.get()) / (x.get() * y.get()))],
        ),
        // |x| ≤ |y|.
        when(
            ux.get().shl(i64c(1)).leu(uy.get().shl(i64c(1))),
            vec![S::Return(cond(
                ux.get().shl(i64c(1)).eq(uy.get().shl(i64c(1))),
                f64c(0.0) * x.get(),
                x.get(),
            ))],
        ),
    ];
    body.extend(unpack(ux, ex));
    body.extend(unpack(uy, ey));
    body.push(S::While(
        ex.get().gt(ey.get()),
        vec![
            step(&zero_x),
            ux.set(ux.get().shl(i64c(1))),
            ex.set(ex.get() - i32c(1)),
        ],
    ));
    body.push(step(&zero_x));
    body.extend([
        S::While(
            ux.get().shr_u(i64c(52)).eqz(),
            vec![ux.set(ux.get().shl(i64c(1))), ex.set(ex.get() - i32c(1))],
        ),
        if_(
            ex.get().gt(i32c(0)),
            vec![ux.set((ux.get() - implicit) | ex.get().extend_s().shl(i64c(52)))],
            vec![ux.set(ux.get().shr_u((i32c(1) - ex.get()).extend_s()))],
        ),
        S::Return((ux.get() | sign.get()).reinterpret()),
    ]);
    function(m, &[x, y], F64, &body)
}
