/**
 * numpy's statistics: ptp, countNonzero, the NaN-ignoring reductions and scans, average,
 * cov and corrcoef. Argument parsing only; the math is in Rust.
 */
import { Array } from "../array.js";
import type { ArrayInput } from "../lib.js";
import * as lib from "../lib-calls.js";
import type { Axis } from "../ops.js";

/** Options of reductions. */
export interface ReduceOptions {
  /** Keep each reduced axis as an axis of size 1. */
  keepdims?: boolean;
}

const reduction =
  (f: (a: lib.NanReductionArgs) => Array) =>
  (a: Array, axis: Axis = null, opts: ReduceOptions = {}): Array =>
    f({ x: a, axis, keepdims: !!opts.keepdims });

/**
 * max − min.
 *
 * @example
 * ```ts
 * using x = np.array([3, 7, 1]);
 * using r = np.ptp(x); // 6
 * ```
 */
export const ptp = reduction(lib.ptp);
/**
 * The number of non-zero elements (int32).
 *
 * @example
 * ```ts
 * using x = np.array([0, 2, 0, 5]);
 * using n = np.countNonzero(x); // 2
 * ```
 */
export const countNonzero = reduction(lib.countNonzero);
/**
 * The sum over `axis` (all axes by default) treating NaN as 0.
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN, 2]);
 * using y = np.nansum(x); // 3
 * ```
 */
export const nansum = reduction(lib.nansum);
/**
 * The product over `axis` (all axes by default) treating NaN as 1.
 *
 * @example
 * ```ts
 * using x = np.array([2, NaN, 3]);
 * using p = np.nanprod(x); // 6
 * ```
 */
export const nanprod = reduction(lib.nanprod);
/**
 * The maximum over `axis` (all axes by default) ignoring NaN (NaN where every element is NaN).
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN, 3]);
 * using m = np.nanmax(x); // 3
 * ```
 */
export const nanmax = reduction(lib.nanmax);
/**
 * The minimum over `axis` (all axes by default) ignoring NaN (NaN where every element is NaN).
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN, 3]);
 * using m = np.nanmin(x); // 1
 * ```
 */
export const nanmin = reduction(lib.nanmin);
/**
 * The mean over `axis` (all axes by default) of the elements that are not NaN.
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN, 3]);
 * using m = np.nanmean(x); // 2
 * ```
 */
export const nanmean = reduction(lib.nanmean);

/** Options of `nanvar` and `nanstd`. */
export interface NanVarOptions extends ReduceOptions {
  /** Degrees of freedom subtracted from the count (NumPy's `ddof`). */
  correction?: number;
  /** The same as `correction` (NumPy's name). */
  ddof?: number;
}

const nanVariance =
  (f: (a: lib.NanReductionArgs) => Array) =>
  (a: Array, axis: Axis = null, opts: NanVarOptions = {}): Array =>
    f({ x: a, axis, keepdims: !!opts.keepdims, ddof: opts.correction ?? opts.ddof ?? 0 });

/**
 * The variance over `axis` (all axes by default) of the elements that are not NaN, divided by
 * `count − correction`.
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN, 3]);
 * using v = np.nanvar(x); // 1
 * ```
 */
export const nanvar = nanVariance(lib.nanvar);
/**
 * The standard deviation over `axis` (all axes by default) of the elements that are not NaN.
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN, 3]);
 * using s = np.nanstd(x); // 1
 * ```
 */
export const nanstd = nanVariance(lib.nanstd);

const scan =
  (f: (a: lib.NanScanArgs) => Array) =>
  (a: Array, axis?: number | null): Array =>
    f({ x: a, axis });

/**
 * The int32 index of the maximum along `axis` (of the flattened array when omitted), ignoring
 * NaN.
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN, 3]);
 * using i = np.nanargmax(x); // 2
 * ```
 */
export const nanargmax = scan(lib.nanargmax);
/**
 * The int32 index of the minimum along `axis` (of the flattened array when omitted), ignoring
 * NaN.
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN, 0]);
 * using i = np.nanargmin(x); // 2
 * ```
 */
export const nanargmin = scan(lib.nanargmin);
/**
 * The running sum along `axis` (of the flattened array when omitted), NaN counted as 0.
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN, 3]);
 * using c = np.nancumsum(x); // [1, 1, 4]
 * ```
 */
export const nancumsum = scan(lib.nancumsum);
/**
 * The running product along `axis` (of the flattened array when omitted), NaN counted as 1.
 *
 * @example
 * ```ts
 * using x = np.array([2, NaN, 3]);
 * using c = np.nancumprod(x); // [2, 2, 6]
 * ```
 */
export const nancumprod = scan(lib.nancumprod);

/**
 * The (weighted) mean over `axis`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using m = np.average(x, null, [3, 1, 0]); // 1.25
 * ```
 */
export function average(a: Array, axis: Axis = null, weights: ArrayInput | null = null): Array {
  return lib.average({ x: a, axis, weights });
}

/**
 * Covariance of the rows (variables) of `x` (and `y`), divisor N − 1 by default.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2, 3], [2, 4, 6]]);
 * using c = np.cov(x); // [[1, 2], [2, 4]]
 * ```
 */
export function cov(
  x: Array,
  y: Array | null = null,
  opts: { rowvar?: boolean; ddof?: number } = {},
): Array {
  return lib.cov({ x, y, rowvar: opts.rowvar, ddof: opts.ddof });
}

/**
 * Pearson correlation coefficients of the rows of `x` (and `y`).
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2, 3], [3, 2, 1]]);
 * using r = np.corrcoef(x); // [[1, -1], [-1, 1]]
 * ```
 */
export function corrcoef(x: Array, y: Array | null = null, opts: { rowvar?: boolean } = {}): Array {
  return lib.corrcoef({ x, y, rowvar: opts.rowvar });
}
