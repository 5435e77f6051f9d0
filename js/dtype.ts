/** Element types, with jax-js's names (`DType.Float32 === "float32"`). */
export enum DType {
  Float32 = "float32",
  Int32 = "int32",
  Uint32 = "uint32",
  Bool = "bool",
  Float16 = "float16",
  Float64 = "float64",
}

export type DataArray = Float32Array | Int32Array | Uint32Array | Float64Array;

const DTYPES = new Set<string>(Object.values(DType));

/** Checks a dtype given by a user (a `DType` value or its string). */
export function parseDType(fn: string, dtype: unknown): DType {
  if (typeof dtype === "string" && DTYPES.has(dtype)) return dtype as DType;
  throw new TypeError(`${fn}: unknown dtype ${JSON.stringify(dtype)}`);
}
