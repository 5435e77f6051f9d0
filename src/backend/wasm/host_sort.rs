//! The wasm device's sort (`kernel::RoutineKind::Sort`), run as code of this module on its
//! linear memory (`host.rs`). Each element maps to an unsigned key that orders as the routine's
//! comparison (NaN canonical and largest, `-0.0` as `0.0`, signed integers offset); a row is
//! then sorted as (key, position) pairs — by insertion when short, otherwise by a
//! least-significant-digit radix sort, 8 bits a pass, skipping the passes where every key has
//! the same digit. Both are stable, so equal keys keep their order. The sorted values are the
//! input's elements gathered by position (NaN payloads and signed zeros survive).

use crate::core::DType;

/// Rows up to this length are sorted by insertion.
const INSERTION_MAX: usize = 48;

/// An unsigned sort key of `BYTES` bytes.
trait Key: Copy + Ord + Default {
    const BYTES: usize;
    /// Byte `pass` (0: least significant).
    fn digit(self, pass: usize) -> usize;
}

macro_rules! key {
    ($t:ty) => {
        impl Key for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn digit(self, pass: usize) -> usize {
                ((self >> (8 * pass)) & 0xff) as usize
            }
        }
    };
}
key!(u16);
key!(u32);
key!(u64);

/// IEEE bits as an order-preserving key: NaN the largest, `-0.0` as `0.0`, negatives reversed.
macro_rules! float_key {
    ($name:ident, $t:ty, $inf:expr) => {
        fn $name(bits: $t) -> $t {
            let sign: $t = 1 << (<$t>::BITS - 1);
            let magnitude = bits & !sign;
            if magnitude > $inf {
                return <$t>::MAX;
            }
            let bits = if magnitude == 0 { 0 } else { bits };
            if bits & sign != 0 {
                !bits
            } else {
                bits | sign
            }
        }
    };
}
float_key!(f16_key, u16, 0x7c00);
float_key!(f32_key, u32, 0x7f80_0000);
float_key!(f64_key, u64, 0x7ff0_0000_0000_0000);

/// Working memory for one row: keys and positions, twice (radix passes ping-pong).
struct Scratch<K> {
    keys: Vec<K>,
    idx: Vec<u32>,
    keys2: Vec<K>,
    idx2: Vec<u32>,
}

impl<K: Key> Scratch<K> {
    fn new(n: usize) -> Self {
        Scratch {
            keys: vec![K::default(); n],
            idx: vec![0; n],
            keys2: vec![K::default(); if n > INSERTION_MAX { n } else { 0 }],
            idx2: vec![0; if n > INSERTION_MAX { n } else { 0 }],
        }
    }

    /// Sorts `keys` with `idx` (holding `0..n`) along.
    fn sort(&mut self) {
        if self.keys.len() <= INSERTION_MAX {
            insertion(&mut self.keys, &mut self.idx);
        } else {
            self.radix();
        }
    }

    fn radix(&mut self) {
        let n = self.keys.len();
        let mut hist = vec![[0u32; 256]; K::BYTES];
        for &k in &self.keys {
            for (p, h) in hist.iter_mut().enumerate() {
                h[k.digit(p)] += 1;
            }
        }
        for (p, h) in hist.iter().enumerate() {
            if h[self.keys[0].digit(p)] as usize == n {
                continue; // every key has this digit: the pass would not move anything
            }
            let mut offsets = [0u32; 256];
            let mut sum = 0;
            for (o, &c) in offsets.iter_mut().zip(h) {
                *o = sum;
                sum += c;
            }
            for i in 0..n {
                let k = self.keys[i];
                let d = k.digit(p);
                let at = offsets[d] as usize;
                offsets[d] += 1;
                self.keys2[at] = k;
                self.idx2[at] = self.idx[i];
            }
            std::mem::swap(&mut self.keys, &mut self.keys2);
            std::mem::swap(&mut self.idx, &mut self.idx2);
        }
    }
}

