/** numpy reductions with `axis` (number, list or null for all) and `keepdims`. */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { reduceOp, type Axis } from "../ops.js";
import * as checks from "../check.js";

export type { Axis };

/** Options of reductions. */
export interface ReduceOpts {
  /** Keep each reduced axis as an axis of size 1 (so the result broadcasts against the input). */
  keepdims?: boolean;
}

const reduction =
  (kind: string) =>
  (a: Array, axis: Axis = null, opts: ReduceOpts = {}): Array =>
    reduceOp(kind, a, axis, opts.keepdims);

/**
 * The sum of the elements of `a` over `axis` (a number, a list, or `null` for all axes), as a
 * new array; `keepdims` keeps reduced axes as size 1. bool sums as int32; float16 accumulates in
 * float32. The summation order is fixed (the same bits on cpu and wasm); on webgpu large sums
 * use a tree of partial sums.
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * using x = np.sum(a); // 10
 * using y = np.sum(a, 0); // [4, 6]
 * using z = np.sum(a, 1, { keepdims: true }); // [[3], [7]]
 * ```
 */
export const sum = reduction("sum");
/**
 * The product of the elements of `a` over `axis` (all axes by default), optionally keeping
 * reduced axes.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using p = np.prod(x, 1); // [2, 12]
 * ```
 */
export const prod = reduction("prod");
/**
 * The maximum of `a` over `axis` (all axes by default); NaN if any element is NaN (`nanmax`
 * ignores NaN).
 *
 * @example
 * ```ts
 * using x = np.array([[1, 5], [3, 2]]);
 * using m = np.max(x, 0); // [3, 5]
 * ```
 */
export const max = reduction("max");
/**
 * The minimum of `a` over `axis` (all axes by default); NaN if any element is NaN (`nanmin`
 * ignores NaN).
 *
 * @example
 * ```ts
 * using x = np.array([[1, 5], [3, 2]]);
 * using m = np.min(x); // 1
 * ```
 */
export const min = reduction("min");
/**
 * The mean of `a` over `axis` (all axes by default): floating inputs keep their dtype, integer
 * and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using m = np.mean(x, 0); // [2, 3]
 * using i = np.array([1, 2], { dtype: np.int32 });
 * using mi = np.mean(i); // 1.5
 * mi.dtype; // "float32"
 * ```
 */
export const mean = reduction("mean");
/**
 * Whether every element over `axis` is non-zero (all axes by default), as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 0], [1, 1]]);
 * using a = np.all(x, 1); // [false, true]
 * ```
 */
export const all = reduction("all");
/**
 * Whether any element over `axis` is non-zero (all axes by default), as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([[0, 0], [1, 0]]);
 * using a = np.any(x, 1); // [false, true]
 * ```
 */
export const any = reduction("any");

/**
 * `a` converted to `dtype` (floats to integers truncate toward zero). Returns `a` itself when it
 * already has that dtype (no new reference), as `a.astype(dtype)` does.
 *
 * @example
 * ```ts
 * using x = np.array([1.7, -1.7]);
 * using i = np.astype(x, np.int32); // [1, -1]
 * ```
 */
export function astype(a: Array, dtype: Parameters<Array["astype"]>[0]): Array {
  return a.astype(dtype);
}

function argExtreme(name: string, max: boolean) {
  return (a: Array, axis?: number | null, opts: ReduceOpts = {}): Array => {
    if (!(a instanceof Array)) throw new TypeError(`${name}: expected an Array`);
    return new Array(
      call(() => wasm.argExtreme(name, a._handle, checks.axis(name, axis), !!opts.keepdims, max)),
    );
  };
}

/**
 * The int32 index of the first maximum along `axis`, or into the flattened array when `axis` is
 * omitted; NaN counts as the maximum.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 5], [7, 2]]);
 * using y = np.argmax(x, 1); // [1, 0]
 * ```
 */
export const argmax = argExtreme("argmax", true);
/**
 * The int32 index of the first minimum along `axis`, or into the flattened array when `axis` is
 * omitted; NaN counts as the minimum.
 *
 * @example
 * ```ts
 * using x = np.array([3, 1, 2]);
 * using i = np.argmin(x); // 1
 * ```
 */
export const argmin = argExtreme("argmin", false);

function running(name: string, op: string) {
  return (a: Array, axis?: number | null): Array => {
    if (!(a instanceof Array)) throw new TypeError(`${name}: expected an Array`);
    const ax = checks.axis(name, axis);
    return new Array(call(() => wasm.cumulative(name, op, a._handle, ax)));
  };
}

/**
 * The running sum along `axis` (of the flattened array when `axis` is omitted); same shape as the
 * input (flattened: 1-D).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.cumsum(x); // [1, 3, 6]
 * ```
 */
export const cumsum = running("cumsum", "sum");
/**
 * The running product along `axis` (of the flattened array when `axis` is omitted).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using c = np.cumprod(x); // [1, 2, 6]
 * ```
 */
export const cumprod = running("cumprod", "prod");

/** Options of `var_` and `std`. */
export interface VarianceOpts extends ReduceOpts {
  /**
   * Degrees of freedom subtracted from the count (NumPy's `ddof`; default 0, the population
   * variance).
   */
  correction?: number;
  /** A precomputed mean: not supported yet in oxjax (giving one throws). */
  mean?: unknown;
}

function variance(name: string, sqrt: boolean) {
  return (x: Array, axis: Axis = null, opts: VarianceOpts = {}): Array => {
    if (!(x instanceof Array)) throw new TypeError(`${name}: expected an Array`);
    if (opts.mean !== undefined)
      throw new Error(`${name}: the \`mean\` option is not supported yet in oxjax`);
    const axes = checks.axes(name, axis);
    return new Array(
      call(() => wasm.variance(x._handle, axes, opts.correction ?? 0, !!opts.keepdims, sqrt)),
    );
  };
}

/**
 * The variance of `x` over `axis` (all axes by default): the mean squared deviation from the
 * mean, divided by `count − correction`. Named with a trailing underscore (`var` is reserved).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3, 4]);
 * using y = np.var_(x); // 1.25
 * ```
 */
export const var_ = variance("var_", false);
/**
 * The standard deviation of `x` over `axis` (all axes by default): the square root of `var_`,
 * with the same options.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3, 4]);
 * using y = np.std(x, null, { correction: 1 }); // 1.2909944
 * ```
 */
export const std = variance("std", true);

/**
 * A sorted copy of `a` along `axis` (default the last): stable, ascending, NaN last. A routine
 * on every device (radix sort on wasm, bitonic sort on webgpu); differentiable.
 *
 * @example
 * ```ts
 * using x = np.array([3, 1, 2]);
 * using y = np.sort(x); // [1, 2, 3]
 * ```
 */
export function sort(a: Array, axis = -1): Array {
  if (!(a instanceof Array)) throw new TypeError("sort: expected an Array");
  return new Array(call(() => wasm.sort(a._handle, axis, false)));
}

/**
 * The int32 indices that sort `a` along `axis` (default the last): stable, NaN last.
 *
 * @example
 * ```ts
 * using x = np.array([3, 1, 2]);
 * using y = np.argsort(x); // [1, 2, 0]
 * ```
 */
export function argsort(a: Array, axis = -1): Array {
  if (!(a instanceof Array)) throw new TypeError("argsort: expected an Array");
  return new Array(call(() => wasm.sort(a._handle, axis, true)));
}
