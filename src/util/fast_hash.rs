//! A fast non-cryptographic hasher for the caches' maps (`lru`): the multiply-rotate hash of
//! rustc's `FxHasher`. Cache keys are whole kernels and handle lists hashed on every eager
//! operation, where std's SipHash costs more than the rest of the lookup; no key comes from
//! an adversary that could aim collisions at it.

use std::hash::{BuildHasherDefault, Hasher};

/// The multiplier of rustc's `FxHasher` (64-bit).
const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// Hashes each word as `h = (h.rotate_left(5) ^ word) * SEED`.
#[derive(Default, Clone, Copy)]
pub struct FastHasher {
    hash: u64,
}

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }

    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// The `BuildHasher` of [`FastHasher`] (for `HashMap::with_hasher`).
pub type FastBuildHasher = BuildHasherDefault<FastHasher>;

#[cfg(test)]
mod tests {
    use super::FastBuildHasher;
    use std::collections::HashSet;
    use std::hash::BuildHasher;

    #[test]
    fn distinguishes_nearby_keys() {
        let build = FastBuildHasher::default();
        let keys: Vec<Vec<usize>> = (0..64)
            .flat_map(|a| (0..64).map(move |b| vec![a, b]))
            .collect();
        let hashes: HashSet<u64> = keys.iter().map(|k| build.hash_one(k)).collect();
        assert_eq!(hashes.len(), keys.len());
        assert_ne!(build.hash_one("abcdefgh1"), build.hash_one("abcdefgh2"));
    }
}
