/** The `lax` namespace (first part): convolutions, erf, stopGradient. Argument parsing only. */
import { call, wasm } from "./bridge.js";
import { Array, type ArrayLike } from "./array.js";
import { applyOp, shareOp } from "./ops.js";
import * as checks from "./check.js";

export { scan, foriLoop } from "./lax-scan.js";
export type { ScanOptions, ScanPath } from "./lax-scan.js";
export { associativeScan } from "./lax-assoc.js";
export type { AssociativeScanOptions } from "./lax-assoc.js";

/**
 * The error function, element-wise; integer inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = lax.erf(x); // [0, 0.8427008]
 * ```
 */
export const erf = (x: ArrayLike): Array => applyOp("erf", "erf", [x]);
/**
 * The complementary error function `1 − erf(x)`, accurate for large `x`; integer inputs give
 * float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 3]);
 * using y = lax.erfc(x); // [1, 0.00002209]
 * ```
 */
export const erfc = (x: ArrayLike): Array => applyOp("erfc", "erfc", [x]);

/**
 * The identity with a zero derivative. A concrete array (eager mode) comes back as a new array
 * sharing its data (no copy; disposing it leaves `x` alive; the consuming entry returns `x`
 * itself, as jax-js does); a tracer gets a `stop_gradient` equation.
 *
 * @example
 * ```ts
 * const f = (x) => x.mul(lax.stopGradient(x)).sum(); // the second factor is a constant to grad
 * using x = np.array([3]);
 * using g = grad(f)(x); // [3]
 * ```
 */
export function stopGradient(x: Array): Array {
  if (!(x instanceof Array)) throw new TypeError(`stopGradient: expected an Array`);
  if (call(() => wasm.device(x._handle)) !== undefined) return shareOp("stopGradient", x);
  return applyOp("stopGradient", "stop_gradient", [x]);
}

export * as linalg from "./lax-linalg.js";

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

export * from "./lax-more.js";
export * from "./lax-unsupported.js";
