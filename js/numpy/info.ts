/** numpy's dtype queries: promoteTypes, resultType, finfo, iinfo, isscalar. */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { DType, parseDType } from "../dtype.js";

/** The join of two dtypes in the promotion lattice (weak typing ignored). */
export function promoteTypes(a: DType, b: DType): DType {
  const [d] = call(() =>
    wasm.promoteTypes(parseDType("promoteTypes", a), false, parseDType("promoteTypes", b), false),
  );
  return d as DType;
}

/** The dtype of combining the arguments (JS numbers are weakly typed float32). */
export function resultType(...args: (Array | DType | number | boolean)[]): DType {
  let acc: [string, boolean] | null = null;
  for (const x of args) {
    const [d, weak]: [string, boolean] =
      x instanceof Array
        ? [x.dtype, x.weakType]
        : typeof x === "number"
          ? [DType.Float32, true]
          : typeof x === "boolean"
            ? [DType.Bool, true]
            : [parseDType("resultType", x), false];
    if (acc === null) acc = [d, weak];
    else {
      const prev: [string, boolean] = acc;
      const r = call(() => wasm.promoteTypes(prev[0], prev[1], d, weak));
      acc = [r[0], r[1] === "weak"];
    }
  }
  if (acc === null) throw new Error("resultType: needs at least one argument");
  return acc[0] as DType;
}

/** True for JS numbers and booleans and 0-d arrays. */
export function isscalar(x: unknown): boolean {
  return typeof x === "number" || typeof x === "boolean" || (x instanceof Array && x.ndim === 0);
}

export interface FInfo {
  bits: number;
  dtype: DType;
  eps: number;
  epsneg: number;
  machep: number;
  max: number;
  maxexp: number;
  min: number;
  minexp: number;
  negep: number;
  nexp: number;
  nmant: number;
  precision: number;
  resolution: number;
  smallestNormal: number;
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

/** Machine limits of a float dtype. */
export function finfo(dtype: DType): FInfo {
  const d = parseDType("finfo", dtype);
  const info = FINFO[d];
  if (!info) throw new TypeError(`finfo: ${d} is not a float dtype`);
  return { ...info, dtype: d };
}

/** Limits of an integer dtype. */
export function iinfo(dtype: DType): { bits: number; dtype: DType; max: number; min: number } {
  const d = parseDType("iinfo", dtype);
  if (d === DType.Int32) return { bits: 32, dtype: d, max: 2147483647, min: -2147483648 };
  if (d === DType.Uint32) return { bits: 32, dtype: d, max: 4294967295, min: 0 };
  if (d === DType.Bool) return { bits: 8, dtype: d, max: 1, min: 0 };
  throw new TypeError(`iinfo: ${d} is not an integer dtype`);
}
