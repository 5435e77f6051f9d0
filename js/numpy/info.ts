/** numpy's dtype queries: promoteTypes, resultType, finfo, iinfo, isscalar. */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { DType, parseDType } from "../dtype.js";

/**
 * The dtype two strongly typed operands of these dtypes combine to: their join in `bool <
 * uint32 < int32 < float16 < float32 < float64` (weak typing ignored).
 *
 * @example
 * ```ts
 * np.promoteTypes(np.int32, np.float16); // "float16"
 * ```
 */
export function promoteTypes(a: DType, b: DType): DType {
  const [d] = call(() =>
    wasm.promoteTypes(parseDType("promoteTypes", a), false, parseDType("promoteTypes", b), false),
  );
  return d as DType;
}

/**
 * The dtype an operation on all of `args` would give: arrays count with their dtype and weak
 * type, dtype names as strong types, JS numbers as weak float32 and booleans as weak bool.
 *
 * @example
 * ```ts
 * using x = np.array([1], { dtype: np.int32 });
 * np.resultType(x, 2.5); // "int32" (2.5 is weak)
 * ```
 */
export function resultType(...args: (Array | DType | number | boolean)[]): DType {
  const dtypes: string[] = [];
  const weak = new Uint8Array(args.length);
  args.forEach((x, i) => {
    const [d, w]: [string, boolean] =
      x instanceof Array
        ? [x.dtype, x.weakType]
        : typeof x === "number"
          ? [DType.Float32, true]
          : typeof x === "boolean"
            ? [DType.Bool, true]
            : [parseDType("resultType", x), false];
    dtypes.push(d);
    weak[i] = w ? 1 : 0;
  });
  return call(() => wasm.resultType(dtypes, weak)) as DType;
}

/**
 * Whether `x` is a JS number, a JS boolean or a 0-d `Array`.
 *
 * @example
 * ```ts
 * using x = np.array(3);
 * np.isscalar(x); // true
 * np.isscalar(3); // true
 * ```
 */
export function isscalar(x: unknown): boolean {
  return typeof x === "number" || typeof x === "boolean" || (x instanceof Array && x.ndim === 0);
}

/** Machine limits of a floating-point dtype, as NumPy's `finfo` names them. */
export interface FInfo {
  /** Bits per element. */
  bits: number;
  /** The dtype described. */
  dtype: DType;
  /** The difference between 1 and the next larger representable number. */
  eps: number;
  /** The difference between 1 and the next smaller representable number. */
  epsneg: number;
  /** The exponent of `eps` (`eps = 2^machep`). */
  machep: number;
  /** The largest finite value. */
  max: number;
  /** The smallest power of 2 that overflows. */
  maxexp: number;
  /** The most negative finite value (`-max`). */
  min: number;
  /** The exponent of the smallest normal number. */
  minexp: number;
  /** The exponent of `epsneg`. */
  negep: number;
  /** Bits of the exponent. */
  nexp: number;
  /** Bits of the mantissa (without the implicit bit). */
  nmant: number;
  /** The approximate number of exact decimal digits. */
  precision: number;
  /** `10^-precision`. */
  resolution: number;
  /** The smallest positive normal number. */
  smallestNormal: number;
  /** The smallest positive subnormal number. */
  smallestSubnormal: number;
}

const FINFO: Record<string, Omit<FInfo, "dtype">> = {
  float16: {
    bits: 16,
    eps: 2 ** -10,
    epsneg: 2 ** -11,
    machep: -10,
    max: 65504,
    maxexp: 16,
    min: -65504,
    minexp: -14,
    negep: -11,
    nexp: 5,
    nmant: 10,
    precision: 3,
    resolution: 1e-3,
    smallestNormal: 2 ** -14,
    smallestSubnormal: 2 ** -24,
  },
  float32: {
    bits: 32,
    eps: 2 ** -23,
    epsneg: 2 ** -24,
    machep: -23,
    max: 3.4028234663852886e38,
    maxexp: 128,
    min: -3.4028234663852886e38,
    minexp: -126,
    negep: -24,
    nexp: 8,
    nmant: 23,
    precision: 6,
    resolution: 1e-6,
    smallestNormal: 2 ** -126,
    smallestSubnormal: 2 ** -149,
  },
  float64: {
    bits: 64,
    eps: 2 ** -52,
    epsneg: 2 ** -53,
    machep: -52,
    max: Number.MAX_VALUE,
    maxexp: 1024,
    min: -Number.MAX_VALUE,
    minexp: -1022,
    negep: -53,
    nexp: 11,
    nmant: 52,
    precision: 15,
    resolution: 1e-15,
    smallestNormal: 2 ** -1022,
    smallestSubnormal: 2 ** -1074,
  },
};

/**
 * Machine limits of a float dtype (`float16`, `float32`, `float64`); other dtypes throw.
 *
 * @example
 * ```ts
 * np.finfo(np.float32).eps; // 1.1920928955078125e-7
 * ```
 */
export function finfo(dtype: DType): FInfo {
  const d = parseDType("finfo", dtype);
  const info = FINFO[d];
  if (!info) throw new TypeError(`finfo: ${d} is not a float dtype`);
  return { ...info, dtype: d };
}

/**
 * The limits of an integer dtype (`int32`, `uint32`, or `bool` as 0 and 1); float dtypes throw.
 *
 * @example
 * ```ts
 * np.iinfo(np.int32).max; // 2147483647
 * ```
 */
export function iinfo(dtype: DType): {
  /** Bits per element (8 for bool). */
  bits: number;
  /** The dtype described. */
  dtype: DType;
  /** The largest value. */
  max: number;
  /** The smallest value. */
  min: number;
} {
  const d = parseDType("iinfo", dtype);
  if (d === DType.Int32) return { bits: 32, dtype: d, max: 2147483647, min: -2147483648 };
  if (d === DType.Uint32) return { bits: 32, dtype: d, max: 4294967295, min: 0 };
  if (d === DType.Bool) return { bits: 8, dtype: d, max: 1, min: 0 };
  throw new TypeError(`iinfo: ${d} is not an integer dtype`);
}
