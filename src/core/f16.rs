//! IEEE 754 binary16 (float16): conversion from f64 with round-to-nearest-even (NumPy's
//! `npy_double_to_half`: one rounding, overflow to ±inf, gradual underflow to subnormals) and
//! exact conversion back. float16 arrays are stored as these 16-bit patterns and computed in
//! f32, each result rounded to float16 (as NumPy's float16 loops do).

/// The largest finite float16.
pub const MAX: f64 = 65504.0;

/// `x` rounded to the nearest float16 (ties to even), as an f64 (exact).
pub fn round(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let a = x.abs();
    // Halfway between MAX and 2^16 (the next value the format would have) rounds up to inf.
    if a >= 65520.0 {
        return f64::INFINITY.copysign(x);
    }
    // The spacing of float16 values at |x|: 2^(e−10) for normal binades, 2^−24 below 2^−14.
    let e = (a.to_bits() >> 52) as i32 - 1023; // floor(log2 a) for normal f64 (all of ours)
    let quantum = 2f64.powi(e.max(-14) - 10);
    (a / quantum).round_ties_even().copysign(x) * quantum
}

/// The bit pattern of `x` as float16 (NaN becomes the quiet NaN 0x7e00, with `x`'s sign).
pub fn to_bits(x: f64) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let r = round(x).abs();
    if r.is_infinite() {
        return sign | 0x7c00;
    }
    if r < 2f64.powi(-14) {
        return sign | (r * 2f64.powi(24)) as u16; // subnormal (or zero): mantissa only
    }
    let e = (r.to_bits() >> 52) as i32 - 1023;
    let mantissa = ((r / 2f64.powi(e) - 1.0) * 1024.0) as u16;
    sign | (((e + 15) as u16) << 10) | mantissa
}

/// The value of float16 bit pattern `bits` (exact).
pub fn from_bits(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let mantissa = f64::from(bits & 0x3ff);
    let magnitude = match exponent {
        0 => mantissa * 2f64.powi(-24),
        31 if mantissa == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + mantissa / 1024.0) * 2f64.powi(e - 15),
    };
    magnitude.copysign(sign) // (a product would drop a NaN's sign)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_round_trips() {
        for bits in 0..=u16::MAX {
            let x = from_bits(bits);
            if x.is_nan() {
                assert_eq!(to_bits(x), (bits & 0x8000) | 0x7e00, "NaN keeps its sign");
            } else {
                assert_eq!(to_bits(x), bits, "{bits:#06x} = {x}");
                assert_eq!(round(x), x);
            }
        }
    }

    #[test]
    fn rounding_edges() {
        // Ties go to even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
        assert_eq!(round(1.0 + 2f64.powi(-11)), 1.0);
        assert_eq!(
            round(1.0 + 3.0 * 2f64.powi(-11)),
            1.0 + 2.0 * 2f64.powi(-10)
        );
        assert_eq!(round(65504.0 + 15.9), 65504.0);
        assert_eq!(round(65520.0), f64::INFINITY);
        assert_eq!(round(-1e6), f64::NEG_INFINITY);
        // The smallest subnormal is 2^-24; half of it (a tie) goes to zero, a bit more to it.
        assert_eq!(round(2f64.powi(-25)), 0.0);
        assert_eq!(round(2f64.powi(-25) * 1.0001), 2f64.powi(-24));
        assert_eq!(round(3.0 * 2f64.powi(-25)), 2.0 * 2f64.powi(-24));
        assert_eq!(to_bits(-0.0), 0x8000);
        assert_eq!(to_bits(0.1), 0x2e66);
        assert_eq!(to_bits(f64::NAN), 0x7e00);
    }
}
