/**
 * numpy's array manipulation beyond views: repeat, pad, roll, rot90, append, broadcastArrays,
 * broadcastShapes, unstack, arraySplit and hsplit/vsplit/dsplit, and the metadata functions
 * (shape, ndim, size). Argument parsing only; the math is in Rust.
 */
import { call, wasm } from "../bridge.js";
import { Array, type ArrayLike } from "../array.js";
import type { ArrayInput } from "../lib.js";
import * as lib from "../lib-calls.js";
import { split } from "./shape.js";
import * as checks from "../check.js";

function check(fn: string, x: unknown): asserts x is Array {
  if (!(x instanceof Array)) throw new TypeError(`${fn}: expected an Array, got ${typeof x}`);
}

/**
 * Each element `repeats` times along `axis` (the flattened array when none).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using r = np.repeat(x, 2); // [1, 1, 2, 2]
 * ```
 */
export function repeat(a: Array, repeats: number, axis: number | null = null): Array {
  check("repeat", a);
  return lib.repeat({ x: a, repeats, axis });
}

type Pair = [number, number];

/**
 * Zero padding: one width for all sides, a pair for all axes, a pair per axis, or by axis.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using p = np.pad(x, 1); // [0, 1, 2, 0]
 * ```
 */
export function pad(x: Array, width: number | Pair | Pair[] | Record<number, Pair>): Array {
  check("pad", x);
  const rank = x.ndim;
  let pairs: Pair[];
  if (typeof width === "number") pairs = globalThis.Array(rank).fill([width, width]);
  else if (globalThis.Array.isArray(width) && typeof width[0] === "number") {
    pairs = globalThis.Array(rank).fill(width as Pair);
  } else if (globalThis.Array.isArray(width)) pairs = width as Pair[];
  else {
    pairs = globalThis.Array.from({ length: rank }, () => [0, 0] as Pair);
    for (const [k, p] of Object.entries(width)) pairs[(Number(k) + rank) % rank] = p;
  }
  if (pairs.length !== rank) {
    throw new Error(`pad: ${pairs.length} pairs of widths for an array of rank ${rank}`);
  }
  const before = new Float64Array(pairs.map((p) => p[0]));
  const after = new Float64Array(pairs.map((p) => p[1]));
  return new Array(call(() => wasm.pad(x._handle, before, after)));
}

/**
 * Shifts elements cyclically along `axis` (the flattened array when none).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using r = np.roll(x, 1); // [3, 1, 2]
 * ```
 */
export function roll(
  a: Array,
  shift: number | number[],
  axis: number | number[] | null = null,
): Array {
  check("roll", a);
  const shifts = checks.intList("roll", "shift", shift);
  const axes = axis === null ? null : checks.intList("roll", "axis", axis);
  if (axes !== null && axes.length !== shifts.length) {
    throw new Error("roll: shift and axis must match in length");
  }
  return lib.roll({ x: a, shift: shifts, axis: axes });
}

/**
 * Rotates by 90° `k` times from the first of `axes` towards the second.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using r = np.rot90(x); // [[2, 4], [1, 3]]
 * ```
 */
export function rot90(m: Array, k = 1, axes: [number, number] = [0, 1]): Array {
  check("rot90", m);
  return lib.rot90({ x: m, k, axes });
}

/**
 * `values` appended along `axis` (both flattened when none).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using a = np.append(x, [3]); // [1, 2, 3]
 * ```
 */
export function append(arr: Array, values: ArrayInput, axis: number | null = null): Array {
  check("append", arr);
  return lib.append({ x: arr, values, axis });
}

/**
 * The arrays broadcast against each other to one shape: a list of views, one per argument, each
 * owned by the caller.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.array([[1], [2]]);
 * const [bx, by] = np.broadcastArrays(x, y); // bx = [[1, 2], [1, 2]], by = [[1, 1], [2, 2]]
 * bx.dispose();
 * by.dispose();
 * ```
 */
export function broadcastArrays(...arrays: Array[]): Array[] {
  return lib.broadcastArrays({ arrays });
}

/**
 * NumPy's broadcast of shapes (incompatible shapes: TypeError).
 *
 * @example
 * ```ts
 * np.broadcastShapes([2, 1], [3]); // [2, 3]
 * ```
 */
