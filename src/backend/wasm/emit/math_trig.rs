//! f64 sin and cos as emitted wasm functions.
//!
//! |x| ≤ π/4 goes straight to the kernels; below 2²⁰·π/2 the reduction is Cody–Waite with a
//! four-part π/2 (see `medium`); larger finite arguments use the Payne–Hanek method:
//! x = m·2^e (53-bit integer m), and x·2/π mod 4 comes from
//! the product of m with the 192 bits of 2/π starting just above the bits that only contribute
//! multiples of 4 (64-bit limb arithmetic, 32-bit halves for the high products). The signed
//! fraction in [−1/2, 1/2) keeps 126 bits, so even the closest doubles to a multiple of π/2
//! (about 2⁻⁶¹ away) keep a full significand; it becomes a double-double y and the quadrant q.
//! The kernels are Taylor series in y² (sin to y¹⁷, cos to y¹⁸) with a correction for the low
//! part of y; cos uses 1 − y²/2 with its rounding error recovered.

use walrus::{FunctionId, Module, ValType};

use super::dsl::{cond, f64c, function, i32c, i64c, if_, when, Var, E, S};
use super::math::{c, f64_var, finish, high_half, horner_f, pow2, Lib, Routine};
use super::math_consts::{
    PIO2_1, PIO2_2, PIO2_3, PIO2_4, PIO2_HI, PIO2_HI_HI, PIO2_HI_LO, PIO2_LO, PIO4_HI, TWO_OVER_PI,
    TWO_OVER_PI_F64,
};

use ValType::{I32, I64};

/// 2⁻²⁸: below it, sin, atan, tanh and asin return their argument.
pub const TINY: f64 = 3.725_290_298_461_914e-9;

/// Word `k` of 2/π (a zero word first, then the bits after the binary point), branch-free.
pub fn two_over_pi(m: &mut Module) -> FunctionId {
    let k = Var::new(m, I32);
    let mut value = i64c(TWO_OVER_PI[0] as i64);
    for (i, &w) in TWO_OVER_PI.iter().enumerate().skip(1) {
        value = super::dsl::select(k.get().eq(i32c(i as i32)), i64c(w as i64), value);
    }
    function(m, &[k], I64, &[S::Return(value)])
}

fn i64_var(m: &mut Module) -> Var {
    Var::new(m, I64)
}

/// `hi:lo = a · b` for unsigned 64-bit locals (`lo` optional).
fn mul128(m: &mut Module, a: Var, b: Var, hi: Var, lo: Option<Var>) -> Vec<S> {
    let (a0, a1, b0, b1) = (i64_var(m), i64_var(m), i64_var(m), i64_var(m));
    let (p00, p01, p10, mid) = (i64_var(m), i64_var(m), i64_var(m), i64_var(m));
    let low32 = || i64c(0xffff_ffff);
    let mut out = vec![
        a0.set(a.get() & low32()),
        a1.set(a.get().shr_u(i64c(32))),
        b0.set(b.get() & low32()),
        b1.set(b.get().shr_u(i64c(32))),
        p00.set(a0.get() * b0.get()),
        p01.set(a0.get() * b1.get()),
        p10.set(a1.get() * b0.get()),
        mid.set(p00.get().shr_u(i64c(32)) + (p01.get() & low32()) + (p10.get() & low32())),
        hi.set(
            a1.get() * b1.get()
                + p01.get().shr_u(i64c(32))
                + p10.get().shr_u(i64c(32))
                + mid.get().shr_u(i64c(32)),
        ),
    ];
    if let Some(lo) = lo {
        out.push(lo.set(mid.get().shl(i64c(32)) | (p00.get() & low32())));
    }
    out
}

