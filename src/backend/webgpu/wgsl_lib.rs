//! The WGSL helper functions that kernels call, emitted only when used. This file holds the
//! registry ([`Helper`]: source and dependencies) and the helpers of the exact operations, written
//! so that a device that is allowed to assume "no NaN", flush subnormals or fuse multiply-adds
//! (all permitted by WGSL and Vulkan) still gives the interpreter's bits:
//!
//! - NaN tests look at the bits, never at `x != x`; non-finite constants come from `ox_f32(bits)`
//!   (a const-expression may not evaluate to ±∞ or NaN in WGSL);
//! - float comparisons and min/max test for NaN explicitly and compare integer keys of the bits
//!   (right for subnormals on devices that flush them; min/max return the first operand when
//!   the operands compare equal, as the interpreter does, and NaN when either is NaN);
//! - float division and square root are correctly rounded by an exact integer remainder test
//!   on top of the hardware's estimate (Vulkan allows 2.5 ulp; NVIDIA's is not exact);
//! - integer division and remainder never divide by zero or overflow (`x / 0 = x % 0 = 0`,
//!   `i32::MIN / -1 = i32::MIN`, `i32::MIN % -1 = 0`);
//! - float remainder is C's `fmod`, computed exactly on the significands in integers (WGSL's
//!   `%` is `x - y * trunc(x / y)`, which rounds);
//! - float → integer casts truncate, saturate and send NaN to 0;
//! - `ox_ldexp` builds `m · 2^k` from bits, rounding subnormal results to nearest even.
//!
//! The transcendental helpers live in `wgsl_exp` (exp, log, tanh, erf, erfc) and `wgsl_trig`
//! (sin, cos, asin, atan).

use std::collections::BTreeSet;

use super::{wgsl_exp, wgsl_trig};

/// A helper function (or struct) of the WGSL library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Helper {
    Keep,
    IsNan,
    Key,
    Unpack,
    DivF32,
    SqrtF32,
    LtF32,
    LeF32,
    EqF32,
    MinF32,
    MaxF32,
    DivI32,
    RemI32,
    DivU32,
    RemU32,
    FmodF32,
    F32ToI32,
    F32ToU32,
    Ldexp,
    MulWide,
    ExpSplit,
    Exp,
    Log,
    Tanh,
    ErfRational,
    ErfTail,
    Erf,
    Erfc,
    TrigReduce,
    SinCosKernels,
    Sin,
    Cos,
    Asin,
    Atan,
    /// float16 rounding and storage conversions (`wgsl_half`; the shader enables f16).
    Half,
    /// threefry2x32: `ox_threefry` (both words) and `ox_threefry_xor`.
    Threefry,
}