export function broadcastShapes(...given: number[][]): number[] {
  const shapes = given.map((s) => checks.shape("broadcastShapes", s));
  const dims = new Float64Array(shapes.flatMap((s) => [...s]));
  const ranks = new Float64Array(shapes.map((s) => s.length));
  try {
    return globalThis.Array.from(call(() => wasm.broadcastShapes(dims, ranks)));
  } catch (e) {
    // Shapes that do not broadcast are a TypeError, as NumPy's ValueError maps in jax-js.
    throw e instanceof Error ? new TypeError(e.message) : e;
  }
}

/**
 * The slices along `axis`, each without it.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * const [r0, r1] = np.unstack(x); // r0 = [1, 2], r1 = [3, 4]
 * r0.dispose();
 * r1.dispose();
 * ```
 */
export function unstack(x: Array, axis = 0): Array[] {
  check("unstack", x);
  return lib.unstack({ x, axis });
}

/**
 * Like `split`, but a section count need not divide the axis.
 *
 * @example
 * ```ts
 * using x = np.arange(5);
 * const parts = np.arraySplit(x, 2); // sizes 3 and 2
 * parts.map((p) => p.size); // [3, 2]
 * parts.forEach((p) => p.dispose());
 * ```
 */
export function arraySplit(a: Array, sections: number | number[], axis = 0): Array[] {
  check("arraySplit", a);
  if (typeof sections !== "number") return split(a, sections, axis);
  return lib.arraySplit({ x: a, sections, axis });
}

/**
 * `split` along axis 1 (axis 0 for 1-D arrays).
 *
 * @example
 * ```ts
 * using x = np.ones([2, 4]);
 * const [a, b] = np.hsplit(x, 2); // two [2, 2] arrays
 * a.dispose();
 * b.dispose();
 * ```
 */
export const hsplit = (a: Array, sections: number | number[]): Array[] =>
  split(a, sections, a.ndim <= 1 ? 0 : 1);
/**
 * `split` along axis 0.
 *
 * @example
 * ```ts
 * using x = np.ones([4, 2]);
 * const [a, b] = np.vsplit(x, 2); // two [2, 2] arrays
 * a.dispose();
 * b.dispose();
 * ```
 */
export const vsplit = (a: Array, sections: number | number[]): Array[] => split(a, sections, 0);
/**
 * `split` along axis 2.
 *
 * @example
 * ```ts
 * using x = np.ones([1, 1, 4]);
 * const [a, b] = np.dsplit(x, 2); // two [1, 1, 2] arrays
 * a.dispose();
 * b.dispose();
 * ```
 */
export const dsplit = (a: Array, sections: number | number[]): Array[] => split(a, sections, 2);

const shapeOf = (fn: string, x: unknown): number[] => {
  if (x instanceof Array) return x.shape;
  if (typeof x === "number" || typeof x === "boolean") return [];
  throw new TypeError(`${fn}: expected an Array or a scalar`);
};

/**
 * The shape of an array, or `[]` for a JS number or boolean. Reads metadata only.
 *
 * @example
 * ```ts
 * using x = np.zeros([2, 3]);
 * np.shape(x); // [2, 3]
 * ```
 */
export function shape(x: ArrayLike): number[] {
  return shapeOf("shape", x);
}

/**
 * The number of axes of an array (0 for a JS number or boolean).
 *
 * @example
 * ```ts
 * using x = np.zeros([2, 3]);
 * np.ndim(x); // 2
 * ```
 */
export function ndim(x: ArrayLike): number {
  return shapeOf("ndim", x).length;
}

/**
 * The number of elements of an array (1 for a JS number or boolean), or the size of axis `axis`.
 *
 * @example
 * ```ts
 * using x = np.zeros([2, 3]);
 * np.size(x); // 6
 * ```
 */
export function size(a: ArrayLike, axis?: number): number {
  const s = shapeOf("size", a);
  if (axis === undefined) return s.reduce((p, d) => p * d, 1);
  const k = axis < 0 ? axis + s.length : axis;
  if (!(k >= 0 && k < s.length)) throw new Error(`size: axis ${axis} out of range`);
  return s[k];
}
