/**
 * numpy's products (tensordot, inner, outer, vecdot, vdot, matvec, vecmat, cross) and
 * polynomials (polyval, polyadd, polysub, polymul, polyder). Argument parsing only; the math
 * is in Rust.
 */
import { Array } from "../array.js";
import type { ArrayInput } from "../lib.js";
import * as lib from "../lib-calls.js";

/**
 * Contracts the last `axes` axes of `a` with the first of `b`, or the listed axis pairs.
 *
 * @example
 * ```ts
 * using a = np.ones([2, 3]);
 * using b = np.ones([3, 4]);
 * using t = np.tensordot(a, b, 1); // every element is 3
 * t.shape; // [2, 4]
 * ```
 */
export function tensordot(a: Array, b: Array, axes: number | [number[], number[]] = 2): Array {
  if (typeof axes === "number") return lib.tensordot({ a, b, count: axes });
  const [aAxes, bAxes] = axes.map((x) => (typeof x === "number" ? [x] : x));
  if (aAxes.length !== bAxes.length) throw new Error("tensordot: axis lists differ in length");
  return lib.tensordot({ a, b, aAxes, bAxes });
}

/**
 * Contracts the last axes.
 *
 * @example
 * ```ts
 * using a = np.array([1, 2, 3]);
 * using b = np.array([4, 5, 6]);
 * using i = np.inner(a, b); // 32
 * ```
 */
export const inner = (a: Array, b: Array): Array => lib.inner({ a, b });
/**
 * The outer product of the flattened inputs.
 *
 * @example
 * ```ts
 * using o = np.outer([1, 2], [3, 4]); // [[3, 4], [6, 8]]
 * ```
 */
export const outer = (a: ArrayInput, b: ArrayInput): Array => lib.outer({ a, b });
/**
 * The dot product of the flattened inputs.
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * using v = np.vdot(a, a); // 30
 * ```
 */
export const vdot = (a: Array, b: Array): Array => lib.vdot({ a, b });
/**
 * Matrix-vector product, batched.
 *
 * @example
 * ```ts
 * using m = np.array([[1, 2], [3, 4]]);
 * using v = np.array([1, 1]);
 * using y = np.matvec(m, v); // [3, 7]
 * ```
 */
export const matvec = (x1: Array, x2: Array): Array => lib.matvec({ a: x1, b: x2 });
/**
 * Vector-matrix product, batched.
 *
 * @example
 * ```ts
 * using v = np.array([1, 1]);
 * using m = np.array([[1, 2], [3, 4]]);
 * using y = np.vecmat(v, m); // [4, 6]
 * ```
 */
export const vecmat = (x1: Array, x2: Array): Array => lib.vecmat({ a: x1, b: x2 });
/**
 * Cross product along the last axis (length 3, or 2 for the z component).
 *
 * @example
 * ```ts
 * using a = np.array([1, 0, 0]);
 * using b = np.array([0, 1, 0]);
 * using c = np.cross(a, b); // [0, 0, 1]
 * ```
 */
export const cross = (a: Array, b: Array): Array => lib.cross({ a, b });

/**
 * The dot product along `axis` (broadcasting the other axes).
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * using b = np.array([[1, 1], [1, 1]]);
 * using d = np.vecdot(a, b); // [3, 7]
 * ```
 */
export function vecdot(x: Array, y: Array, opts: { axis?: number } = {}): Array {
  return lib.vecdot({ a: x, b: y, axis: opts.axis });
}

/**
 * Evaluates the polynomial with coefficients `p` (highest power first) at `x`.
 *
 * @example
 * ```ts
 * using y = np.polyval([1, 0, -1], [0, 2]); // [-1, 3]: x² − 1
 * ```
 */
export const polyval = (p: ArrayInput, x: ArrayInput): Array => lib.polyval({ a: p, b: x });
/**
 * The sum of two polynomials given by their coefficients (highest power first), as NumPy's
 * `polyadd`.
 *
 * @example
 * ```ts
 * using p = np.polyadd([1, 2], [1, 0, 0]); // [1, 1, 2]
 * ```
 */
export const polyadd = (a1: ArrayInput, a2: ArrayInput): Array => lib.polyadd({ a: a1, b: a2 });
/**
 * The difference of two polynomials given by their coefficients (highest power first).
 *
 * @example
 * ```ts
 * using p = np.polysub([1, 2], [1, 1]); // [0, 1]
 * ```
 */
export const polysub = (a1: ArrayInput, a2: ArrayInput): Array => lib.polysub({ a: a1, b: a2 });
/**
 * The product of two polynomials given by their coefficients (highest power first).
 *
 * @example
 * ```ts
 * using y = np.polymul([1, 1], [1, -1]); // [1, 0, -1]: (x + 1)(x − 1)
 * ```
 */
export const polymul = (a1: ArrayInput, a2: ArrayInput): Array => lib.polymul({ a: a1, b: a2 });
/**
 * The `m`-th derivative of a polynomial.
 *
 * @example
 * ```ts
 * using d = np.polyder([1, 0, -1]); // [2, 0]
 * ```
 */
export const polyder = (p: ArrayInput, m = 1): Array => lib.polyder({ p, m });
