//! WGSL sources of exp, log, tanh, erf and erfc in float32 arithmetic, accurate to a few ulp
//! (WGSL's built-in `exp`/`log`/`tanh` only promise about 3 + 2·|x| ulp or an absolute error,
//! and erf has no built-in). Subnormal results are built from bits by `ox_ldexp`, so devices
//! that flush subnormals (WGSL allows it) still return them; NaN tests look at bits.
//!
//! - exp: Cody–Waite reduction `x = k·ln2 + r` (ln2 in two parts, the first exact in 11 bits),
//!   Cephes' degree-7 polynomial on |r| ≤ ln2/2, then `ox_ldexp`. `ox_exp_split(hi, lo)`
//!   returns `exp(hi + lo)` as a significand and an exponent, for callers that scale further.
//! - log: exponent and significand from bits (subnormal inputs included), Cephes' polynomial
//!   for log(1 + t) on √½ ≤ 1 + t < √2.
//! - tanh: Cephes' odd polynomial below 0.625, `(1 − e)/(1 + e)` with `e = exp(−2|x|)` above.
//! - erf, erfc: the rational approximations of FreeBSD/musl `s_erff.c` (Sun's fdlibm), with the
//!   two exponentials of the tail merged into one `ox_exp_split` call so the tail keeps its
//!   precision down to subnormal results.

/// `exp(hi + lo) = m · 2^k`, `m` in [0.7, 1.42]: `hi` is exact (for the caller), `lo` small.
pub(super) const EXP_SPLIT: &str = "
struct OxSplit { m: f32, k: i32 }
fn ox_exp_split(hi: f32, lo: f32) -> OxSplit {
  let kf = round((hi + lo) * 1.44269502f);
  // hi − k·ln2_hi is exact; the barriers stop the driver from reassociating it away.
  let r = ox_keep(ox_keep(hi - kf * 0.693359375f) + lo) + kf * 2.12194440e-4f;
  let z = r * r;
  let p = (((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r
    + 4.1665795894e-2f) * r + 1.6666665459e-1f) * r + 5.0000001201e-1f) * z + r;
  return OxSplit(p + 1.0f, i32(kf));
}
";

pub(super) const EXP: &str = "
fn ox_exp(x: f32) -> f32 {
  if (ox_isnan(x)) { return x; }
  if (x > 89.0f) { return ox_f32(0x7f800000u); }
  if (x < -104.0f) { return 0.0f; }
  let s = ox_exp_split(x, 0.0f);
  return ox_ldexp(s.m, s.k);
}
";

pub(super) const LOG: &str = "
fn ox_log(x: f32) -> f32 {
  let a = bitcast<u32>(x);
  if (ox_isnan(x)) { return x; }
  if ((a & 0x7fffffffu) == 0u) { return ox_f32(0xff800000u); }
  if (a >= 0x80000000u) { return bitcast<f32>(0x7fc00000u | a); }
  if (a == 0x7f800000u) { return x; }
  var e: i32;
  var mant: u32;
  if (a < 0x00800000u) {
    let s = countLeadingZeros(a) - 8u;
    mant = (a << s) & 0x7fffffu;
    e = -126i - i32(s);
  } else {
    mant = a & 0x7fffffu;
    e = i32(a >> 23u) - 127i;
  }
  var f = bitcast<f32>(mant | 0x3f800000u);
  if (f > 1.41421356f) {
    f = f * 0.5f;
    e = e + 1i;
  }
  let t = f - 1.0f;
  let z = t * t;
  var y = ((((((((7.0376836292e-2f * t - 1.1514610310e-1f) * t + 1.1676998740e-1f) * t
    - 1.2420140846e-1f) * t + 1.4249322787e-1f) * t - 1.6668057665e-1f) * t
    + 2.0000714765e-1f) * t - 2.4999993993e-1f) * t + 3.3333331174e-1f) * t * z;
  let fe = f32(e);
  y = y - fe * 2.12194440e-4f;
  y = y - 0.5f * z;
  return (t + y) + fe * 0.693359375f;
}
";

