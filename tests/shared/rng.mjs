// The deterministic data generators of the tests and benchmarks: a 32-bit linear congruential
// sequence uniform in [-0.5, 0.5) (the scan tests), and xorshift32 arrays uniform in [-1, 1)
// (the scan benchmarks and the scan-length tests). One definition for every file that draws
// from them.

/** A generator of deterministic numbers in [-0.5, 0.5), seeded by `seed`. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

/** `n` deterministic float32 values in [-1, 1): xorshift32 seeded by `seed` (0 counts as 1). */
export function xorshiftFloats(n, seed) {
  let s = seed >>> 0 || 1;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = ((s >>> 0) / 4294967296) * 2 - 1;
  }
  return out;
}
