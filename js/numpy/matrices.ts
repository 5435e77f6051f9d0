/**
 * numpy's matrix builders and diagonals: diag, diagflat, tri, tril, triu, vander, diagonal and
 * trace. Argument parsing only; the math is in Rust.
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";
import { type DTypeAndDevice } from "./creation.js";
import { creationOptions } from "./creation-options.js";

function check(fn: string, x: unknown): asserts x is Array {
  if (!(x instanceof Array)) throw new TypeError(`${fn}: expected an Array, got ${typeof x}`);
}

/**
 * Diagonal `offset` of the matrices over axes `axis1` and `axis2` (defaults 0 and 1), as a new
 * last axis; a view.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using d = np.diagonal(x); // [1, 4]
 * ```
 */
export function diagonal(a: Array, offset = 0, axis1 = 0, axis2 = 1): Array {
  check("diagonal", a);
  return new Array(call(() => wasm.diagonal(a._handle, offset, axis1, axis2)));
}

/**
 * The sum along diagonal `offset` of the matrices over `axis1` and `axis2`.
 *
 * @example
 * ```ts
 * using x = np.eye(3);
 * using y = np.trace(x); // 3
 * ```
 */
export function trace(a: Array, offset = 0, axis1 = 0, axis2 = 1): Array {
  const d = diagonal(a, offset, axis1, axis2);
  try {
    return d.sum(-1);
  } finally {
    d.dispose();
  }
}

/**
 * With a 1-D `v`: a square matrix with `v` on diagonal `k`. With a 2-D `v`: its diagonal `k` as
 * a 1-D array.
 *
 * @example
 * ```ts
 * using v = np.array([1, 2]);
 * using m = np.diag(v); // [[1, 0], [0, 2]]
 * ```
 */
export function diag(v: Array, k = 0): Array {
  check("diag", v);
  return new Array(call(() => wasm.diag(v._handle, k)));
}

/**
 * `a` with the elements above diagonal `k` set to zero (the lower triangle of the last two axes).
 *
 * @example
 * ```ts
 * using x = np.ones([2, 2]);
 * using y = np.tril(x); // [[1, 0], [1, 1]]
 * ```
 */
export function tril(a: Array, k = 0): Array {
  check("tril", a);
  return new Array(call(() => wasm.triangle(a._handle, k, true)));
}

/**
 * `a` with the elements below diagonal `k` set to zero (the upper triangle of the last two axes).
 *
 * @example
 * ```ts
 * using x = np.ones([2, 2]);
 * using u = np.triu(x); // [[1, 1], [0, 1]]
 * ```
 */
export function triu(a: Array, k = 0): Array {
  check("triu", a);
  return new Array(call(() => wasm.triangle(a._handle, k, false)));
}

/**
 * A 2-D array with the flattened input on diagonal `k`.
 *
 * @example
 * ```ts
 * using v = np.array([1, 2]);
 * using d = np.diagflat(v); // [[1, 0], [0, 2]]
 * ```
 */
export function diagflat(v: Array, k = 0): Array {
  check("diagflat", v);
  return lib.diagflat({ v, k });
}

/**
 * Ones at and below diagonal `k` of an N×M matrix.
 *
 * @example
 * ```ts
 * using t = np.tri(2, 3); // [[1, 0, 0], [1, 1, 0]]
 * ```
 */
export function tri(n: number, m: number = n, k = 0, opts: DTypeAndDevice = {}): Array {
  const { dtype, device } = creationOptions("tri", opts, false);
  return lib.tri({ n, m, k, dtype, device });
}

/**
 * The Vandermonde matrix of 1-D `x` (powers decreasing unless `increasing`): NumPy's
 * `vander(x, n, increasing)`, or jax-js's `vander(x, { n, increasing })`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using v = np.vander(x); // [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
 * using w = np.vander(x, { n: 2, increasing: true }); // [[1, 1], [1, 2], [1, 3]]
 * ```
 */
export function vander(
  x: Array,
  n: number | null | { n?: number | null; increasing?: boolean } = null,
  increasing = false,
): Array {
  check("vander", x);
  if (n !== null && typeof n === "object") {
    return lib.vander({ x, n: n.n ?? null, increasing: !!n.increasing });
  }
  return lib.vander({ x, n, increasing });
}
