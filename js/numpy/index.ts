/**
 * The `numpy` namespace: creation here, elementwise functions and reductions in their own
 * files. Parsing of JS values only; the math is in Rust.
 */
import { call, wasm } from "../bridge.js";
import { Array, type ArrayLike } from "../array.js";
import { DType, parseDType } from "../dtype.js";
import { type Device } from "../device.js";
import * as checks from "../check.js";
import { shareOp } from "../ops.js";

export { Array, DType };
export type { ArrayLike };
export * as fft from "./fft.js";

/** Euler's number, `Math.E`. */
export const e = Math.E;
/** π, `Math.PI`. */
export const pi = Math.PI;
/** `Infinity`. */
export const inf = Infinity;
/** `NaN`. */
export const nan = NaN;
/** The Euler–Mascheroni constant γ ≈ 0.5772156649. */
export const eulerGamma = 0.5772156649015329;

/** `DType.Float32` (`"float32"`). */
export const float32 = DType.Float32;
/** `DType.Int32` (`"int32"`). */
export const int32 = DType.Int32;
/** `DType.Uint32` (`"uint32"`). */
export const uint32 = DType.Uint32;
/** `DType.Bool` (`"bool"`). */
export const bool = DType.Bool;
/** `DType.Float16` (`"float16"`). */
export const float16 = DType.Float16;
/** `DType.Float64` (`"float64"`). */
export const float64 = DType.Float64;

/** Options of `array`. */
export interface ArrayOptions {
  /** The shape to give the values (their count must match); by default that of the nesting. */
  shape?: number[];
  /** The dtype (default: float32 for numbers, bool for booleans, the typed array's own type). */
  dtype?: DType;
  /**
   * The device to create the array on, committing it there (default: the default device,
   * uncommitted).
   */
  device?: Device;
}

type Nested = number | boolean | Nested[];
type TypedInput = Float32Array | Float64Array | Int32Array | Uint32Array;

const TYPED: [new (n: number) => TypedInput, DType][] = [
  [Float32Array, DType.Float32],
  [Float64Array, DType.Float64],
  [Int32Array, DType.Int32],
  [Uint32Array, DType.Uint32],
];
// Float16Array where the runtime has one (browsers, Deno, Node ≥ 24; not Node 20/22).
const Float16Ctor = (globalThis as { Float16Array?: new (n: number) => TypedInput }).Float16Array;
if (Float16Ctor) TYPED.push([Float16Ctor, DType.Float16]);

/**
 * A new array from nested JS arrays, a typed array (`Float32Array`, `Float64Array`,
 * `Int32Array`, `Uint32Array`, `Float16Array` where the runtime has one) or a scalar. Numbers give
 * float32 and booleans bool unless `dtype` says otherwise; a bare number without a dtype is weakly
 * typed. The values are copied. Given an existing `Array` with nothing to change, returns a new
 * array sharing its data (disposing it leaves the argument alive; the consuming entry returns
 * the argument itself, as jax-js does).
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]); // float32 [2, 2]
 * using b = np.array(new Int32Array([1, 2, 3]), { shape: [3, 1] }); // int32 [3, 1]
 * using c = np.array([1, 2], { dtype: np.float64, device: "cpu" });
 * ```
 */
