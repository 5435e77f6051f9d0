/**
 * `nn`'s functions over axes: logsumexp, softmax, logSoftmax, logmeanexp, standardize, and
 * oneHot. The math is in Rust.
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { check } from "./activation-op.js";
import * as lib from "../lib-calls.js";
import { shareOp } from "../ops.js";
import * as checks from "../check.js";

type Axis = number | number[] | null;

const isEmptyAxes = (axis: Axis): boolean => globalThis.Array.isArray(axis) && axis.length === 0;

const axes = (axis: Axis | undefined, fn = "nn"): Int32Array | undefined => checks.axes(fn, axis);

/**
 * `log(Σ exp(x))` over `axis` (all axes by default), computed stably (the maximum is subtracted
 * first); `keepdims` keeps the reduced axes.
 *
 * @example
 * ```ts
 * using x = np.array([0, 0]);
 * using y = nn.logsumexp(x); // 0.6931472 (log 2)
 * ```
 */
export function logsumexp(x: Array, axis: Axis = null, opts: { keepdims?: boolean } = {}): Array {
  check("logsumexp", x);
  return new Array(call(() => wasm.nnReduce("logsumexp", x._handle, axes(axis), !!opts.keepdims)));
}

/** Alias of `logsumexp`. */
export const logSumExp = logsumexp;

/**
 * `exp(x) / Σ exp(x)` along `axis` (default the last), computed stably; each slice sums to 1.
 *
 * @example
 * ```ts
 * using x = np.array([0, 0]);
 * using y = nn.softmax(x); // [0.5, 0.5]
 * ```
 */
export function softmax(x: Array, axis: Axis = -1): Array {
  check("softmax", x);
  return new Array(call(() => wasm.nnReduce("softmax", x._handle, axes(axis), false)));
}

/**
 * `x − logsumexp(x)` along `axis` (default the last), computed stably.
 *
 * @example
 * ```ts
 * using x = np.array([0, 0]);
 * using y = nn.logSoftmax(x); // [-0.6931472, -0.6931472]
 * ```
 */
export function logSoftmax(x: Array, axis: Axis = -1): Array {
  check("logSoftmax", x);
  return new Array(call(() => wasm.nnReduce("logSoftmax", x._handle, axes(axis), false)));
}

/**
 * `log(mean(exp(x)))` over `axis` (all axes by default); an empty axis list gives `x`'s
 * values (a new array sharing its data).
 *
 * @example
 * ```ts
 * using x = np.array([0, 0]);
 * using y = nn.logmeanexp(x); // 0
 * ```
 */
export function logmeanexp(x: Array, axis: Axis = null, opts: { keepdims?: boolean } = {}): Array {
  check("logmeanexp", x);
  if (isEmptyAxes(axis)) return shareOp("logmeanexp", x);
  return lib.logmeanexp({ x, axis, keepdims: !!opts.keepdims });
}

/** Options of `standardize`. */
export interface StandardizeOptions {
  /** A precomputed mean (default: the mean over `axis`). */
  mean?: Array;
  /** A precomputed variance (default: the variance over `axis`). */
  variance?: Array;
  /** Added to the variance before the square root (default 1e-5). */
  epsilon?: number;
}

/**
 * `(x − mean)/√(variance + ε)` over `axis`; an empty axis list gives `x`'s
 * values (a new array sharing its data).
 *
 * @example
 * ```ts
 * using x = np.array([1, 3]);
 * using y = nn.standardize(x); // ≈ [-1, 1]
 * ```
 */
export function standardize(x: Array, axis: Axis = -1, opts: StandardizeOptions = {}): Array {
  check("standardize", x);
  if (isEmptyAxes(axis)) return shareOp("standardize", x);
  const { mean, variance, epsilon } = opts;
  return lib.standardize({ x, axis: axis ?? -1, mean, variance, epsilon });
}

/**
 * A float32 one-hot encoding of the integer classes in `x` along a new last axis of size
 * `numClasses` (out-of-range classes give all zeros).
 *
 * @example
 * ```ts
 * using x = np.array([0, 2], { dtype: np.int32 });
 * using y = nn.oneHot(x, 3); // [[1, 0, 0], [0, 0, 1]]
 * ```
 */
export function oneHot(x: Array, numClasses: number): Array {
  check("oneHot", x);
  return new Array(call(() => wasm.oneHot(x._handle, numClasses)));
}
