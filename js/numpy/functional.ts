/**
 * numpy's function-application helpers: fromfunction, applyOverAxes and applyAlongAxis (the
 * user's function runs in JavaScript, under `vmap` where it maps).
 */
import { Array } from "../array.js";
import { DType } from "../dtype.js";
import { arange } from "./creation.js";
import { broadcastTo, moveaxis, transpose } from "./shape.js";
import { vmap } from "../vmap.js";
import * as checks from "../check.js";

/**
 * `fn(i0, i1, …)` on index grids of `shape` (float32 unless `dtype` says otherwise, as JAX).
 *
 * @example
 * ```ts
 * const f = (i, j) => {
 *   using tens = i.mul(10); // fn runs eagerly: its intermediates are the caller's to free
 *   return tens.add(j);
 * };
 * using x = np.fromfunction(f, [2, 2]); // [[0, 1], [10, 11]]
 * ```
 */
export function fromfunction(
  fn: (...idx: Array[]) => Array,
  shape: number[],
  opts: { dtype?: DType } = {},
): Array {
  // Everything made here is freed, also when a step fails.
  const made: Array[] = [];
  const keep = (a: Array): Array => (made.push(a), a);
  try {
    const dims = [...checks.shape("fromfunction", shape)];
    // Axis d's grid is a broadcast view of one line of indices, so `fn` makes the only full
    // pass over memory. The indices are float32 unless `dtype` says otherwise (JAX's and
    // jax-js's default).
    const grids = dims.map((n, d) => {
      const line = keep(keep(arange(n)).astype(opts.dtype ?? DType.Float32));
      const axes = dims.map((m, e) => (e === d ? m : 1));
      return keep(broadcastTo(keep(line.reshape(axes)), dims));
    });
    return fn(...grids);
  } finally {
    for (const a of new Set(made)) a.dispose();
  }
}

/**
 * Applies `fn(a, axis)` over each axis in turn, keeping the rank.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using s = np.applyOverAxes((a, ax) => np.sum(a, ax), x, [0, 1]); // [[10]]
 * ```
 */
export function applyOverAxes(
  fn: (a: Array, axis: number) => Array,
  a: Array,
  axes: number | number[],
): Array {
  return overEachAxis(fn, a, checks.intList("applyOverAxes", "axes", axes));
}

function overEachAxis(fn: (a: Array, axis: number) => Array, a: Array, list: number[]): Array {
  let cur = a;
  try {
    for (const ax of list) cur = applyOnce(fn, a, cur, ax);
  } catch (e) {
    // The intermediate of the axes so far.
    if (cur !== a) cur.dispose();
    throw e;
  }
  return cur;
}

function applyOnce(fn: (a: Array, axis: number) => Array, a: Array, cur: Array, ax: number): Array {
  const axis = ax < 0 ? ax + a.ndim : ax;
  let r = fn(cur, axis);
  if (r.ndim === cur.ndim - 1) {
    const shape = [...r.shape];
    shape.splice(axis, 0, 1);
    const e = r.reshape(shape);
    r.dispose();
    r = e;
  } else if (r.ndim !== cur.ndim) {
    r.dispose();
    throw new Error("applyOverAxes: fn must keep the rank or drop the axis");
  }
  if (cur !== a) cur.dispose();
  return r;
}

/**
 * `func1d` applied to every 1-D slice along `axis` (through nested vmap).
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using s = np.applyAlongAxis((row) => np.sum(row), 1, x); // [3, 7]
 * ```
 */
export function applyAlongAxis(
  func1d: (x: Array, ...args: unknown[]) => Array,
  axis: number,
  arr: Array,
  ...args: unknown[]
): Array {
  const ax = axis < 0 ? axis + arr.ndim : axis;
  if (!(ax >= 0 && ax < arr.ndim)) throw new Error(`applyAlongAxis: axis ${axis} out of range`);
  const moved = moveaxis(arr, ax, -1);
  let f = (x: Array): Array => func1d(x, ...args);
  for (let i = 0; i < arr.ndim - 1; i++) f = vmap(f) as (x: Array) => Array;
  try {
    const out = f(moved);
    const lead = arr.ndim - 1;
    const extra = out.ndim - lead;
    if (extra === 0 || ax === lead) return out;
    const perm = [
      ...globalThis.Array.from({ length: ax }, (_, i) => i),
      ...globalThis.Array.from({ length: extra }, (_, i) => lead + i),
      ...globalThis.Array.from({ length: lead - ax }, (_, i) => ax + i),
    ];
    try {
      return transpose(out, perm);
    } finally {
      out.dispose();
    }
  } finally {
    moved.dispose();
  }
}
