/**
 * `lax`'s static and dynamic slicing: `sliceInDim`, `dynamicSlice`, `dynamicIndexInDim` and
 * `dynamicUpdateSlice`. Dynamic offsets may be traced values (they compile to gathers), so these
 * work under jit, grad and scan. Argument parsing only; the math is in Rust.
 */
import { Array, type ArrayLike } from "../array.js";
import * as lib from "../lib-calls.js";
import * as checks from "../check.js";

/**
 * `x[start:limit]` along `axis` (a view).
 *
 * @example
 * ```ts
 * using x = np.arange(6);
 * using s = lax.sliceInDim(x, 2, 5); // [2, 3, 4]
 * ```
 */
export function sliceInDim(x: Array, start: number, limit: number | null = null, axis = 0): Array {
  if (!(x instanceof Array)) throw new TypeError("sliceInDim: expected an Array");
  const ax = checks.int("sliceInDim", "axis", axis) + (axis < 0 ? x.ndim : 0);
  if (ax < 0 || ax >= x.ndim) {
    throw new RangeError(`sliceInDim: axis ${axis} is out of bounds for rank ${x.ndim}`);
  }
  checks.int("sliceInDim", "start", start);
  if (limit !== null) checks.int("sliceInDim", "limit", limit);
  const index: ([] | [number, number])[] = globalThis.Array.from({ length: x.ndim }, () => []);
  index[ax] = [start, limit ?? x.shape[ax]];
  return x.slice(...index);
}

/**
 * A `sliceSizes` block starting at `startIndices` (clamped to fit; starts may be traced).
 *
 * @example
 * ```ts
 * using x = np.arange(6);
 * using i = np.array(2, { dtype: np.int32 });
 * using s = lax.dynamicSlice(x, [i], [3]); // [2, 3, 4]
 * ```
 */
export function dynamicSlice(x: Array, startIndices: ArrayLike[], sliceSizes: number[]): Array {
  const starts = checks.list<ArrayLike>("dynamicSlice", "startIndices", startIndices);
  const sizes = checks.intList("dynamicSlice", "sliceSizes", sliceSizes);
  return lib.dynamicSlice({ x, startIndices: starts, sliceSizes: sizes });
}

export const uncheckedDynamicSlice = dynamicSlice;

/**
 * Element `index` along `axis` (the axis kept with `keepdims`).
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using r = lax.dynamicIndexInDim(x, 1); // [3, 4]
 * ```
 */
export function dynamicIndexInDim(x: Array, index: ArrayLike, axis = 0, keepdims = false): Array {
  return lib.dynamicIndexInDim({ x, index, axis, keepdims });
}

/**
 * `dst` with `src` written at `offset` along `axis` (clamped to fit); inputs not consumed.
 *
 * @example
 * ```ts
 * using dst = np.zeros([4]);
 * using src = np.ones([2]);
 * using y = lax.dynamicUpdateSlice(dst, src, 1); // [0, 1, 1, 0]
 * ```
 */
export function dynamicUpdateSlice(dst: Array, src: Array, offset: ArrayLike, axis = 0): Array {
  return lib.dynamicUpdateSlice({ dst, src, offset, axis });
}
