/**
 * numpy's differences and integrals along an axis: diff, ediff1d, unwrap and trapezoid.
 * Argument parsing only; the math is in Rust.
 */
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";

function check(fn: string, x: unknown): asserts x is Array {
  if (!(x instanceof Array)) throw new TypeError(`${fn}: expected an Array, got ${typeof x}`);
}

/**
 * The `n`-th discrete difference along `axis`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 4, 9, 16]);
 * using d = np.diff(x); // [3, 5, 7]
 * ```
 */
export function diff(a: Array, n = 1, axis = -1): Array {
  check("diff", a);
  return lib.diff({ x: a, n, axis });
}

/**
 * The differences between consecutive elements of the flattened array (`diff` of its ravel).
 *
 * @example
 * ```ts
 * using x = np.array([1, 4, 9]);
 * using y = np.ediff1d(x); // [3, 5]
 * ```
 */
export function ediff1d(ary: Array): Array {
  check("ediff1d", ary);
  return lib.ediff1d({ x: ary });
}

/**
 * Integral by the trapezoid rule along `axis`, at points `x` or with spacing `dx`.
 *
 * @example
 * ```ts
 * using y = np.array([0, 1, 2]);
 * using area = np.trapezoid(y); // 2
 * ```
 */
export function trapezoid(y: Array, x: Array | null = null, dx = 1, axis = -1): Array {
  check("trapezoid", y);
  return lib.trapezoid({ y, x, dx, axis });
}

/**
 * Removes jumps larger than `discont` by adding multiples of `period`.
 *
 * @example
 * ```ts
 * using p = np.array([0, 3, 6.5]);
 * using u = np.unwrap(p); // ≈ [0, 3, 0.21681469]
 * ```
 */
export function unwrap(
  p: Array,
  opts: { discont?: number | null; axis?: number; period?: number } = {},
): Array {
  return lib.unwrap({ p, discont: opts.discont, axis: opts.axis, period: opts.period });
}
