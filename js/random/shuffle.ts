/**
 * `random`'s permutations and samples of arrays: permutation and choice, with JAX's
 * constructions. Keys are not consumed. The math is in Rust.
 */
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";
import * as checks from "../check.js";

/**
 * A shuffled `arange(x)`, or `x` shuffled along `axis` (rows kept whole unless `independent`).
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using p = random.permutation(key, 4); // the numbers 0…3 in a random order
 * p.shape; // [4]
 * ```
 */
export function permutation(key: Array, x: number | Array, axis = 0, independent = false): Array {
  if (typeof x === "number") {
    if (!Number.isInteger(x) || x < 0) throw new TypeError("permutation: x must be a count");
    return lib.permutationCount({ key, n: x });
  }
  return lib.permutation({ key, x, axis, independent });
}

/** jax-js's options object of `choice`. */
export interface ChoiceOptions {
  /** Default `[]`. */
  shape?: number[];
  /** Default `true`. */
  replace?: boolean;
  /** Weights of the entries (default uniform). */
  p?: Array | null;
  /** The axis of `a` to draw from (default 0). */
  axis?: number;
}

/**
 * Samples of `a` (or of `arange(a)` for a number), with or without replacement and weights `p`.
 *
 * @example
 * ```ts
 * using key = random.key(0);
 * using c = random.choice(key, 10, [3], false); // three distinct values of 0…9
 * c.shape; // [3]
 * using d = random.choice(key, 10, { shape: [3], replace: false }); // jax-js's options form
 * ```
 */
export function choice(
  key: Array,
  a: number | Array,
  shape: number[] | ChoiceOptions = [],
  replace = true,
  p: Array | null = null,
  axis = 0,
): Array {
  if (shape !== null && typeof shape === "object" && !globalThis.Array.isArray(shape)) {
    const o = shape;
    return choice(key, a, o.shape ?? [], o.replace ?? true, o.p ?? null, o.axis ?? 0);
  }
  // A 0-d array is a count, as in JAX (which needs it concrete too).
  if (a instanceof Array && a.ndim === 0) a = Number(a.item());
  const dims = [...checks.shape("choice", shape)];
  const args = { key, shape: dims, replace, p, axis };
  return typeof a === "number" ? lib.choice({ ...args, n: a }) : lib.choice({ ...args, a });
}