/// Stable insertion sort of `keys`, moving `idx` along.
fn insertion<K: Key>(keys: &mut [K], idx: &mut [u32]) {
    for i in 1..keys.len() {
        let (k, x) = (keys[i], idx[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > k {
            keys[j] = keys[j - 1];
            idx[j] = idx[j - 1];
            j -= 1;
        }
        keys[j] = k;
        idx[j] = x;
    }
}

/// Sorts the rows of `x` (elements `T`, keys from `key`) into `sorted` and `perm`.
fn rows<T: Copy, K: Key>(
    n: usize,
    x: &[T],
    sorted: &mut [T],
    perm: &mut [i32],
    key: impl Fn(T) -> K,
) {
    if n == 0 {
        return;
    }
    let mut s = Scratch::<K>::new(n);
    let rows = x.chunks_exact(n).zip(sorted.chunks_exact_mut(n));
    for ((row, out), p) in rows.zip(perm.chunks_exact_mut(n)) {
        for (i, (&v, (k, ix))) in row
            .iter()
            .zip(s.keys.iter_mut().zip(&mut s.idx))
            .enumerate()
        {
            *k = key(v);
            *ix = i as u32;
        }
        s.sort();
        for ((o, q), &ix) in out.iter_mut().zip(p.iter_mut()).zip(&s.idx) {
            *o = row[ix as usize];
            *q = ix as i32;
        }
    }
}

/// `bytes` as elements of `T` (the buffers are 16-byte aligned, whole elements).
fn cast<T>(bytes: &[u8]) -> &[T] {
    // SAFETY: the integer element types have no invalid bit patterns; alignment is checked.
    let (head, body, tail) = unsafe { bytes.align_to::<T>() };
    assert!(head.is_empty() && tail.is_empty(), "misaligned sort buffer");
    body
}

fn cast_mut<T>(bytes: &mut [u8]) -> &mut [T] {
    // SAFETY: as in `cast`.
    let (head, body, tail) = unsafe { bytes.align_to_mut::<T>() };
    assert!(head.is_empty() && tail.is_empty(), "misaligned sort buffer");
    body
}

/// Sorts the `batch` rows of `n` elements of `dtype` in `x` into `sorted` (same layout) and
/// `perm` (positions).
pub fn sort(dtype: DType, n: usize, x: &[u8], sorted: &mut [u8], perm: &mut [i32]) {
    match dtype {
        DType::Float16 => rows(n, cast::<u16>(x), cast_mut(sorted), perm, f16_key),
        DType::Float32 => rows(n, cast::<u32>(x), cast_mut(sorted), perm, f32_key),
        DType::Float64 => rows(n, cast::<u64>(x), cast_mut(sorted), perm, f64_key),
        DType::Int32 => rows(n, cast::<u32>(x), cast_mut(sorted), perm, |b| {
            b ^ 0x8000_0000
        }),
        DType::Uint32 | DType::Bool => rows(n, cast::<u32>(x), cast_mut(sorted), perm, |b| b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_keys_order_as_the_routine() {
        let v = [
            f32::NEG_INFINITY,
            -1.5,
            -1e-40,
            0.0,
            1e-40,
            2.0,
            f32::INFINITY,
        ];
        let keys: Vec<u32> = v.iter().map(|x| f32_key(x.to_bits())).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(f32_key((-0.0f32).to_bits()), f32_key(0.0f32.to_bits()));
        assert_eq!(f32_key(f32::NAN.to_bits()), u32::MAX);
        assert_eq!(f32_key((-f32::NAN).to_bits()), u32::MAX);
        assert_eq!(f64_key((-0.0f64).to_bits()), f64_key(0.0f64.to_bits()));
        assert!(f64_key(f64::INFINITY.to_bits()) < f64_key(f64::NAN.to_bits()));
        assert!(f16_key(0xfc00) < f16_key(0x8001) && f16_key(0x8001) < f16_key(0x0001));
        assert_eq!(f16_key(0x8000), f16_key(0));
    }
}