impl Helper {
    fn source(self) -> &'static str {
        use Helper::*;
        match self {
            Keep => KEEP,
            IsNan => IS_NAN,
            Key => KEY,
            Unpack => UNPACK,
            DivF32 => DIV_F32,
            SqrtF32 => SQRT_F32,
            LtF32 => LT_F32,
            LeF32 => LE_F32,
            EqF32 => EQ_F32,
            MinF32 => MIN_F32,
            MaxF32 => MAX_F32,
            DivI32 => DIV_I32,
            RemI32 => REM_I32,
            DivU32 => DIV_U32,
            RemU32 => REM_U32,
            FmodF32 => FMOD_F32,
            F32ToI32 => F32_TO_I32,
            F32ToU32 => F32_TO_U32,
            Ldexp => LDEXP,
            MulWide => MUL_WIDE,
            ExpSplit => wgsl_exp::EXP_SPLIT,
            Exp => wgsl_exp::EXP,
            Log => wgsl_exp::LOG,
            Tanh => wgsl_exp::TANH,
            ErfRational => wgsl_exp::ERF_RATIONAL,
            ErfTail => wgsl_exp::ERF_TAIL,
            Erf => wgsl_exp::ERF,
            Erfc => wgsl_exp::ERFC,
            TrigReduce => wgsl_trig::TRIG_REDUCE,
            SinCosKernels => wgsl_trig::SIN_COS_KERNELS,
            Sin => wgsl_trig::SIN,
            Cos => wgsl_trig::COS,
            Asin => wgsl_trig::ASIN,
            Atan => wgsl_trig::ATAN,
            Half => super::wgsl_half::HALF,
            Threefry => THREEFRY,
        }
    }

    fn deps(self) -> &'static [Helper] {
        use Helper::*;
        match self {
            LtF32 | LeF32 | EqF32 => &[IsNan, Key],
            MinF32 => &[IsNan, LeF32],
            MaxF32 => &[IsNan, LeF32],
            F32ToI32 | F32ToU32 => &[IsNan],
            DivF32 | SqrtF32 => &[Unpack, Ldexp],
            ExpSplit => &[Ldexp, Keep],
            Exp => &[IsNan, ExpSplit, Ldexp],
            Log | Atan => &[IsNan],
            Tanh => &[IsNan, Exp],
            ErfTail => &[ErfRational, ExpSplit, Ldexp],
            Erf | Erfc => &[IsNan, ErfRational, ErfTail],
            TrigReduce => &[MulWide],
            Sin | Cos => &[TrigReduce, SinCosKernels],
            _ => &[],
        }
    }
}

/// The set of helpers a kernel uses, closed under dependencies.
#[derive(Default)]
pub(super) struct Helpers(BTreeSet<Helper>);

impl Helpers {
    pub fn add(&mut self, helper: Helper) {
        if self.0.insert(helper) {
            for &dep in helper.deps() {
                self.add(dep);
            }
        }
    }

    /// The WGSL source of every helper used (module-scope declarations may come in any order).
    pub fn source(&self) -> String {
        self.0.iter().map(|h| h.source()).collect()
    }
}

/// `x` unchanged, through an integer operation the driver cannot see through (`ox_zp` is zero
/// at run time): a barrier against reassociation and contraction of float arithmetic, which
/// Vulkan allows for any operation not marked `NoContraction` (naga never marks it) and Mesa
/// performs.
const KEEP: &str = "
fn ox_keep(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) ^ ox_zp); }
";

const IS_NAN: &str = "
fn ox_isnan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn ox_f32(bits: u32) -> f32 { return bitcast<f32>(bits); }

";

/// An integer key of a float's bits, ordered like the floats (−0 just below +0), so that
/// comparisons hold on devices that flush subnormals and are never turned into `min`/`max`
/// instructions that ignore the sign of zero.
const KEY: &str = "
fn ox_key(x: f32) -> i32 {
  let b = bitcast<i32>(x);
  return select(b, b ^ 0x7fffffffi, b < 0i);
}
fn ox_zeros(a: f32, b: f32) -> bool {
  return ((bitcast<u32>(a) | bitcast<u32>(b)) & 0x7fffffffu) == 0u;
}
";

const LT_F32: &str = "
fn ox_lt_f32(a: f32, b: f32) -> bool {
  return !ox_isnan(a) && !ox_isnan(b) && ox_key(a) < ox_key(b) && !ox_zeros(a, b);
}
";

const LE_F32: &str = "
fn ox_le_f32(a: f32, b: f32) -> bool {
  return !ox_isnan(a) && !ox_isnan(b) && (ox_key(a) <= ox_key(b) || ox_zeros(a, b));
}
";

const EQ_F32: &str = "
fn ox_eq_f32(a: f32, b: f32) -> bool {
  return !ox_isnan(a) && !ox_isnan(b) && (ox_key(a) == ox_key(b) || ox_zeros(a, b));
}
";

const MIN_F32: &str = "
fn ox_min_f32(a: f32, b: f32) -> f32 {
  if (ox_isnan(a) || ox_isnan(b)) { return ox_f32(0x7fc00000u); }
  return select(b, a, ox_le_f32(a, b));
}
";

