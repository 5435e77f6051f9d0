/**
 * numpy's indexing helpers: take, takeAlongAxis, select, indices, diagIndices,
 * diagIndicesFrom and meshgrid. Argument parsing only; the math is in Rust.
 */
import { Array, type ArrayLike } from "../array.js";
import type { ArrayInput } from "../lib.js";
import * as lib from "../lib-calls.js";
import { arange } from "./creation.js";
import * as checks from "../check.js";

function check(fn: string, x: unknown): asserts x is Array {
  if (!(x instanceof Array)) throw new TypeError(`${fn}: expected an Array, got ${typeof x}`);
}

/**
 * Elements at `indices` along `axis` (the flattened array when none); indices clamp.
 *
 * @example
 * ```ts
 * using x = np.array([10, 20, 30]);
 * using i = np.array([2, 0], { dtype: np.int32 });
 * using t = np.take(x, i); // [30, 10]
 * ```
 */
export function take(a: Array, indices: ArrayInput, axis: number | null = null): Array {
  check("take", a);
  return lib.take({ x: a, indices, axis });
}

/**
 * Picks values of `arr` along `axis` at `indices` (an int32 array of the same rank, e.g. from
 * `argsort`), as NumPy's `take_along_axis`.
 *
 * @example
 * ```ts
 * using a = np.array([[3, 1], [2, 4]]);
 * using i = np.argsort(a, 1);
 * using x = np.takeAlongAxis(a, i, 1); // [[1, 3], [2, 4]]
 * ```
 */
export function takeAlongAxis(arr: Array, indices: Array, axis: number): Array {
  check("takeAlongAxis", arr);
  return lib.takeAlongAxis({ x: arr, indices, axis });
}

/**
 * Coordinate grids of 1-D arrays; with ≤ 1 input, the input list itself (as jax-js).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.array([4, 5]);
 * const [gx, gy] = np.meshgrid([x, y]); // gx = [[1, 2, 3], [1, 2, 3]], gy = [[4, 4, 4], [5, 5, 5]]
 * gx.dispose();
 * gy.dispose();
 * ```
 */
export function meshgrid(xs: Array[], opts: { indexing?: "xy" | "ij" } = {}): Array[] {
  if (!globalThis.Array.isArray(xs)) throw new TypeError("meshgrid: expected a list of Arrays");
  if (xs.length <= 1) return xs;
  return lib.meshgrid({ arrays: xs, indexing: opts.indexing });
}

/**
 * Index grids: shape `[dims.length, ...dims]` (int32).
 *
 * @example
 * ```ts
 * using i = np.indices([2, 2]); // [[[0, 0], [1, 1]], [[0, 1], [0, 1]]]
 * ```
 */
export function indices(dimensions: number[]): Array {
  return lib.indices({ dimensions });
}

/**
 * The indices of the main diagonal of an `n`-wide array of rank `ndim`.
 *
 * @example
 * ```ts
 * const [i, j] = np.diagIndices(3); // i = [0, 1, 2], j = [0, 1, 2]
 * i.dispose();
 * j.dispose();
 * ```
 */
export function diagIndices(n: number, ndim = 2): Array[] {
  return globalThis.Array.from({ length: ndim }, () => arange(n));
}

/**
 * The index arrays of the main diagonal of `arr` (a square n-D array): `diagIndices(n, ndim)`.
 *
 * @example
 * ```ts
 * using m = np.zeros([2, 2]);
 * const [i, j] = np.diagIndicesFrom(m); // i = [0, 1], j = [0, 1]
 * i.dispose();
 * j.dispose();
 * ```
 */
export function diagIndicesFrom(arr: Array): Array[] {
  check("diagIndicesFrom", arr);
  if (arr.ndim < 2 || arr.shape.some((d) => d !== arr.shape[0])) {
    throw new Error("diagIndicesFrom: needs a square array of rank at least 2");
  }
  return diagIndices(arr.shape[0], arr.ndim);
}

/**
 * The choice of the first true condition, else `default`.
 *
 * @example
 * ```ts
 * using x = np.array([-1, 0, 2]);
 * using neg = np.less(x, 0);
 * using pos = np.greater(x, 0);
 * using s = np.select([neg, pos], [-10, 10], 0); // [-10, 0, 10]
 * ```
 */
export function select(
  condlist: ArrayInput[],
  choicelist: ArrayInput[],
  defaultValue: ArrayLike = 0,
): Array {
  checks.list("select", "condlist", condlist);
  checks.list("select", "choicelist", choicelist);
  if (condlist.length !== choicelist.length) {
    throw new Error("select: condlist and choicelist must have the same length");
  }
  return lib.select({ condlist, choicelist, defaultValue });
}
