/**
 * `lax`'s convolutions and windows: `convGeneralDilated` (with `conv` and
 * `convWithGeneralPadding`), `convTranspose` and `reduceWindow`. Argument parsing only; the
 * math is in Rust.
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";
import { vmap } from "../vmap.js";
import * as checks from "../check.js";

/**
 * Convolution padding: `"VALID"` (none), `"SAME"` (output size `ceil(in / stride)`, extra
 * padding at the end), `"SAME_LOWER"` (extra padding at the start), or one `[low, high]` pair per
 * spatial axis.
 */
export type PaddingType = "VALID" | "SAME" | "SAME_LOWER" | [number, number][];

/** Options of `convGeneralDilated`. */
export interface ConvOptions {
  /** Dilation of the input per spatial axis (a transposed convolution's stride); default 1s. */
  lhsDilation?: number[];
  /** Dilation of the kernel per spatial axis (atrous convolution); default 1s. */
  rhsDilation?: number[];
  /**
   * Split the input channels into this many groups, each convolved with its own part of the
   * kernel (default 1; the channel count for depthwise convolution).
   */
  featureGroupCount?: number;
}

function check(fn: string, x: unknown): asserts x is Array {
  if (!(x instanceof Array)) throw new TypeError(`${fn}: expected an Array, got ${typeof x}`);
}

/**
 * General dilated convolution: lhs `[N, C, …]`, rhs `[O, C/groups, …]` → `[N, O, …]`.
 * `padding` is "VALID", "SAME", "SAME_LOWER" or one `[lo, hi]` pair per spatial axis.
 *
 * @example
 * ```ts
 * using img = np.ones([1, 1, 4, 4]); // [N, C, H, W]
 * using k = np.ones([1, 1, 3, 3]); // [O, I, kh, kw]
 * using y = lax.convGeneralDilated(img, k, [1, 1], "VALID"); // every element is 9
 * y.shape; // [1, 1, 2, 2]
 * ```
 */
export function convGeneralDilated(
  lhs: Array,
  rhs: Array,
  windowStrides: number[],
  padding: PaddingType,
  opts: ConvOptions = {},
): Array {
  check("convGeneralDilated", lhs);
  check("convGeneralDilated", rhs);
  const unknown = Object.keys(opts).filter(
    (k) => !["lhsDilation", "rhsDilation", "featureGroupCount"].includes(k),
  );
  if (unknown.length)
    throw new TypeError(`convGeneralDilated: unknown option(s) ${unknown.join(", ")}`);
  const fn = "convGeneralDilated";
  const text = typeof padding === "string" ? padding : "";
  const pads =
    typeof padding === "string"
      ? []
      : checks.list(fn, "padding", padding).flatMap((p) => {
          const pair = checks.intList(fn, "padding", p);
          if (pair.length !== 2) throw new TypeError(`${fn}: padding pairs must be [lo, hi]`);
          return pair;
        });
  const strides = new Float64Array(checks.intList(fn, "windowStrides", windowStrides));
  const lhsDilation = new Float64Array(checks.intList(fn, "lhsDilation", opts.lhsDilation ?? []));
  const rhsDilation = new Float64Array(checks.intList(fn, "rhsDilation", opts.rhsDilation ?? []));
  const groups = checks.int(fn, "featureGroupCount", opts.featureGroupCount ?? 1);
  return new Array(
    call(() =>
      wasm.convGeneralDilated(
        lhs._handle,
        rhs._handle,
        strides,
        text,
        new Float64Array(pads),
        lhsDilation,
        rhsDilation,
        groups,
      ),
    ),
  );
}

/**
 * `convGeneralDilated` without dilation.
 *
 * @example
 * ```ts
 * using img = np.ones([1, 1, 4, 4]);
 * using k = np.ones([1, 1, 3, 3]);
 * using y = lax.conv(img, k, [1, 1], "SAME");
 * y.shape; // [1, 1, 4, 4]
 * ```
 */
export function conv(lhs: Array, rhs: Array, windowStrides: number[], padding: PaddingType): Array {
  return convGeneralDilated(lhs, rhs, windowStrides, padding);
}

/**
 * `convGeneralDilated(lhs, rhs, windowStrides, padding, { lhsDilation, rhsDilation })`.
 *
 * @example
 * ```ts
 * using img = np.ones([1, 1, 3]);
 * using k = np.ones([1, 1, 2]);
 * using y = lax.convWithGeneralPadding(img, k, [1], [[1, 1]]); // [[[1, 2, 2, 1]]]
 * ```
 */
export function convWithGeneralPadding(
  lhs: Array,
  rhs: Array,
  windowStrides: number[],
  padding: PaddingType,
  lhsDilation?: number[],
  rhsDilation?: number[],
): Array {
  return convGeneralDilated(lhs, rhs, windowStrides, padding, { lhsDilation, rhsDilation });
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