const MAX_F32: &str = "
fn ox_max_f32(a: f32, b: f32) -> f32 {
  if (ox_isnan(a) || ox_isnan(b)) { return ox_f32(0x7fc00000u); }
  return select(b, a, ox_le_f32(b, a));
}
";

/// The significand (in [2^23, 2^24)) and exponent of a nonzero finite magnitude's bits:
/// |x| = s·2^(e−23), subnormals normalised.
const UNPACK: &str = "
struct OxUnpacked { s: u32, e: i32 }
fn ox_unpack(ab: u32) -> OxUnpacked {
  let ex = ab >> 23u;
  if (ex != 0u) { return OxUnpacked((ab & 0x7fffffu) | 0x800000u, i32(ex) - 127i); }
  let sh = countLeadingZeros(ab) - 8u;
  return OxUnpacked(ab << sh, -126i - i32(sh));
}
";

/// Correctly rounded a / b on any device (Vulkan only promises 2.5 ulp, NVIDIA's is not
/// exact, and devices may flush subnormals): the hardware quotient of the significands gives an
/// integer estimate `q` of `V = X·2^s / Y` (in [2^23, 2^24)); the exact remainder
/// `X·2^s − q·Y` is small, so it is exact in wrapping u32 arithmetic, and it moves `q` to the
/// nearest integer (there are no ties) and then rounds subnormal results exactly. Special
/// operands are decided from their bits.
const DIV_F32: &str = "
fn ox_div_f32(a: f32, b: f32) -> f32 {
  let ba = bitcast<u32>(a);
  let bb = bitcast<u32>(b);
  let aa = ba & 0x7fffffffu;
  let ab = bb & 0x7fffffffu;
  let sign = (ba ^ bb) & 0x80000000u;
  if (aa > 0x7f800000u || ab > 0x7f800000u || (aa == ab && (aa == 0u || aa == 0x7f800000u))) {
    return bitcast<f32>(0x7fc00000u | aa);
  }
  if (aa == 0u || ab == 0x7f800000u) { return bitcast<f32>(sign); }
  if (ab == 0u || aa == 0x7f800000u) { return bitcast<f32>(sign | 0x7f800000u); }
  let x = ox_unpack(aa);
  let y = ox_unpack(ab);
  let s = select(24u, 23u, x.s >= y.s);
  let e = x.e - y.e + 23i - i32(s);
  let q0 = f32(x.s) / f32(y.s);
  var q = u32(q0 * select(0x1p24f, 0x1p23f, s == 23u));
  let r = bitcast<i32>((x.s << s) - q * y.s);
  let yi = i32(y.s);
  var k = r / yi;
  if (2i * abs(r - k * yi) > yi) { k = k + select(-1i, 1i, r > 0i); }
  q = bitcast<u32>(bitcast<i32>(q) + k);
  if (e >= -126i) {
    let m = ox_ldexp(f32(q) * 0x1p-23f, e);
    return bitcast<f32>(bitcast<u32>(m) | sign);
  }
  // A subnormal result: V·2^(e−23) in units of 2^−149 is V / 2^d; V = q + rest/Y exactly,
  // with |rest/Y| < ½, decides the rounding of the bits shifted out.
  let d = u32(-126i - e);
  if (d > 24u) { return bitcast<f32>(sign); }
  let rest = r - k * yi;
  let half = 1u << (d - 1u);
  let low = q & ((1u << d) - 1u);
  var t = q >> d;
  let up = rest > 0i || (rest == 0i && (t & 1u) == 1u);
  if (low > half || (low == half && up)) { t = t + 1u; }
  return bitcast<f32>(sign | t);
}
";

