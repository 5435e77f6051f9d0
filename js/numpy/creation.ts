/**
 * Array creation: zeros, ones, full (and their *Like forms), eye, identity, arange, linspace,
 * logspace, geomspace and the window functions.
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { DType, parseDType } from "../dtype.js";
import { type Device } from "../device.js";
import * as lib from "../lib-calls.js";
import * as checks from "../check.js";
import { checkOptions, creationOptions } from "./creation-options.js";

/** The `dtype` and `device` options of creation functions. */
export interface DTypeAndDevice {
  /** The dtype (default float32, unless the function says otherwise). */
  dtype?: DType;
  /**
   * The device to create the array on, committing it there (default: the default device,
   * uncommitted).
   */
  device?: Device;
}

function shapeOf(fn: string, shape: number | number[]): Float64Array {
  return checks.shape(fn, shape);
}

function fill(
  fn: string,
  shape: number | number[],
  value: number,
  opts: DTypeAndDevice,
  dtype: DType,
): Array {
  checkOptions(fn, opts, ["dtype", "device"]);
  const d = opts.dtype === undefined ? dtype : parseDType(fn, opts.dtype);
  const device = checks.device(fn, opts.device); // "": the default, uncommitted
  return new Array(call(() => wasm.full(fn, shapeOf(fn, shape), value, d, device)));
}

/**
 * A new array of `shape` filled with 0 (float32 unless `dtype` is given).
 *
 * @example
 * ```ts
 * using z = np.zeros([2, 3], { dtype: np.int32 });
 * ```
 */
export function zeros(shape: number | number[], opts: DTypeAndDevice = {}): Array {
  return fill("zeros", shape, 0, opts, DType.Float32);
}

/**
 * A new array of `shape` filled with 1 (float32 unless `dtype` is given).
 *
 * @example
 * ```ts
 * using o = np.ones(3); // [1, 1, 1]
 * ```
 */
export function ones(shape: number | number[], opts: DTypeAndDevice = {}): Array {
  return fill("ones", shape, 1, opts, DType.Float32);
}

/**
 * A new array of `shape` filled with `fillValue`. Without `dtype`, the dtype follows the value: a
 * number gives float32, a boolean bool.
 *
 * @example
 * ```ts
 * using f = np.full([2], 7); // [7, 7]
 * ```
 */
export function full(
  shape: number | number[],
  fillValue: number | boolean,
  opts: DTypeAndDevice = {},
): Array {
  const dtype = typeof fillValue === "boolean" ? DType.Bool : DType.Float32;
  return fill("full", shape, checks.num("full", "fillValue", fillValue), opts, dtype);
}

/**
 * Options of the `*Like` functions: by default the result has the shape, dtype and device of the
 * given array.
 */
export interface LikeOptions extends DTypeAndDevice {
  /** The shape of the result, instead of that of the given array. */
  shape?: number[];
}

function like(fn: string, a: Array, value: number, opts: LikeOptions): Array {
  checkOptions(fn, opts, ["dtype", "device", "shape"]);
  if (!(a instanceof Array)) throw new TypeError(`${fn}: expected an Array`);
  const { shape, ...rest } = opts;
  if (shape === undefined && rest.dtype === undefined && rest.device === undefined) {
    // `a`'s shape, dtype and device, read in Rust: one call.
    return new Array(call(() => wasm.fullLike(fn, a._handle, value)));
  }
  return fill(fn, shape ?? a.shape, value, { device: a.device, ...rest }, a.dtype);
}

/**
 * A new array of zeros with `a`'s shape, dtype and device (each overridable in `opts`). `a` is
 * only read for its metadata.
 *
 * @example
 * ```ts
 * using x = np.ones([2], { dtype: np.int32 });
 * using z = np.zerosLike(x); // [0, 0], int32
 * ```
 */
export function zerosLike(a: Array, opts: LikeOptions = {}): Array {
  return like("zerosLike", a, 0, opts);
}

/**
 * A new array of ones with `a`'s shape, dtype and device (each overridable in `opts`).
 *
 * @example
 * ```ts
 * using x = np.zeros([2], { dtype: np.int32 });
 * using o = np.onesLike(x); // [1, 1], int32
 * ```
 */
export function onesLike(a: Array, opts: LikeOptions = {}): Array {
  return like("onesLike", a, 1, opts);
}

/**
 * A new array filled with `fillValue` with `a`'s shape, dtype and device (each overridable in
 * `opts`).
 *
 * @example
 * ```ts
 * using x = np.zeros([2]);
 * using f = np.fullLike(x, 7); // [7, 7]
 * ```
 */
export function fullLike(a: Array, fillValue: number | boolean, opts: LikeOptions = {}): Array {
  return like("fullLike", a, Number(fillValue), opts);
}

/**
 * An `N × M` matrix (`M` defaults to `N`) with ones on diagonal `k` (0: the main diagonal,
 * positive above, negative below) and zeros elsewhere; float32 unless `dtype` is given.
 *
 * @example
 * ```ts
 * using i = np.eye(2, 3); // [[1, 0, 0], [0, 1, 0]]
 * ```
 */
