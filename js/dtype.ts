/**
 * Element types, with jax-js's names (`DType.Float32 === "float32"`; the strings are accepted
 * wherever a dtype is). Promotion follows `bool < uint32 < int32 < float16 < float32 <
 * float64`; see the `numpy` namespace page for the rules.
 *
 * @example
 * ```ts
 * using x = np.zeros([2], { dtype: DType.Int32 }); // same as { dtype: "int32" } or np.int32
 * ```
 */
export enum DType {
  /** IEEE binary32; the default dtype of arrays made from JS numbers. Every device. */
  Float32 = "float32",
  /** 32-bit two's-complement integers (wrapping arithmetic). Every device. */
  Int32 = "int32",
  /** 32-bit unsigned integers (wrapping arithmetic); random keys and bits. Every device. */
  Uint32 = "uint32",
  /** Booleans, stored as 32-bit integers 0/1 (`data()` gives an `Int32Array`). Every device. */
  Bool = "bool",
  /**
   * IEEE binary16: stored in 16 bits, each operation computed in float32 and rounded. cpu,
   * wasm, and webgpu where the adapter has `shader-f16`.
   */
  Float16 = "float16",
  /** IEEE binary64. cpu and wasm only (WebGPU has no 64-bit floats). */
  Float64 = "float64",
}

/**
 * The typed array `data()` and `dataSync()` return: `Float32Array` for float32 (and for
 * float16 where the runtime has no `Float16Array`), `Float64Array`, `Int32Array` for int32 and
 * bool, `Uint32Array`.
 */
export type DataArray = Float32Array | Int32Array | Uint32Array | Float64Array;

const DTYPES = new Set<string>(Object.values(DType));

/** Checks a dtype given by a user (a `DType` value or its string). */
export function parseDType(fn: string, dtype: unknown): DType {
  if (typeof dtype === "string" && DTYPES.has(dtype)) return dtype as DType;
  throw new TypeError(`${fn}: unknown dtype ${JSON.stringify(dtype)}`);
}