/// Correctly rounded √x on any device: with `N = X·2^23` (even exponent) or `X·2^24` (odd),
/// √N is in [2^23, 2^24); the hardware's square root gives an integer estimate `s`, and the
/// exact remainder `N − s²` (small, so exact in wrapping u32 arithmetic) moves `s` to the
/// nearest integer to √N (no ties: (s + ½)² is never an integer).
const SQRT_F32: &str = "
fn ox_sqrt_f32(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  if ((b & 0x7fffffffu) == 0u || b == 0x7f800000u || b > 0xff800000u) { return x; }
  if (b > 0x7f800000u) { return bitcast<f32>(0x7fc00000u | b); }
  let u = ox_unpack(b);
  let odd = (u.e & 1i) != 0i;
  let n = u.s << select(23u, 24u, odd);
  let half = (u.e - select(0i, 1i, odd)) / 2i;
  let m = f32(u.s) * select(0x1p-23f, 0x1p-22f, odd);
  var s = u32(sqrt(m) * 0x1p23f);
  var r = bitcast<i32>(n - s * s);
  for (var i = 0i; i < 4i; i = i + 1i) {
    if (r > i32(s)) {
      r = r - i32(2u * s + 1u);
      s = s + 1u;
    } else if (r <= -i32(s)) {
      s = s - 1u;
      r = r + i32(2u * s + 1u);
    }
  }
  return ox_ldexp(f32(s) * 0x1p-23f, half);
}
";

const DIV_I32: &str = "
fn ox_div_i32(a: i32, b: i32) -> i32 {
  if (b == 0i) { return 0i; }
  if (b == -1i) { return 0i - a; }
  return a / b;
}
";

const REM_I32: &str = "
fn ox_rem_i32(a: i32, b: i32) -> i32 {
  if (b == 0i || b == -1i) { return 0i; }
  return a % b;
}
";

const DIV_U32: &str = "
fn ox_div_u32(a: u32, b: u32) -> u32 {
  if (b == 0u) { return 0u; }
  return a / b;
}
";

const REM_U32: &str = "
fn ox_rem_u32(a: u32, b: u32) -> u32 {
  if (b == 0u) { return 0u; }
  return a % b;
}
";

/// `fmod(x, y)`, exact: with `x = mx · 2^(ex-150)` and `y = my · 2^(ey-150)` (24-bit
/// significands, subnormals with exponent 1), the remainder is `2^(ey-150) · (mx · 2^(ex-ey)
/// mod my)`, computed eight bits of exponent difference at a time.
const FMOD_F32: &str = "
fn ox_fmod_f32(x: f32, y: f32) -> f32 {
  let bx = bitcast<u32>(x);
  let by = bitcast<u32>(y);
  let ax = bx & 0x7fffffffu;
  let ay = by & 0x7fffffffu;
  let sign = bx & 0x80000000u;
  if (ay == 0u || ay > 0x7f800000u || ax >= 0x7f800000u) { return bitcast<f32>(0x7fc00000u | ax); }
  if (ax < ay) { return x; }
  if (ax == ay) { return bitcast<f32>(sign); }
  var ex = ax >> 23u;
  var mx = ax & 0x7fffffu;
  if (ex == 0u) { ex = 1u; } else { mx = mx | 0x800000u; }
  var ey = ay >> 23u;
  var my = ay & 0x7fffffu;
  if (ey == 0u) { ey = 1u; } else { my = my | 0x800000u; }
  var r = mx % my;
  var d = ex - ey;
  loop {
    if (d == 0u || r == 0u) { break; }
    let s = min(d, 8u);
    r = (r << s) % my;
    d = d - s;
  }
  if (r == 0u) { return bitcast<f32>(sign); }
  let shift = min(countLeadingZeros(r) - 8u, ey - 1u);
  r = r << shift;
  ey = ey - shift;
  if (r < 0x800000u) { return bitcast<f32>(sign | r); }
  return bitcast<f32>(sign | (ey << 23u) | (r & 0x7fffffu));
}
";

const F32_TO_I32: &str = "
fn ox_f32_to_i32(x: f32) -> i32 {
  let v = i32(clamp(x, -2147483648.0f, 2147483520.0f));
  return select(select(v, 2147483647i, x >= 2147483648.0f), 0i, ox_isnan(x));
}
";

