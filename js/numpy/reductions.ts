/** numpy reductions with `axis` (number, list or null for all) and `keepdims`. */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { reduceOp, type Axis } from "../ops.js";
import * as checks from "../check.js";

export type { Axis };

export interface ReduceOpts {
  keepdims?: boolean;
}

const reduction =
  (kind: string) =>
  (a: Array, axis: Axis = null, opts: ReduceOpts = {}): Array =>
    reduceOp(kind, a, axis, opts.keepdims);

export const sum = reduction("sum");
export const prod = reduction("prod");
export const max = reduction("max");
export const min = reduction("min");
export const mean = reduction("mean");
export const all = reduction("all");
export const any = reduction("any");

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

/** Index of the first maximum (into the flattened array when no axis); int32. */
export const argmax = argExtreme("argmax", true);
/** Index of the first minimum (into the flattened array when no axis); int32. */
export const argmin = argExtreme("argmin", false);

function running(name: string, op: string) {
  return (a: Array, axis?: number | null): Array => {
    if (!(a instanceof Array)) throw new TypeError(`${name}: expected an Array`);
    const ax = checks.axis(name, axis);
    return new Array(call(() => wasm.cumulative(name, op, a._handle, ax)));
  };
}

/** Running sum along an axis (the flattened array when none is given). */
export const cumsum = running("cumsum", "sum");
export const cumulativeSum = cumsum;
export const cumprod = running("cumprod", "prod");

export interface VarianceOpts extends ReduceOpts {
  /** Degrees of freedom subtracted from the count (NumPy's `ddof`). */
  correction?: number;
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

/** Variance (trailing underscore: `var` is reserved). */
export const var_ = variance("var_", false);
export const std = variance("std", true);

/** Sorted copy along `axis` (stable; NaN last). */
export function sort(a: Array, axis = -1): Array {
  if (!(a instanceof Array)) throw new TypeError("sort: expected an Array");
  return new Array(call(() => wasm.sort(a._handle, axis, false)));
}

/** The int32 indices that sort `a` along `axis` (stable; NaN last). */
export function argsort(a: Array, axis = -1): Array {
  if (!(a instanceof Array)) throw new TypeError("argsort: expected an Array");
  return new Array(call(() => wasm.sort(a._handle, axis, true)));
}
