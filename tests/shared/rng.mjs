// The deterministic test data generator of the scan tests: a 32-bit linear congruential
// sequence, uniform in [-0.5, 0.5). One definition for every file that draws from it.

/** A generator of deterministic numbers in [-0.5, 0.5), seeded by `seed`. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}
