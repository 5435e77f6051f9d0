/**
 * More of `lax`: `dot` with dimension numbers, static and dynamic slicing, dynamic updates,
 * `topK` and `bitcastConvertType`. Dynamic offsets may be traced values (they compile to
 * gathers), so these work under jit, grad and scan. The math is in Rust.
 */
import { call, wasm } from "./bridge.js";
import { Array, type ArrayLike } from "./array.js";
import { DType, parseDType } from "./dtype.js";
import * as lib from "./lib-calls.js";
import { vmap } from "./vmap.js";
import * as checks from "./check.js";

/** Which axes `lax.dot` contracts and which it treats as batch axes. */
export interface DotDimensionNumbers {
  /** Axes of `lhs` summed over (default: its last axis). */
  lhsContractingDims?: number[];
  /**
   * Axes of `rhs` summed over, paired with `lhsContractingDims` (default: its second-to-last
   * axis, or its only axis when it is 1-D).
   */
  rhsContractingDims?: number[];
  /** Batch axes of `lhs` (default none); they lead the result. */
  lhsBatchDims?: number[];
  /** Batch axes of `rhs`, paired with `lhsBatchDims`. */
  rhsBatchDims?: number[];
}

/**
 * General dot product; output axes: batch, lhs free, rhs free.
 *
 * @example
 * ```ts
 * using a = np.ones([2, 3]);
 * using b = np.ones([3, 4]);
 * using c = lax.dot(a, b); // every element is 3
 * c.shape; // [2, 4]
 * ```
 */
export function dot(lhs: Array, rhs: Array, dims: DotDimensionNumbers = {}): Array {
  const { lhsContractingDims, rhsContractingDims, lhsBatchDims, rhsBatchDims } = dims;
  return lib.dot({
    lhs,
    rhs,
    lhsContractingDims,
    rhsContractingDims,
    lhsBatchDims,
    rhsBatchDims,
  });
}

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

/**
 * `[values, indices]` of the `k` largest elements along `axis` (stable; int32 indices).
 *
 * @example
 * ```ts
 * using x = np.array([3, 1, 4, 1, 5]);
 * const [values, indices] = lax.topK(x, 2); // values = [5, 4], indices = [4, 2]
 * values.dispose();
 * indices.dispose();
 * ```
 */
export function topK(x: Array, k: number, axis = -1): [Array, Array] {
  return lib.topK({ x, k, axis });
}

/**
 * The transposed convolution of `lhs [N, C, …]` with `rhs [O, I, …]` (convGeneralDilated's
 * axis order): `lhs` dilated by `strides`, with JAX's conv_transpose padding for "SAME" and
 * "VALID", or explicit pairs giving the forward convolution's padding (as jax-js);
 * `transposeKernel` flips the spatial axes of `rhs` and swaps its channel axes.
 *
 * @example
 * ```ts
 * using x = np.ones([1, 1, 2]);
 * using k = np.ones([1, 1, 2]);
 * using y = lax.convTranspose(x, k, [2], "VALID"); // [[[1, 1, 1, 1]]]
 * ```
 */
export function convTranspose(
  lhs: Array,
  rhs: Array,
  strides: number[],
  padding: "SAME" | "VALID" | [number, number][],
  opts: { rhsDilation?: number[]; transposeKernel?: boolean } = {},
): Array {
  const unknown = Object.keys(opts).filter((k) => !["rhsDilation", "transposeKernel"].includes(k));
  if (unknown.length) throw new TypeError(`convTranspose: unknown option(s) ${unknown.join(", ")}`);
  if (!globalThis.Array.isArray(strides))
    throw new TypeError("convTranspose: strides must be a list");
  const d = strides.length;
  const explicit = globalThis.Array.isArray(padding);
  if (explicit ? padding.length !== d : padding !== "VALID" && padding !== "SAME") {
    throw new TypeError(`convTranspose: padding must be "SAME", "VALID" or ${d} pairs`);
  }
  const dil = opts.rhsDilation;
  if (dil !== undefined && (!globalThis.Array.isArray(dil) || dil.length !== d)) {
    throw new TypeError(`convTranspose: rhsDilation must have ${d} entries`);
  }
  return lib.convTranspose({
    lhs,
    rhs,
    strides,
    padding: explicit ? "explicit" : padding,
    pads: explicit ? padding.flat() : [],
    rhsDilation: dil,
    transposeKernel: !!opts.transposeKernel,
  });
}

/**
 * `computation` applied to every window of `operand` (windows over its last
 * `windowDimensions.length` axes, no padding, `windowStrides` default 1), as jax-js: the windows
 * are gathered into trailing axes in Rust and `computation` (a window `[w₁ … w_k]` → a
 * scalar, e.g. `np.max`) is vmapped over the leading ones.
 *
 * @example
 * ```ts
 * using x = np.array([1, 3, 2, 5, 4]);
 * using m = lax.reduceWindow(x, (w) => np.max(w), [2]); // [3, 3, 5, 5]
 * ```
 */
export function reduceWindow(
  operand: Array,
  computation: (x: Array) => Array,
  windowDimensions: number[],
  windowStrides?: number[],
): Array {
  if (!(operand instanceof Array)) throw new TypeError("reduceWindow: operand must be an Array");
  if (typeof computation !== "function") {
    throw new TypeError("reduceWindow: computation must be a function");
  }
  if (!globalThis.Array.isArray(windowDimensions)) {
    throw new TypeError("reduceWindow: windowDimensions must be a list");
  }
  const k = windowDimensions.length;
  const strides = windowStrides ?? new globalThis.Array(k).fill(1);
  if (!globalThis.Array.isArray(strides) || strides.length !== k) {
    throw new TypeError(`reduceWindow: windowStrides must have ${k} entries`);
  }
  const pooled = lib.pool({ x: operand, windowDimensions, strides });
  let f = computation;
  for (let i = 0; i < operand.ndim; i++) f = vmap(f, 0) as (x: Array) => Array;
  try {
    return f(pooled);
  } finally {
    pooled.dispose();
  }
}

/**
 * Reinterprets the bits as `dtype` (same size).
 *
 * @example
 * ```ts
 * using x = np.array([1]);
 * using b = lax.bitcastConvertType(x, np.int32); // [1065353216]
 * ```
 */
export function bitcastConvertType(x: Array, dtype: DType): Array {
  if (!(x instanceof Array)) throw new TypeError("bitcastConvertType: expected an Array");
  const d = parseDType("bitcastConvertType", dtype);
  return new Array(call(() => wasm.convert(x._handle, d, true)));
}
