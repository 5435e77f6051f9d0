/**
 * Argument checks shared by the namespaces: integers, axes and shapes given as JS numbers or
 * lists. Each names the function and the argument, accepts only what it documents (no silent
 * coercion of strings, `null`, fractions or array-likes), and never iterates an `Array` (whose
 * iteration makes slices the caller would have to free) or an unbounded array-like.
 */
import { Array } from "./array.js";

/** More entries than any axis list or shape has (arrays have far fewer axes). */
const MAX_ENTRIES = 64;

function describe(v: unknown): string {
  if (v instanceof Array) return `an Array (${v.toString()})`;
  if (v === null) return "null";
  if (globalThis.Array.isArray(v)) return "a list";
  if (typeof v === "string") return `the string ${JSON.stringify(v)}`;
  if (typeof v === "number") return String(v);
  return typeof v;
}

/** `v` as an integer (within ±2^53), or a TypeError naming `fn` and `what`. */
export function int(fn: string, what: string, v: unknown): number {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  throw new TypeError(`${fn}: ${what} must be an integer, got ${describe(v)}`);
}

/** `v` as a number (booleans too), or a TypeError naming `fn` and `what`. */
export function num(fn: string, what: string, v: unknown): number {
  if (typeof v === "number" || typeof v === "boolean") return Number(v);
  throw new TypeError(`${fn}: ${what} must be a number, got ${describe(v)}`);
}

/** `v` as a boolean, or a TypeError naming `fn` and `what`. */
export function bool(fn: string, what: string, v: unknown): boolean {
  if (typeof v === "boolean") return v;
  throw new TypeError(`${fn}: ${what} must be a boolean, got ${describe(v)}`);
}

/** An integer or a list of integers (JS array or typed array) as a list. */
export function intList(fn: string, what: string, v: unknown): number[] {
  if (typeof v === "number") return [int(fn, what, v)];
  const list =
    globalThis.Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))
      ? (v as ArrayLike<unknown>)
      : null;
  if (list === null) {
    throw new TypeError(
      `${fn}: ${what} must be an integer or a list of integers, got ${describe(v)}`,
    );
  }
  if (list.length > MAX_ENTRIES) {
    throw new RangeError(`${fn}: ${what} has ${list.length} entries, more than ${MAX_ENTRIES}`);
  }
  const out: number[] = [];
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (typeof x !== "number" || !Number.isSafeInteger(x)) {
      throw new TypeError(`${fn}: ${what} must hold integers, got ${describe(x)} at ${i}`);
    }
    out.push(x);
  }
  return out;
}

/** `v` as a JS array (of arrays, numbers, …), or a TypeError naming `fn` and `what`. */
export function list<T = unknown>(fn: string, what: string, v: unknown): T[] {
  if (globalThis.Array.isArray(v)) return v as T[];
  throw new TypeError(`${fn}: ${what} must be a list, got ${describe(v)}`);
}

/** An options object (`undefined` and `null`: no options), or a TypeError naming `fn`. */
export function options<T extends object>(fn: string, v: T | null | undefined): Partial<T> {
  if (v === undefined || v === null) return {};
  if (typeof v === "object" && !globalThis.Array.isArray(v) && !(v instanceof Array)) return v;
  throw new TypeError(`${fn}: options must be an object, got ${describe(v)}`);
}

/** A device option: `undefined`/`null` (the default device, uncommitted: "") or a name. */
export function device(fn: string, v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  throw new TypeError(`${fn}: device must be a device name such as "cpu", got ${describe(v)}`);
}

/** Axes: `null`/`undefined` (all axes: undefined), an integer or a list of integers. */
export function axes(fn: string, v: unknown): Int32Array | undefined {
  if (v === null || v === undefined) return undefined;
  const list = intList(fn, "axis", v);
  if (list.some((a) => a < -(2 ** 31) || a >= 2 ** 31)) {
    throw new RangeError(`${fn}: axis ${list.find((a) => Math.abs(a) >= 2 ** 31)} is out of range`);
  }
  return new Int32Array(list);
}

/** One axis: `null`/`undefined` (none: undefined) or an integer. */
export function axis(fn: string, v: unknown): number | undefined {
  return v === null || v === undefined ? undefined : int(fn, "axis", v);
}

/** A shape: an integer or a list of non-negative integers. */
export function shape(fn: string, v: unknown, what = "shape"): Float64Array {
  const dims = intList(fn, what, v);
  const bad = dims.find((d) => d < 0);
  if (bad !== undefined) throw new RangeError(`${fn}: ${what} has a negative dimension ${bad}`);
  return new Float64Array(dims);
}
