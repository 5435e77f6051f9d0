//! threefry2x32, the definition the wasm and WGSL emitters are tested against: Random123's
//! Threefry-2x32 with 20 rounds, JAX's default PRNG. Key words `(k0, k1)` and the third key
//! word `k0 ^ k1 ^ 0x1BD11BDA` are injected before the first round and after every fourth
//! (the counter of injections added to the second word); each round adds the second word to
//! the first and replaces the second with its rotation, xor-ed with the new first word. All
//! arithmetic wraps modulo 2³².

use super::scalar::Scalar;
use crate::core::ops::{ThreefryMode, THREEFRY_PARITY, THREEFRY_ROTATIONS};
use crate::util::{Error, Result};

/// The two output words of threefry2x32 with key `key` on counter `ctr`.
pub fn threefry2x32(key: [u32; 2], ctr: [u32; 2]) -> [u32; 2] {
    let ks = [key[0], key[1], key[0] ^ key[1] ^ THREEFRY_PARITY];
    let mut x = [ctr[0].wrapping_add(ks[0]), ctr[1].wrapping_add(ks[1])];
    for group in 0..5 {
        for r in THREEFRY_ROTATIONS[group % 2] {
            x[0] = x[0].wrapping_add(x[1]);
            x[1] = x[1].rotate_left(r) ^ x[0];
        }
        x[0] = x[0].wrapping_add(ks[(group + 1) % 3]);
        x[1] = x[1]
            .wrapping_add(ks[(group + 2) % 3])
            .wrapping_add(group as u32 + 1);
    }
    x
}

/// The ALU node: `mode`'s result of threefry2x32 of uint32 operands `[k0, k1, c0, c1]`.
pub fn eval(mode: ThreefryMode, operands: [Scalar; 4]) -> Result<Scalar> {
    let mut words = [0u32; 4];
    for (w, s) in words.iter_mut().zip(operands) {
        *w = match s {
            Scalar::U32(v) => v,
            other => {
                return Err(Error::new(
                    "cpu",
                    format!("internal error: threefry of a {:?} operand", other.dtype()),
                ))
            }
        };
    }
    let [k0, k1, c0, c1] = words;
    Ok(Scalar::U32(mode.pick(threefry2x32([k0, k1], [c0, c1]))))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random123's known-answer tests for threefry2x32_20 (`kat_vectors`).
    #[test]
    fn known_answers() {
        let cases = [
            ([0, 0], [0, 0], [0x6b20_0159, 0x99ba_4efe]),
            (
                [0xffff_ffff, 0xffff_ffff],
                [0xffff_ffff, 0xffff_ffff],
                [0x1cb9_96fc, 0xbb00_2be7],
            ),
            (
                [0x1319_8a2e, 0x0370_7344],
                [0x243f_6a88, 0x85a3_08d3],
                [0xc492_3a9c, 0x483d_f7a0],
            ),
        ];
        for (key, ctr, want) in cases {
            assert_eq!(
                threefry2x32(key, ctr),
                want,
                "key {key:x?} counter {ctr:x?}"
            );
        }
    }

    #[test]
    fn modes_pick_words() {
        let [x0, x1] = threefry2x32([1, 2], [3, 4]);
        let ops = [1, 2, 3, 4].map(Scalar::U32);
        assert_eq!(eval(ThreefryMode::Word0, ops).unwrap(), Scalar::U32(x0));
        assert_eq!(eval(ThreefryMode::Word1, ops).unwrap(), Scalar::U32(x1));
        assert_eq!(eval(ThreefryMode::Xor, ops).unwrap(), Scalar::U32(x0 ^ x1));
        let bad = [
            Scalar::I32(1),
            Scalar::U32(2),
            Scalar::U32(3),
            Scalar::U32(4),
        ];
        assert!(eval(ThreefryMode::Xor, bad).is_err());
    }
}
