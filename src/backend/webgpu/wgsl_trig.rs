//! WGSL sources of sin, cos, asin and atan in float32 arithmetic, accurate to a few ulp over the
//! whole float range (WGSL's built-ins only promise an absolute error of 2^-11 for sin/cos on
//! [−π, π] and nothing outside it).
//!
//! - sin, cos: |x| < π/4 goes straight to Cephes' polynomials; larger arguments are reduced
//!   exactly by Payne–Hanek in integer arithmetic (`ox_trig_reduce`): a 96-bit window of the bits
//!   of 2/π, chosen by the exponent, times the 24-bit significand gives the quadrant and a 62-bit
//!   fraction, converted to `r = f·π/2` with π/2 in two parts (the first product exact). This is
//!   exact for every float32 (1e30 included), as the cpu interpreter's f64 libm is.
//! - asin: Cephes' polynomial for |x| ≤ ½; above, fdlibm's `π/2 − 2·asin(√((1−|x|)/2))` with the
//!   square root split into a 12-bit head and a correction so its rounding does not show.
//! - atan: Cephes' reduction to |t| ≤ tan(π/8) and polynomial, with π/4 and π/2 in two parts.

/// Payne–Hanek reduction of a finite `a ≥ π/4`: `a = (4j + n)·π/2 + r`, |r| ≤ π/4.
pub(super) const TRIG_REDUCE: &str = "
struct OxTrig { r: f32, n: u32 }
fn ox_2opi(k: u32) -> u32 {
  var t = array<u32, 10>(0u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u,
    0x3c439041u, 0xfe5163abu, 0xdebbc561u, 0xb7246e3au);
  return t[min(k, 9u)];
}
fn ox_funnel(hi: u32, lo: u32, s: u32) -> u32 {
  return select((hi << (s & 31u)) | (lo >> ((32u - s) & 31u)), hi, s == 0u);
}
fn ox_trig_reduce(a: f32) -> OxTrig {
  let b = bitcast<u32>(a);
  let sig = (b & 0x7fffffu) | 0x800000u;
  // a = sig·2^(e−23); the window starts at bit e − 24 of 2/π (bit 1 is the first after the
  // point; the table starts with 32 zero bits), so that a·2/π ≡ sig·window·2^−94 (mod 4).
  let g0 = (b >> 23u) - 120u;
  let w = g0 >> 5u;
  let s = g0 & 31u;
  let t0 = ox_2opi(w);
  let t1 = ox_2opi(w + 1u);
  let t2 = ox_2opi(w + 2u);
  let t3 = ox_2opi(w + 3u);
  let p0 = ox_mul_wide(sig, ox_funnel(t2, t3, s));
  let p1 = ox_mul_wide(sig, ox_funnel(t1, t2, s));
  let p2 = ox_mul_wide(sig, ox_funnel(t0, t1, s));
  let m1 = p1.x + p0.y;
  let m2 = p2.x + p1.y + select(0u, 1u, m1 < p1.x);
  // Bits 31..30 of m2 are the quadrant, the rest of m2 and m1 the fraction.
  var n = m2 >> 30u;
  var fh = m2 & 0x3fffffffu;
  var fl = m1;
  var neg = false;
  if ((fh & 0x20000000u) != 0u) {
    n = n + 1u;
    neg = true;
    fl = ~fl + 1u;
    fh = (~fh + select(0u, 1u, fl == 0u)) & 0x3fffffffu;
  }
  var sh: u32;
  var top: u32;
  var low: u32;
  if (fh != 0u) {
    sh = countLeadingZeros(fh);
    top = ox_funnel(fh, fl, sh);
    low = fl << sh;
  } else if (fl != 0u) {
    let lz = countLeadingZeros(fl);
    sh = 32u + lz;
    top = fl << lz;
    low = 0u;
  } else {
    return OxTrig(0.0f, n & 3u);
  }
  // fraction = top·2^(−30−sh) + low·2^(−62−sh)
  let scale = bitcast<f32>((97u - sh) << 23u);
  let f_hi = f32(top & 0xfff00000u) * scale;
  let f_lo = (f32(top & 0x000fffffu) + f32(low) * 0x1p-32f) * scale;
  var r = f_hi * 1.57080078125f + (f_hi * -4.454454938240815e-06f + f_lo * 1.5707963705062866f);
  if (neg) { r = -r; }
  return OxTrig(r, n & 3u);
}
";