const F32_TO_U32: &str = "
fn ox_f32_to_u32(x: f32) -> u32 {
  let v = u32(clamp(x, 0.0f, 4294967040.0f));
  return select(select(v, 0xffffffffu, x >= 4294967296.0f), 0u, ox_isnan(x) || x <= 0.0f);
}
";

/// `m · 2^k` for a normal `m`, built from bits: overflow gives ±∞ and subnormal results are
/// rounded to nearest even (so a device that flushes subnormals still produces them).
const LDEXP: &str = "
fn ox_ldexp(m: f32, k: i32) -> f32 {
  let b = bitcast<u32>(m);
  let sign = b & 0x80000000u;
  let e = i32((b >> 23u) & 0xffu);
  if (e == 0i || e == 255i) { return m; }
  let ne = e + k;
  if (ne >= 255i) { return bitcast<f32>(sign | 0x7f800000u); }
  if (ne >= 1i) { return bitcast<f32>((b & 0x807fffffu) | (u32(ne) << 23u)); }
  if (ne < -23i) { return bitcast<f32>(sign); }
  let sh = u32(1i - ne);
  let sig = (b & 0x7fffffu) | 0x800000u;
  var q = sig >> sh;
  let rest = sig & ((1u << sh) - 1u);
  let half = 1u << (sh - 1u);
  if (rest > half || (rest == half && (q & 1u) == 1u)) { q = q + 1u; }
  return bitcast<f32>(sign | q);
}
";

/// The full 64-bit product of two u32s, as (low, high).
const MUL_WIDE: &str = "
fn ox_mul_wide(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((p00 & 0xffffu) | (mid << 16u), a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}
";

/// threefry2x32 (`backend/cpu/threefry.rs`), unrolled (no loop counts against a loop limit):
/// the two words, and their xor. u32 arithmetic wraps.
const THREEFRY: &str = "
fn ox_threefry_mix(x: vec2<u32>, r: u32) -> vec2<u32> {
    let a = x.x + x.y;
    return vec2<u32>(a, ((x.y << r) | (x.y >> (32u - r))) ^ a);
}
fn ox_threefry(k0: u32, k1: u32, c0: u32, c1: u32) -> vec2<u32> {
    let k2 = k0 ^ k1 ^ 0x1bd11bdau;
    var x = vec2<u32>(c0 + k0, c1 + k1);
    x = ox_threefry_mix(x, 13u); x = ox_threefry_mix(x, 15u); x = ox_threefry_mix(x, 26u); x = ox_threefry_mix(x, 6u);
    x = x + vec2<u32>(k1, k2 + 1u);
    x = ox_threefry_mix(x, 17u); x = ox_threefry_mix(x, 29u); x = ox_threefry_mix(x, 16u); x = ox_threefry_mix(x, 24u);
    x = x + vec2<u32>(k2, k0 + 2u);
    x = ox_threefry_mix(x, 13u); x = ox_threefry_mix(x, 15u); x = ox_threefry_mix(x, 26u); x = ox_threefry_mix(x, 6u);
    x = x + vec2<u32>(k0, k1 + 3u);
    x = ox_threefry_mix(x, 17u); x = ox_threefry_mix(x, 29u); x = ox_threefry_mix(x, 16u); x = ox_threefry_mix(x, 24u);
    x = x + vec2<u32>(k1, k2 + 4u);
    x = ox_threefry_mix(x, 13u); x = ox_threefry_mix(x, 15u); x = ox_threefry_mix(x, 26u); x = ox_threefry_mix(x, 6u);
    x = x + vec2<u32>(k2, k0 + 5u);
    return x;
}
fn ox_threefry_xor(k0: u32, k1: u32, c0: u32, c1: u32) -> u32 {
    let x = ox_threefry(k0, k1, c0, c1);
    return x.x ^ x.y;
}
";