export function eye(
  numRows: number,
  numCols?: number,
  opts: DTypeAndDevice & { k?: number } = {},
): Array {
  checkOptions("eye", opts, ["dtype", "device", "k"]);
  const dtype = opts.dtype === undefined ? DType.Float32 : parseDType("eye", opts.dtype);
  const device = checks.device("eye", opts.device); // "": the default, uncommitted
  return new Array(call(() => wasm.eye(numRows, numCols ?? numRows, opts.k ?? 0, dtype, device)));
}

/**
 * The `n × n` identity matrix (float32 unless `dtype` is given).
 *
 * @example
 * ```ts
 * using i = np.identity(2); // [[1, 0], [0, 1]]
 * ```
 */
export function identity(n: number, opts: DTypeAndDevice = {}): Array {
  return eye(n, n, opts);
}

/**
 * Evenly spaced values in `[start, stop)` with step `step` (default 1); with `stop` omitted or
 * `null`, `[0, start)`. Integer arguments give int32 (jax-js's default), fractional ones float32,
 * unless `dtype` is given.
 *
 * @example
 * ```ts
 * using a = np.arange(3); // [0, 1, 2], int32
 * using b = np.arange(0, 1, 0.25); // [0, 0.25, 0.5, 0.75], float32
 * ```
 */
export function arange(
  start: number,
  stop?: number | null,
  step = 1,
  opts: DTypeAndDevice = {},
): Array {
  checkOptions("arange", opts, ["dtype", "device"]);
  for (const [what, v] of [
    ["start", start],
    ["stop", stop],
    ["step", step],
  ] as const) {
    if (v != null && typeof v !== "number") {
      throw new TypeError(
        `arange: ${what} must be a number (options go fourth: arange(start, stop, step, opts))`,
      );
    }
  }
  if (stop == null) [start, stop] = [0, start];
  const integral = [start, stop, step].every(Number.isInteger);
  const dtype =
    opts.dtype === undefined
      ? integral
        ? DType.Int32
        : DType.Float32
      : parseDType("arange", opts.dtype);
  const device = checks.device("arange", opts.device); // "": the default, uncommitted
  return new Array(call(() => wasm.arange(start, stop!, step, dtype, device)));
}

/**
 * `num` (default 50) evenly spaced values from `start` to `stop`, including `stop` unless
 * `endpoint` is false; float32 unless `dtype` is given.
 *
 * @example
 * ```ts
 * using x = np.linspace(0, 1, 5); // [0, 0.25, 0.5, 0.75, 1]
 * ```
 */
export function linspace(
  start: number,
  stop: number,
  num = 50,
  endpoint = true,
  opts: DTypeAndDevice = {},
): Array {
  const { dtype, device } = creationOptions("linspace", opts);
  const d = dtype ?? DType.Float32;
  const last = checks.bool("linspace", "endpoint", endpoint);
  return new Array(call(() => wasm.linspace(start, stop, num, last, d, device ?? "")));
}

function window(name: lib.WindowArgs["kind"]) {
  return (m: number, opts: DTypeAndDevice = {}): Array => {
    if (!Number.isInteger(m) || m < 0) {
      throw new TypeError(`${name}: M must be a non-negative integer, got ${m}`);
    }
    return lib.window({ kind: name, m, device: creationOptions(name, opts, false).device });
  };
}

/**
 * The Hamming window of `M` points (float32), as NumPy's `hamming`.
 *
 * @example
 * ```ts
 * using w = np.hamming(3); // [0.08, 1, 0.08]
 * ```
 */
export const hamming = window("hamming");

/**
 * The Hann window of `M` points (float32), as NumPy's `hanning`.
 *
 * @example
 * ```ts
 * using w = np.hann(3); // [0, 1, 0]
 * ```
 */
export const hann = window("hann");

/**
 * The Bartlett (triangular) window of `M` points (float32).
 *
 * @example
 * ```ts
 * using w = np.bartlett(3); // [0, 1, 0]
 * ```
 */
export const bartlett = window("bartlett");

/**
 * The Blackman window of `M` points (float32).
 *
 * @example
 * ```ts
 * using w = np.blackman(3); // ≈ [0, 1, 0]
 * ```
 */
export const blackman = window("blackman");

/**
 * `base ** linspace(start, stop, num)`.
 *
 * @example
 * ```ts
 * using x = np.logspace(0, 2, 3); // [1, 10, 100]
 * ```
 */
export function logspace(
  start: number,
  stop: number,
  num = 50,
  endpoint = true,
  base = 10,
  opts: DTypeAndDevice = {},
): Array {
  const { dtype, device } = creationOptions("logspace", opts);
  checks.bool("logspace", "endpoint", endpoint);
  return lib.logspace({ start, stop, num, endpoint, base, dtype, device });
}

/**
 * Numbers spaced evenly on a log scale from `start` to `stop` (same sign, non-zero).
 *
 * @example
 * ```ts
 * using x = np.geomspace(1, 8, 4); // [1, 2, 4, 8]
 * ```
 */
export function geomspace(
  start: number,
  stop: number,
  num = 50,
  endpoint = true,
  opts: DTypeAndDevice = {},
): Array {
  const { dtype, device } = creationOptions("geomspace", opts);
  checks.bool("geomspace", "endpoint", endpoint);
  return lib.geomspace({ start, stop, num, endpoint, dtype, device });
}
