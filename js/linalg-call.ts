/** The one path from the linear algebra namespaces to Rust: arrays by handle, options as numbers. */
import { call, wasm } from "./bridge.js";
import { Array } from "./array.js";

/** Calls Rust linear algebra function `name` (reported to the user as `fn`). */
export function linalgCall(
  fn: string,
  name: string,
  arrays: unknown[],
  opts: number[] = [],
  text = "",
): Array[] {
  const handles = new Float64Array(arrays.length);
  arrays.forEach((a, i) => {
    if (!(a instanceof Array)) {
      throw new TypeError(`${fn}: argument ${i + 1} must be an Array, got ${typeof a}`);
    }
    handles[i] = a._handle;
  });
  const out = call(() => wasm.linalgCall(name, handles, new Float64Array(opts), text));
  return globalThis.Array.from(out, (h) => new Array(h));
}

/** Checks that `opts` is an options object with only the `known` keys. */
export function options<T extends object>(fn: string, opts: T | undefined, known: string[]): T {
  if (opts === undefined || opts === null) return {} as T;
  if (typeof opts !== "object") throw new TypeError(`${fn}: options must be an object`);
  const unknown = Object.keys(opts).filter((k) => !known.includes(k));
  if (unknown.length) throw new TypeError(`${fn}: unknown option(s) ${unknown.join(", ")}`);
  return opts;
}

export const flag = (x: boolean | undefined, dflt: boolean): number => ((x ?? dflt) ? 1 : 0);

/** Axes as `[hasAxis, count, …axes]` for Rust (null: all axes). */
export function axesOpt(fn: string, axis: number | number[] | null | undefined): number[] {
  if (axis === null || axis === undefined) return [0, 0];
  const list = typeof axis === "number" ? [axis] : axis;
  if (!globalThis.Array.isArray(list) || list.some((a) => !Number.isInteger(a))) {
    throw new TypeError(`${fn}: axis must be an integer or a list of integers`);
  }
  return [1, list.length, ...list];
}

/** A norm order as (number, text): null → (NaN, ""), "fro"/"nuc" → (NaN, text). */
export function ordOpt(fn: string, ord: unknown): [number, string] {
  if (ord === null || ord === undefined) return [NaN, ""];
  if (ord === "fro" || ord === "nuc") return [NaN, ord];
  if (ord === "inf" || ord === "infinity") return [Infinity, ""];
  if (typeof ord === "number" && !Number.isNaN(ord)) return [ord, ""];
  throw new TypeError(`${fn}: ord must be a number, Infinity, "fro" or "nuc", got ${String(ord)}`);
}