/// Statements setting `q` (quadrant, i32, any value mod 4) and `yh + yl` (in [−π/4, π/4])
/// with ax = q·π/2 + y (mod 2π), for a finite ax ≥ π/4.
fn reduce(lib: &mut Lib, m: &mut Module, ax: Var, q: Var, yh: Var, yl: Var) -> Vec<S> {
    let word = lib.routine(m, Routine::TwoOverPi);
    let (ix, mm, sh, w0, w1, w2, w3) = (
        i64_var(m),
        i64_var(m),
        i64_var(m),
        i64_var(m),
        i64_var(m),
        i64_var(m),
        i64_var(m),
    );
    let (f0, f1, f2, h1, l1, h2) = (
        i64_var(m),
        i64_var(m),
        i64_var(m),
        i64_var(m),
        i64_var(m),
        i64_var(m),
    );
    let (s1, s2, fhi, flo, top) = (i64_var(m), i64_var(m), i64_var(m), i64_var(m), i64_var(m));
    let (j, neg, lz) = (Var::new(m, I32), Var::new(m, I32), Var::new(m, I32));
    let (rh, rl, p, err, rh_hi, rh_lo) = (
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
    );
    let tw = |k: E| E::Call(word, I64, vec![k]);
    // The 64 bits of the table starting `sh` bits into word `a` (then word `b`).
    let window =
        |a: Var, b: Var| a.get().shl(sh.get()) | b.get().shr_u(i64c(1)).shr_u(i64c(63) - sh.get());
    let mut out = vec![
        ix.set(ax.get().bits()),
        mm.set((ix.get() & i64c((1 << 52) - 1)) | i64c(1 << 52)),
        // ax = mm · 2^e with e = biased − 1075; the window starts at bit e − 2 of 2/π, i.e.
        // bit e + 62 of the table (one zero word first).
        j.set((ix.get().shr_u(i64c(52))).wrap() - i32c(1075) + i32c(62)),
        sh.set((j.get() & i32c(63)).extend_u()),
        j.set(j.get().shr_u(i32c(6))),
        w0.set(tw(j.get())),
        w1.set(tw(j.get() + i32c(1))),
        w2.set(tw(j.get() + i32c(2))),
        w3.set(tw(j.get() + i32c(3))),
        f0.set(window(w0, w1)),
        f1.set(window(w1, w2)),
        f2.set(window(w2, w3)),
    ];
    out.extend(mul128(m, mm, f1, h1, Some(l1)));
    out.extend(mul128(m, mm, f2, h2, None));
    out.extend([
        // P = mm·F mod 2^192 (bits 190 and up are the quadrant), less its lowest word.
        s1.set(l1.get() + h2.get()),
        s2.set(mm.get() * f0.get() + h1.get() + s1.get().ltu(l1.get()).extend_u()),
        q.set((s2.get() + i64c(1 << 61)).shr_u(i64c(62)).wrap()),
        // The signed fraction of a quadrant, scaled by 2^128.
        fhi.set(s2.get().shl(i64c(2)) | s1.get().shr_u(i64c(62))),
        flo.set(s1.get().shl(i64c(2))),
        neg.set(fhi.get().lt(i64c(0))),
        when(
            neg.get(),
            vec![
                fhi.set((fhi.get() ^ i64c(-1)) + flo.get().eqz().extend_u()),
                flo.set(i64c(0) - flo.get()),
            ],
        ),
        lz.set(i32c(0)),
        when(
            fhi.get().eqz(),
            vec![fhi.set(flo.get()), flo.set(i64c(0)), lz.set(i32c(64))],
        ),
        sh.set(fhi.get().clz()),
        lz.set(lz.get() + sh.get().wrap()),
        top.set(fhi.get().shl(sh.get()) | flo.get().shr_u(i64c(1)).shr_u(i64c(63) - sh.get())),
        flo.set(flo.get().shl(sh.get())),
        // value = top·2^(−64−lz) + flo·2^(−128−lz), as a double-double.
        rh.set(top.get().shr_u(i64c(11)).u64_to_f64() * pow2(i32c(-53) - lz.get())),
        rl.set(
            ((top.get() & i64c(0x7ff)).shl(i64c(53)) | flo.get().shr_u(i64c(11))).u64_to_f64()
                * pow2(i32c(-117) - lz.get()),
        ),
        // y = value · π/2 in double-double (Dekker product for the high parts).
        rh_hi.set(high_half(rh.get())),
        rh_lo.set(rh.get() - rh_hi.get()),
        p.set(rh.get() * c(PIO2_HI)),
        err.set(
            ((rh_hi.get() * c(PIO2_HI_HI) - p.get())
                + rh_hi.get() * c(PIO2_HI_LO)
                + rh_lo.get() * c(PIO2_HI_HI))
                + rh_lo.get() * c(PIO2_HI_LO)
                + (rh.get() * c(PIO2_LO) + rl.get() * c(PIO2_HI)),
        ),
        yh.set(p.get() + err.get()),
        yl.set((p.get() - yh.get()) + err.get()),
        when(neg.get(), vec![yh.set(-yh.get()), yl.set(-yl.get())]),
    ]);
    out
}

