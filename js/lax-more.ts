/**
 * More of `lax`: `dot` with dimension numbers, static and dynamic slicing, dynamic updates,
 * `topK` and `bitcastConvertType`. Dynamic offsets may be traced values (they compile to
 * gathers), so these work under jit, grad and scan. The math is in Rust.
 */
import { call, wasm } from "./bridge.js";
import { Array, type ArrayLike } from "./array.js";
import { DType, parseDType } from "./dtype.js";
import { lib1, libCall } from "./lib.js";

export interface DotDimensionNumbers {
  lhsContractingDims?: number[];
  rhsContractingDims?: number[];
  lhsBatchDims?: number[];
  rhsBatchDims?: number[];
}

const list = (d?: number[]): number[] => (d === undefined ? [NaN] : [d.length, ...d]);

/** General dot product; output axes: batch, lhs free, rhs free. */
export function dot(lhs: Array, rhs: Array, dims: DotDimensionNumbers = {}): Array {
  return lib1(
    "lax.dot",
    [lhs, rhs],
    [
      ...list(dims.lhsContractingDims),
      ...list(dims.rhsContractingDims),
      ...list(dims.lhsBatchDims ?? []),
      ...list(dims.rhsBatchDims ?? []),
    ],
  );
}

/** `x[start:limit]` along `axis` (a view). */
export function sliceInDim(x: Array, start: number, limit: number | null = null, axis = 0): Array {
  if (!(x instanceof Array)) throw new TypeError("sliceInDim: expected an Array");
  const ax = axis < 0 ? axis + x.ndim : axis;
  const index: ([] | [number, number])[] = globalThis.Array.from({ length: x.ndim }, () => []);
  index[ax] = [start, limit ?? x.shape[ax]];
  return x.slice(...index);
}

/** A `sliceSizes` block starting at `startIndices` (clamped to fit; starts may be traced). */
export function dynamicSlice(x: Array, startIndices: ArrayLike[], sliceSizes: number[]): Array {
  return lib1("lax.dynamicSlice", [x, ...startIndices], sliceSizes);
}

export const uncheckedDynamicSlice = dynamicSlice;

/** Element `index` along `axis` (the axis kept with `keepdims`). */
export function dynamicIndexInDim(x: Array, index: ArrayLike, axis = 0, keepdims = false): Array {
  return lib1("lax.dynamicIndexInDim", [x, index], [axis, keepdims]);
}

/** `dst` with `src` written at `offset` along `axis` (clamped to fit); inputs not consumed. */
export function dynamicUpdateSlice(dst: Array, src: Array, offset: ArrayLike, axis = 0): Array {
  return lib1("lax.dynamicUpdateSlice", [dst, src, offset], [axis]);
}

/** `[values, indices]` of the `k` largest elements along `axis` (stable; int32 indices). */
export function topK(x: Array, k: number, axis = -1): [Array, Array] {
  const [values, indices] = libCall("lax.topK", [x], [k, axis]);
  return [values, indices];
}

/** Reinterprets the bits as `dtype` (same size). */
export function bitcastConvertType(x: Array, dtype: DType): Array {
  if (!(x instanceof Array)) throw new TypeError("bitcastConvertType: expected an Array");
  const d = parseDType("bitcastConvertType", dtype);
  return new Array(call(() => wasm.convert(x._handle, d, true)));
}
