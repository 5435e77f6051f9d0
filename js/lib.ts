/**
 * The bridge to Rust's `libCall`: library functions that take arrays plus numeric parameters
 * and return arrays. Parameters are numbers (booleans as 0/1; null/undefined: not given).
 * JS values given where arrays are expected become temporary arrays, freed afterwards.
 */
import { call, wasm } from "./bridge.js";
import { Array } from "./array.js";
import { DType } from "./dtype.js";
import * as checks from "./check.js";

export type Param = number | boolean | null | undefined;
type Nested = number | boolean | Nested[];
export type ArrayInput = Array | Nested;

/** Runs library function `fn` on `inputs` with `params`; returns its result arrays. */
export function libCall(fn: string, inputs: ArrayInput[], params: Param[] = []): Array[] {
  const made: Array[] = [];
  try {
    const arrays = inputs.map((x) => {
      if (x instanceof Array) return x;
      if (typeof x === "number" || typeof x === "boolean" || globalThis.Array.isArray(x)) {
        const a = fromJs(fn, x);
        made.push(a);
        return a;
      }
      throw new TypeError(`${fn}: expected an Array, got ${typeof x}`);
    });
    const handles = new Float64Array(arrays.map((a) => a._handle));
    const numbers = new Float64Array(params.map((p) => (p == null ? NaN : Number(p))));
    const out = call(() => wasm.libCall(fn, handles, numbers));
    return globalThis.Array.from(out, (h) => new Array(h));
  } finally {
    for (const a of made) a.dispose();
  }
}

/** `libCall` of a function with one result. */
export function lib1(fn: string, inputs: ArrayInput[], params: Param[] = []): Array {
  return libCall(fn, inputs, params)[0];
}

/** Axes as parameters: their count, then the axes (null: all axes). */
export function axesParams(axis: number | number[] | null | undefined, fn = "axis"): Param[] {
  if (axis == null) return [NaN];
  const list = checks.intList(fn, "axis", axis);
  return [list.length, ...list];
}

/** A float32 (or bool) array from a JS number, boolean or nested list; a bare number is weak. */
function fromJs(fn: string, x: Nested): Array {
  const flat: (number | boolean)[] = [];
  const shape: number[] = [];
  for (let v: Nested = x; globalThis.Array.isArray(v); v = v[0]) shape.push(v.length);
  const walk = (v: Nested): void => {
    if (globalThis.Array.isArray(v)) v.forEach(walk);
    else flat.push(v);
  };
  walk(x);
  if (flat.length !== shape.reduce((a, b) => a * b, 1)) {
    throw new Error(`${fn}: ragged nested arrays`);
  }
  const bool = flat.length > 0 && flat.every((v) => typeof v === "boolean");
  if (typeof x === "number") return new Array(call(() => wasm.weakScalar(x, DType.Float32, "")));
  const data = bool ? Int32Array.from(flat, Number) : Float32Array.from(flat, Number);
  const bytes = new Uint8Array(data.buffer);
  const dtype = bool ? DType.Bool : DType.Float32;
  return new Array(call(() => wasm.arrayFromBytes(fn, bytes, new Float64Array(shape), dtype, "")));
}