pub(super) const TANH: &str = "
fn ox_tanh(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  let ab = b & 0x7fffffffu;
  let sign = b & 0x80000000u;
  if (ox_isnan(x)) { return x; }
  if (ab < 0x39800000u) { return x; }
  let a = bitcast<f32>(ab);
  if (a < 0.625f) {
    let z = x * x;
    return ((((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z
      + 1.33314422036e-1f) * z - 3.33332819422e-1f) * z * x + x;
  }
  if (a > 9.1f) { return bitcast<f32>(sign | 0x3f800000u); }
  let e = ox_exp(-2.0f * a);
  let t = (1.0f - e) / (1.0f + e);
  return bitcast<f32>(sign | bitcast<u32>(t));
}
";

/// The rational approximations of fdlibm's erff: `ox_erf_small` is erf(x)/x − 1 for
/// |x| < 0.84375, `ox_erf_mid` is erf(|x|) − erx for 0.84375 ≤ |x| < 1.25.
pub(super) const ERF_RATIONAL: &str = "
fn ox_erf_small(x: f32) -> f32 {
  let z = x * x;
  let r = 1.2837916613e-01f + z * (-3.2504209876e-01f + z * (-2.8481749818e-02f
    + z * (-5.7702702470e-03f + z * -2.3763017452e-05f)));
  let s = 1.0f + z * (3.9791721106e-01f + z * (6.5022252500e-02f + z * (5.0813062117e-03f
    + z * (1.3249473704e-04f + z * -3.9602282413e-06f))));
  return r / s;
}
fn ox_erf_mid(a: f32) -> f32 {
  let s = a - 1.0f;
  let p = -2.3621185683e-03f + s * (4.1485610604e-01f + s * (-3.7220788002e-01f
    + s * (3.1834661961e-01f + s * (-1.1089469492e-01f + s * (3.5478305072e-02f
    + s * -2.1663755178e-03f)))));
  let q = 1.0f + s * (1.0642088205e-01f + s * (5.4039794207e-01f + s * (7.1828655899e-02f
    + s * (1.2617121637e-01f + s * (1.3637083583e-02f + s * 1.1984500103e-02f)))));
  return p / q;
}
";

/// erfc(a) for 1.25 ≤ a < 28: `exp(−z² − 0.5625 + (z − a)(z + a) + R/S) / a`, with `z` the
/// top 12 bits of `a`: `−z²` is exact and goes to `ox_exp_split` as the head, the rest as the
/// tail (fdlibm's `expf(−z² − 0.5625)` rounds the sum, up to 2^-18 relative near a = 8).
pub(super) const ERF_TAIL: &str = "
fn ox_erfc_tail(a: f32) -> f32 {
  let s = 1.0f / (a * a);
  var r: f32;
  var q: f32;
  if (a < 2.85714293f) {
    r = -9.8649440333e-03f + s * (-6.9385856390e-01f + s * (-1.0558626175e+01f
      + s * (-6.2375331879e+01f + s * (-1.6239666748e+02f + s * (-1.8460508728e+02f
      + s * (-8.1287437439e+01f + s * -9.8143291473e+00f))))));
    q = 1.0f + s * (1.9651271820e+01f + s * (1.3765776062e+02f + s * (4.3456588745e+02f
      + s * (6.4538726807e+02f + s * (4.2900814819e+02f + s * (1.0863500214e+02f
      + s * (6.5702495575e+00f + s * -6.0424413532e-02f)))))));
  } else {
    r = -9.8649431020e-03f + s * (-7.9928326607e-01f + s * (-1.7757955551e+01f
      + s * (-1.6063638306e+02f + s * (-6.3756646729e+02f + s * (-1.0250950928e+03f
      + s * -4.8351919556e+02f)))));
    q = 1.0f + s * (3.0338060379e+01f + s * (3.2579251099e+02f + s * (1.5367296143e+03f
      + s * (3.1998581543e+03f + s * (2.5530502930e+03f + s * (4.7452853394e+02f
      + s * -2.2440952301e+01f))))));
  }
  let z = bitcast<f32>(bitcast<u32>(a) & 0xfffff000u);
  let e = ox_exp_split(-z * z, ((z - a) * (z + a) - 0.5625f) + r / q);
  return ox_ldexp(e.m / a, e.k);
}
";

pub(super) const ERF: &str = "
fn ox_erf(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  let ab = b & 0x7fffffffu;
  let sign = b & 0x80000000u;
  if (ox_isnan(x)) { return x; }
  var v: f32;
  if (ab < 0x3f580000u) {
    if (ab < 0x31800000u) { return 0.125f * (8.0f * x + 1.0270333290e+00f * x); }
    return x + x * ox_erf_small(x);
  }
  let a = bitcast<f32>(ab);
  if (ab < 0x3fa00000u) {
    v = 8.4506291151e-01f + ox_erf_mid(a);
  } else if (ab >= 0x40c00000u) {
    v = 1.0f;
  } else {
    v = 1.0f - ox_erfc_tail(a);
  }
  return bitcast<f32>(sign | bitcast<u32>(v));
}
";

pub(super) const ERFC: &str = "
fn ox_erfc(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  let ab = b & 0x7fffffffu;
  let neg = b >= 0x80000000u;
  if (ox_isnan(x)) { return x; }
  if (ab < 0x3f580000u) {
    if (ab < 0x23800000u) { return 1.0f - x; }
    let y = ox_erf_small(x);
    if (b < 0x3e800000u || neg) { return 1.0f - (x + x * y); }
    return 0.5f - (x * y + (x - 0.5f));
  }
  let a = bitcast<f32>(ab);
  if (ab < 0x3fa00000u) {
    let pq = ox_erf_mid(a);
    if (neg) { return 1.0f + (8.4506291151e-01f + pq); }
    return (1.0f - 8.4506291151e-01f) - pq;
  }
  if (neg) {
    if (ab >= 0x40c00000u) { return 2.0f; }
    return 2.0f - ox_erfc_tail(a);
  }
  if (ab >= 0x41e00000u) { return 0.0f; }
  return ox_erfc_tail(a);
}
";
