/**
 * More numpy reductions and statistics: ptp, countNonzero, the NaN-ignoring reductions and
 * scans, average, cov/corrcoef, allclose/arrayEqual/arrayEquiv. Argument parsing only.
 */
import { Array } from "../array.js";
import { axesParams, lib1, type ArrayInput } from "../lib.js";
import type { Axis } from "../ops.js";
import { cumprod } from "./reductions.js";

export interface ReduceOptions {
  keepdims?: boolean;
}

const reduction =
  (name: string) =>
  (a: Array, axis: Axis = null, opts: ReduceOptions = {}): Array =>
    lib1(name, [a], [!!opts.keepdims, NaN, ...axesParams(axis)]);

/** max − min. */
export const ptp = reduction("ptp");
/** The number of non-zero elements (int32). */
export const countNonzero = reduction("countNonzero");
export const nansum = reduction("nansum");
export const nanprod = reduction("nanprod");
export const nanmax = reduction("nanmax");
export const nanmin = reduction("nanmin");
export const nanmean = reduction("nanmean");

export interface NanVarOptions extends ReduceOptions {
  /** Degrees of freedom subtracted from the count (NumPy's `ddof`). */
  correction?: number;
  ddof?: number;
}

const nanVariance =
  (name: string) =>
  (a: Array, axis: Axis = null, opts: NanVarOptions = {}): Array =>
    lib1(name, [a], [!!opts.keepdims, opts.correction ?? opts.ddof ?? 0, ...axesParams(axis)]);

export const nanvar = nanVariance("nanvar");
export const nanstd = nanVariance("nanstd");

const scan =
  (name: string) =>
  (a: Array, axis?: number | null): Array =>
    lib1(name, [a], [axis ?? NaN]);

export const nanargmax = scan("nanargmax");
export const nanargmin = scan("nanargmin");
export const nancumsum = scan("nancumsum");
export const nancumprod = scan("nancumprod");
export const cumulativeProd = cumprod;

/** The (weighted) mean over `axis`. */
export function average(a: Array, axis: Axis = null, weights: ArrayInput | null = null): Array {
  const inputs = weights == null ? [a] : [a, weights];
  return lib1("average", inputs, axesParams(axis));
}

/** Covariance of the rows (variables) of `x` (and `y`), divisor N − 1 by default. */
export function cov(
  x: Array,
  y: Array | null = null,
  opts: { rowvar?: boolean; ddof?: number } = {},
): Array {
  return lib1("cov", y ? [x, y] : [x], [opts.rowvar ?? true, opts.ddof ?? NaN]);
}

/** Pearson correlation coefficients of the rows of `x` (and `y`). */
export function corrcoef(x: Array, y: Array | null = null, opts: { rowvar?: boolean } = {}): Array {
  return lib1("corrcoef", y ? [x, y] : [x], [opts.rowvar ?? true]);
}

const sameShape = (a: Array, b: Array): boolean =>
  a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);

/** Whether every element is close (`|a − b| ≤ atol + rtol·|b|`, NaNs at the same places). */
export function allclose(
  actual: Array,
  expected: Array,
  opts: { rtol?: number; atol?: number } = {},
): boolean {
  if (!(actual instanceof Array) || !(expected instanceof Array)) {
    throw new TypeError("allclose: expected two Arrays");
  }
  if (!sameShape(actual, expected)) return false;
  const r = lib1("allclose", [actual, expected], [opts.rtol ?? 1e-5, opts.atol ?? 1e-7]);
  try {
    return r.item() !== 0;
  } finally {
    r.dispose();
  }
}

function falseScalar(): Array {
  return lib1("arrayEqual", [[1], [2]], []);
}

/** A bool scalar: same shape and equal elements (NaNs equal with `equalNan`). */
export function arrayEqual(a1: Array, a2: Array, opts: { equalNan?: boolean } = {}): Array {
  if (!sameShape(a1, a2)) return falseScalar();
  return lib1("arrayEqual", [a1, a2], [!!opts.equalNan]);
}

/** A bool scalar: broadcastable and equal elements. */
export function arrayEquiv(a1: Array, a2: Array): Array {
  const [s1, s2] = [a1.shape, a2.shape];
  const rank = Math.max(s1.length, s2.length);
  for (let k = 1; k <= rank; k++) {
    const [d1, d2] = [s1[s1.length - k] ?? 1, s2[s2.length - k] ?? 1];
    if (d1 !== d2 && d1 !== 1 && d2 !== 1) return falseScalar();
  }
  return lib1("arrayEquiv", [a1, a2], []);
}