export function array(values: Array | Nested | TypedInput, options: ArrayOptions = {}): Array {
  const unknown = Object.keys(options).filter((k) => !["shape", "dtype", "device"].includes(k));
  if (unknown.length) throw new TypeError(`array: unknown option(s) ${unknown.join(", ")}`);
  if (values instanceof Array) {
    if (
      options.shape === undefined &&
      (options.dtype === undefined || options.dtype === values.dtype)
    ) {
      return shareOp("array", values);
    }
    throw new Error("array: reshaping or casting an existing Array is not supported yet");
  }
  const device = checks.device("array", options.device); // "": the default, uncommitted
  let flat: ArrayLike[] | TypedInput;
  let shape: number[];
  let dtype: DType;
  const typed = TYPED.find(([ctor]) => values instanceof ctor);
  if (typed) {
    flat = values as TypedInput;
    shape = [flat.length];
    dtype = options.dtype === undefined ? typed[1] : parseDType("array", options.dtype);
    if (dtype !== typed[1] && !(dtype === DType.Bool && typed[1] === DType.Int32)) {
      throw new TypeError(`array: a ${typed[0].name} cannot hold ${dtype} values`);
    }
  } else {
    [flat, shape] = flatten(values as Nested);
    const allBool = flat.length > 0 && flat.every((v) => typeof v === "boolean");
    dtype =
      options.dtype === undefined
        ? allBool
          ? DType.Bool
          : DType.Float32
        : parseDType("array", options.dtype);
    if (typeof values === "number" && options.dtype === undefined && options.shape === undefined) {
      return new Array(call(() => wasm.weakScalar(values, dtype, device)));
    }
  }
  if (options.shape !== undefined) {
    const n = [...checks.shape("array", options.shape)].reduce((a, b) => a * b, 1);
    if (n !== flat.length) {
      throw new Error(`array: ${flat.length} values do not fill shape [${options.shape}]`);
    }
    shape = options.shape;
  }
  if (dtype === DType.Float16 && !(Float16Ctor && flat instanceof Float16Ctor)) {
    // Rounded to float16 by Rust (one rounding from the JS number, as NumPy does).
    const numbers = new Float64Array(flat.length);
    for (let i = 0; i < flat.length; i++) numbers[i] = Number(flat[i]);
    return new Array(
      call(() => wasm.arrayFromNumbers("array", numbers, new Float64Array(shape), dtype, device)),
    );
  }
  const storage =
    TYPED.find(([, d]) => d === dtype)?.[0] ?? (dtype === DType.Bool ? Int32Array : null);
  if (!storage) throw new Error(`array: creating ${dtype} arrays is not supported yet`);
  if (dtype !== DType.Bool && flat instanceof storage) {
    // Already the element type: its bytes are copied once, straight into the device memory.
    const bytes = new Uint8Array(flat.buffer, flat.byteOffset, flat.byteLength);
    return new Array(
      call(() => wasm.arrayFromBytes("array", bytes, new Float64Array(shape), dtype, device)),
    );
  }
  const data = new storage(flat.length);
  if (dtype === DType.Bool) {
    // NumPy's truth: any non-zero number, NaN included, is true (stored as 1).
    for (let i = 0; i < flat.length; i++) data[i] = Number(flat[i]) !== 0 ? 1 : 0;
  } else if (dtype === DType.Int32 || dtype === DType.Uint32) {
    const [lo, hi] = dtype === DType.Int32 ? [-(2 ** 31), 2 ** 31 - 1] : [0, 2 ** 32 - 1];
    for (let i = 0; i < flat.length; i++) {
      const v = Math.trunc(Number(flat[i]));
      if (!(v >= lo && v <= hi)) {
        throw new RangeError(`array: ${Number(flat[i])} is out of range for ${dtype}`);
      }
      data[i] = v;
    }
  } else {
    for (let i = 0; i < flat.length; i++) data[i] = Number(flat[i]);
  }
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Array(
    call(() => wasm.arrayFromBytes("array", bytes, new Float64Array(shape), dtype, device)),
  );
}

/** Flattens nested arrays, checking they are rectangular. */
function flatten(values: Nested): [ArrayLike[], number[]] {
  if (!globalThis.Array.isArray(values)) {
    if (typeof values !== "number" && typeof values !== "boolean") {
      throw new TypeError(
        `array: expected numbers, booleans or nested arrays, got ${typeof values}`,
      );
    }
    return [[values], []];
  }
  const shape: number[] = [];
  for (let v: Nested = values; globalThis.Array.isArray(v); v = v[0]) shape.push(v.length);
  const flat: ArrayLike[] = [];
  const walk = (v: Nested, axis: number): void => {
    if (axis === shape.length) {
      if (globalThis.Array.isArray(v)) throw new Error("array: ragged nested arrays (too deep)");
      if (typeof v !== "number" && typeof v !== "boolean") {
        throw new TypeError(`array: expected numbers or booleans, got ${typeof v}`);
      }
      flat.push(v);
      return;
    }
    if (!globalThis.Array.isArray(v) || v.length !== shape[axis]) {
      throw new Error(
        `array: ragged nested arrays (axis ${axis} should have length ${shape[axis]})`,
      );
    }
    for (const x of v) walk(x, axis + 1);
  };
  walk(values, 0);
  return [flat, shape];
}

export * from "./creation.js";
export * from "./elementwise.js";
export * from "./trig.js";
export * from "./reductions.js";
export * from "./shape.js";
export * from "./math.js";
export * from "./statistics.js";
export * from "./logic.js";
export * from "./manipulation.js";
export * from "./indexing.js";
export * from "./matrices.js";
export * from "./differences.js";
export * from "./products.js";
export * from "./functional.js";
export * from "./cumulative.js";
export * from "./info.js";
export * as linalg from "./linalg.js";
