//! float16 in wasm kernels. A float16 value lives in an f32 local (always exactly a float16):
//! loads widen the 16-bit pattern, stores narrow it, and every float16 result of an operation
//! computed in f32 is rounded to float16 (ties to even), as the cpu interpreter does. The
//! conversions are branch-free bit manipulations (after F. Giesen's float↔half routines) in
//! which the FPU's own round-to-nearest-even does the rounding.

use super::dsl::{i32c, select, seq, E};
use super::Cx;
use walrus::ValType;

/// Binds `x` to a fresh local; returns (its assignment, a use).
fn bind(cx: &mut Cx, x: E) -> (super::dsl::S, E) {
    let v = cx.tmp(x.ty());
    (v.set(x), v.get())
}

/// The f32 value of float16 bit pattern `h` (an i32 in 0..=0xffff); exact.
pub fn widen(cx: &mut Cx, h: E) -> E {
    let (sh, h) = bind(cx, h);
    // Exponent and mantissa moved to f32's positions (not yet rebiased).
    let (so, o) = bind(cx, (h.clone() & i32c(0x7fff)).shl(i32c(13)));
    let (se, exp) = bind(cx, o.clone() & i32c(0x0f80_0000));
    let normal = o.clone() + i32c(112 << 23); // exponent bias 15 → 127
    let inf_nan = o.clone() + i32c(224 << 23); // exponent 31 → 255
                                               // Subnormals: m · 2^-24 = (1 + m/1024) · 2^-14 − 2^-14, exact in f32.
    let subnormal = ((o + i32c(113 << 23)).reinterpret() - E::F32(2f32.powi(-14))).bits();
    let magnitude = select(
        exp.clone().eq(i32c(0x0f80_0000)),
        inf_nan,
        select(exp.eq(i32c(0)), subnormal, normal),
    );
    let sign = (h & i32c(0x8000)).shl(i32c(16));
    seq(vec![sh, so, se], (magnitude | sign).reinterpret())
}

/// The float16 bit pattern (an i32) of f32 `f`, rounded to nearest, ties to even; overflow
/// gives ±inf, NaN the quiet NaN 0x7e00.
pub fn narrow(cx: &mut Cx, f: E) -> E {
    let (su, u) = bind(cx, f.bits());
    let (ss, sign) = bind(cx, u.clone() & i32c(i32::MIN));
    let (sa, a) = bind(cx, u ^ sign.clone());
    // |f| ≥ 65536 (or inf, NaN): inf, or NaN.
    let huge = select(i32c(0x7f80_0000).ltu(a.clone()), i32c(0x7e00), i32c(0x7c00));
    // |f| < 2^-14: adding 0.5 leaves the float16 subnormal's mantissa in the low bits.
    let subnormal = (a.clone().reinterpret() + E::F32(0.5)).bits() - i32c(0x3f00_0000);
    // Normal: rebias (127 → 15), add the rounding bias 0xfff plus the mantissa's odd bit.
    let odd = a.clone().shr_u(i32c(13)) & i32c(1);
    let normal = (a.clone() + i32c(((15 - 127) << 23) + 0xfff) + odd).shr_u(i32c(13));
    let magnitude = select(
        i32c(0x4780_0000).leu(a.clone()),
        huge,
        select(a.ltu(i32c(113 << 23)), subnormal, normal),
    );
    seq(vec![su, ss, sa], magnitude | sign.shr_u(i32c(16)))
}

/// f64 `x` as an f32 rounded *to odd*: truncated toward zero, with the lowest bit set when any
/// bit was dropped. f32 keeps 13 more bits than float16 (≥ 2 are needed), so narrowing the
/// result to float16 (ties to even) gives `x` rounded once, as the interpreter's conversion
/// from f64 does — a plain demotion would round twice (1 + 2⁻¹¹ + 2⁻³⁰ → 1 + 2⁻¹¹ → 1).
/// NaN stays NaN; a value beyond f32's range becomes ±f32::MAX (float16 ±inf either way).
pub fn demote_odd(cx: &mut Cx, x: E) -> E {
    debug_assert_eq!(x.ty(), ValType::F64);
    let (sx, x) = bind(cx, x);
    let (sy, y) = bind(cx, x.clone().demote());
    let (sb, b) = bind(cx, y.clone().bits());
    let wide = y.widen();
    let inexact = wide.clone().ne(x.clone());
    // Rounded away from zero: one step back toward it (f32 bits order the magnitudes).
    let away = wide.abs().gt(x.abs());
    let odd = (b.clone() - away) | i32c(1);
    seq(vec![sx, sy, sb], select(inexact, odd, b).reinterpret())
}

/// f32 `f` rounded to the nearest float16, as an f32.
pub fn round(cx: &mut Cx, f: E) -> E {
    debug_assert_eq!(f.ty(), ValType::F32);
    let bits = narrow(cx, f);
    widen(cx, bits)
}