/// Cody–Waite reduction for π/4 < ax < 2²⁰·π/2: n = round(ax·2/π) and ax − n·π/2 with π/2
/// in four parts, the first three short enough that n times them is exact; the differences
/// are accumulated as a double-double (TwoSum), so nothing is lost to cancellation.
fn medium(m: &mut Module, ax: Var, q: Var, yh: Var, yl: Var) -> Vec<S> {
    let (nf, a, b, s, bb, e) = (
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
        f64_var(m),
    );
    // (s, e) += −b with s, e, b locals: TwoSum.
    let two_sum = |b_value: E| -> Vec<S> {
        vec![
            b.set(b_value),
            a.set(s.get()),
            s.set(a.get() - b.get()),
            bb.set(s.get() - a.get()),
            e.set(e.get() + ((a.get() - (s.get() - bb.get())) - (b.get() + bb.get()))),
        ]
    };
    let mut out = vec![
        nf.set((ax.get() * c(TWO_OVER_PI_F64)).nearest()),
        q.set(nf.get().trunc_i32()),
        s.set(ax.get() - nf.get() * c(PIO2_1)),
        e.set(f64c(0.0)),
    ];
    out.extend(two_sum(nf.get() * c(PIO2_2)));
    out.extend(two_sum(nf.get() * c(PIO2_3)));
    out.extend([
        e.set(e.get() - nf.get() * c(PIO2_4)),
        yh.set(s.get() + e.get()),
        yl.set((s.get() - yh.get()) + e.get()),
    ]);
    out
}

/// sin (or cos, `cos = true`) of an f64.
pub fn sin_cos(lib: &mut Lib, m: &mut Module, cos: bool, f32: bool) -> FunctionId {
    let x = f64_var(m);
    let sq = f64_var(m);
    let (ax, yh, yl, z, w) = (f64_var(m), f64_var(m), f64_var(m), f64_var(m), f64_var(m));
    let q = Var::new(m, I32);
    let (sin_c, cos_c) = kernel_coeffs(f32);
    let ksin = yh.get()
        + (yh.get() * z.get() * horner_f(&sin_c, z, sq)
            + (yl.get() - f64c(0.5) * z.get() * yl.get()));
    let kcos = E::Seq(
        vec![w.set(f64c(1.0) - f64c(0.5) * z.get())],
        Box::new(
            w.get()
                + (((f64c(1.0) - w.get()) - f64c(0.5) * z.get())
                    + (z.get() * z.get() * horner_f(&cos_c, z, sq) - yh.get() * yl.get())),
        ),
    );
    let mut big = vec![if_(
        ax.get().lt(f64c(1_647_099.0)),
        medium(m, ax, q, yh, yl),
        reduce(lib, m, ax, q, yh, yl),
    )];
    big.push(when(
        x.get().lt(f64c(0.0)),
        vec![
            yh.set(-yh.get()),
            yl.set(-yl.get()),
            q.set(i32c(0) - q.get()),
        ],
    ));
    // Below 2⁻²⁸, sin x = x (keeping −0) and cos x = 1 to within half an ulp.
    let tiny = if cos { f64c(1.0) } else { x.get() };
    let body = vec![
        ax.set(x.get().abs()),
        when(ax.get().lt(f64c(TINY)), vec![S::Return(tiny)]),
        if_(
            ax.get().le(c(PIO4_HI)),
            vec![yh.set(x.get()), yl.set(f64c(0.0)), q.set(i32c(0))],
            vec![
                when(
                    ax.get().lt(f64c(f64::INFINITY)).eqz(),
                    vec![S::Return(x.get() - x.get())],
                ),
                S::Block(big),
            ],
        ),
        q.set(q.get() + i32c(cos as i32)),
        z.set(yh.get() * yh.get()),
        w.set(cond((q.get() & i32c(1)).eqz(), ksin, kcos)),
        S::Return(cond((q.get() & i32c(2)).eqz(), w.get(), -w.get())),
    ];
    finish(m, x, body, f32)
}

/// The sin and cos kernel coefficients (highest degree first): sin(y) = y + y³ Σ (−1)^n
/// y^(2n−2)/(2n+1)!, n = 1..=8 (float32: 6); cos(y) = 1 − y²/2 + y⁴ Σ (−1)^n y^(2n−4)/(2n)!,
/// n = 2..=9 (float32: 6). |y| ≤ π/4: the first omitted terms are below 2⁻⁶⁰ (2⁻⁴¹).
pub fn kernel_coeffs(f32: bool) -> (Vec<f64>, Vec<f64>) {
    let sign = |n: i32| if n % 2 == 0 { 1.0 } else { -1.0 };
    let (ns, nc) = if f32 { (6, 6) } else { (8, 9) };
    let sin_c = (1..=ns)
        .rev()
        .map(|n| sign(n) / factorial(2 * n as u32 + 1))
        .collect();
    let cos_c = (2..=nc)
        .rev()
        .map(|n| sign(n) / factorial(2 * n as u32))
        .collect();
    (sin_c, cos_c)
}

fn factorial(n: u32) -> f64 {
    (1..=n).map(f64::from).product()
}
