/**
 * `random`'s keys and its basic draws (bits, uniform, normal, bernoulli): jax-js's key-based
 * API. Keys are uint32 `[2]` arrays; the bits are JAX's threefry-2x32 (partitionable), so the
 * same seed gives the same numbers as JAX. Keys are not consumed: reusing a key reproduces the
 * same numbers.
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { type Device } from "../device.js";
import * as checks from "../check.js";

function checkKey(fn: string, key: unknown): asserts key is Array {
  if (!(key instanceof Array))
    throw new TypeError(`${fn}: the key must be an Array (from random.key)`);
}

const dims = (shape: number | number[], fn = "random"): Float64Array => checks.shape(fn, shape);

function draw(kind: string, key: Array, shape: number | number[], a = 0, b = 0): Array {
  checkKey(kind, key);
  return new Array(call(() => wasm.random(kind, key._handle, dims(shape), a, b)));
}

/**
 * A key from an integer seed: `[0, seed]`.
 *
 * @example
 * ```ts
 * using k = random.key(42); // [0, 42], uint32
 * k.dtype; // "uint32"
 * ```
 */
export function key(seed: number, opts: { device?: Device } = {}): Array {
  if (typeof seed !== "number") throw new TypeError("key: the seed must be a number");
  return new Array(call(() => wasm.randomKey(seed, checks.device("key", opts.device))));
}

/**
 * `num` new keys (shape `[...num, 2]`).
 *
 * @example
 * ```ts
 * using k = random.key(0);
 * using ks = random.split(k, 3);
 * ks.shape; // [3, 2]
 * ```
 */
export function split(k: Array, num: number | number[] = 2): Array {
  const shape = typeof num === "number" ? [num] : num;
  const n = shape.reduce((a, b) => a * b, 1);
  const flat = draw("split", k, [], n);
  if (shape.length === 1) return flat;
  try {
    return flat.reshape([...shape, 2]);
  } finally {
    flat.dispose();
  }
}

/**
 * 32 random bits per element (uint32).
 *
 * @example
 * ```ts
 * using k = random.key(0);
 * using b = random.bits(k, [2]);
 * b.dtype; // "uint32"
 * ```
 */
export function bits(k: Array, shape: number | number[] = []): Array {
  return draw("bits", k, shape);
}

/**
 * Uniform float32 in `[minval, maxval)`.
 *
 * @example
 * ```ts
 * using k = random.key(0);
 * using u = random.uniform(k, [2, 3], { minval: -1, maxval: 1 });
 * u.shape; // [2, 3]
 * ```
 */
export function uniform(
  k: Array,
  shape: number | number[] = [],
  opts: { minval?: number; maxval?: number } = {},
): Array {
  const { minval = 0, maxval = 1 } = opts;
  if (!(minval < maxval))
    throw new Error(`uniform: minval (${minval}) must be below maxval (${maxval})`);
  return draw("uniform", k, shape, minval, maxval);
}

/**
 * Standard normal float32 (JAX's inverse-erf construction).
 *
 * @example
 * ```ts
 * using k = random.key(0);
 * using z = random.normal(k, [1000]);
 * using m = np.mean(z); // close to 0
 * ```
 */
export function normal(k: Array, shape: number | number[] = []): Array {
  return draw("normal", k, shape);
}

/**
 * Bool, true with probability `p`.
 *
 * @example
 * ```ts
 * using k = random.key(0);
 * using b = random.bernoulli(k, 0.3, [4]);
 * b.dtype; // "bool"
 * ```
 */
export function bernoulli(k: Array, p = 0.5, shape: number | number[] = []): Array {
  return draw("bernoulli", k, shape, p);
}