/// sin and cos on |r| ≤ π/4 (Cephes).
pub(super) const SIN_COS_KERNELS: &str = "
fn ox_sin_k(r: f32) -> f32 {
  let z = r * r;
  return ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * r + r;
}
fn ox_cos_k(r: f32) -> f32 {
  let z = r * r;
  return ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f)
    * z * z - 0.5f * z + 1.0f;
}
";

pub(super) const SIN: &str = "
fn ox_sin(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  let ab = b & 0x7fffffffu;
  if (ab >= 0x7f800000u) { return bitcast<f32>(0x7fc00000u | ab); }
  if (ab < 0x39800000u) { return x; }
  var red = OxTrig(bitcast<f32>(ab), 0u);
  if (ab >= 0x3f490fdbu) { red = ox_trig_reduce(bitcast<f32>(ab)); }
  var v: f32;
  switch (red.n) {
    case 0u: { v = ox_sin_k(red.r); }
    case 1u: { v = ox_cos_k(red.r); }
    case 2u: { v = -ox_sin_k(red.r); }
    default: { v = -ox_cos_k(red.r); }
  }
  return bitcast<f32>(bitcast<u32>(v) ^ (b & 0x80000000u));
}
";

pub(super) const COS: &str = "
fn ox_cos(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  let ab = b & 0x7fffffffu;
  if (ab >= 0x7f800000u) { return bitcast<f32>(0x7fc00000u | ab); }
  if (ab < 0x39800000u) { return 1.0f; }
  var red = OxTrig(bitcast<f32>(ab), 0u);
  if (ab >= 0x3f490fdbu) { red = ox_trig_reduce(bitcast<f32>(ab)); }
  switch (red.n) {
    case 0u: { return ox_cos_k(red.r); }
    case 1u: { return -ox_sin_k(red.r); }
    case 2u: { return -ox_cos_k(red.r); }
    default: { return ox_sin_k(red.r); }
  }
}
";

pub(super) const ASIN: &str = "
fn ox_asin_p(z: f32) -> f32 {
  return (((4.2163199048e-2f * z + 2.4181311049e-2f) * z + 4.5470025998e-2f) * z
    + 7.4953002686e-2f) * z + 1.6666752422e-1f;
}
fn ox_asin(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  let ab = b & 0x7fffffffu;
  let sign = b & 0x80000000u;
  if (ab > 0x3f800000u) { return bitcast<f32>(0x7fc00000u | ab); }
  if (ab < 0x39800000u) { return x; }
  let a = bitcast<f32>(ab);
  var v: f32;
  if (a <= 0.5f) {
    let z = a * a;
    v = ox_asin_p(z) * z * a + a;
  } else if (ab == 0x3f800000u) {
    v = 1.5707963705062866f;
  } else {
    // asin(a) = π/2 − 2·asin(s), s = √t, t = (1 − a)/2 exact; s = w + c with w its top
    // 12 bits and c = (t − w²)/(s + w) (t − w² is exact).
    let t = (1.0f - a) * 0.5f;
    let s = sqrt(t);
    let w = bitcast<f32>(bitcast<u32>(s) & 0xfffff000u);
    let c = (t - w * w) / (s + w);
    let p = 2.0f * s * (t * ox_asin_p(t)) - (-4.371138828673793e-08f - 2.0f * c);
    let q = 0.7853981852531433f - 2.0f * w;
    v = 0.7853981852531433f - (p - q);
  }
  return bitcast<f32>(sign | bitcast<u32>(v));
}
";

pub(super) const ATAN: &str = "
fn ox_atan(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  let ab = b & 0x7fffffffu;
  if (ox_isnan(x)) { return x; }
  if (ab < 0x39800000u) { return x; }
  let a = bitcast<f32>(ab);
  var hi = 0.0f;
  var lo = 0.0f;
  var t = a;
  if (a > 2.414213562373095f) {
    hi = 1.5707963705062866f;
    lo = -4.371138828673793e-08f;
    t = -1.0f / a;
  } else if (a > 0.4142135623730950f) {
    hi = 0.7853981852531433f;
    lo = -2.1855694143368964e-08f;
    t = (a - 1.0f) / (a + 1.0f);
  }
  let z = t * t;
  let p = (((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z
    - 3.33329491539e-1f) * z * t + t;
  let v = hi + (p + lo);
  return bitcast<f32>((b & 0x80000000u) | bitcast<u32>(v));
}
";
