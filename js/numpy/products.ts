/**
 * More numpy products (tensordot, inner, outer, vecdot, vdot, matvec, vecmat, cross),
 * polynomials, unwrap, windows, logspace/geomspace, fromfunction and applyOverAxes. Argument
 * parsing only; the math is in Rust.
 */
import { Array } from "../array.js";
import type { ArrayInput } from "../lib.js";
import * as lib from "../lib-calls.js";
import { DType } from "../dtype.js";
import { creationOptions, type DTypeAndDevice } from "./creation.js";
import { indices, unstack } from "./shape-more.js";
import { moveaxis, transpose } from "./shape.js";
import { vmap } from "../vmap.js";
import * as checks from "../check.js";

/**
 * Contracts the last `axes` axes of `a` with the first of `b`, or the listed axis pairs.
 *
 * @example
 * ```ts
 * using a = np.ones([2, 3]);
 * using b = np.ones([3, 4]);
 * using t = np.tensordot(a, b, 1); // every element is 3
 * t.shape; // [2, 4]
 * ```
 */
export function tensordot(a: Array, b: Array, axes: number | [number[], number[]] = 2): Array {
  if (typeof axes === "number") return lib.tensordot({ a, b, count: axes });
  const [aAxes, bAxes] = axes.map((x) => (typeof x === "number" ? [x] : x));
  if (aAxes.length !== bAxes.length) throw new Error("tensordot: axis lists differ in length");
  return lib.tensordot({ a, b, aAxes, bAxes });
}

/**
 * Contracts the last axes.
 *
 * @example
 * ```ts
 * using a = np.array([1, 2, 3]);
 * using b = np.array([4, 5, 6]);
 * using i = np.inner(a, b); // 32
 * ```
 */
export const inner = (a: Array, b: Array): Array => lib.inner({ a, b });
/**
 * The outer product of the flattened inputs.
 *
 * @example
 * ```ts
 * using o = np.outer([1, 2], [3, 4]); // [[3, 4], [6, 8]]
 * ```
 */
export const outer = (a: ArrayInput, b: ArrayInput): Array => lib.outer({ a, b });
/**
 * The dot product of the flattened inputs.
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * using v = np.vdot(a, a); // 30
 * ```
 */
export const vdot = (a: Array, b: Array): Array => lib.vdot({ a, b });
/**
 * Matrix-vector product, batched.
 *
 * @example
 * ```ts
 * using m = np.array([[1, 2], [3, 4]]);
 * using v = np.array([1, 1]);
 * using y = np.matvec(m, v); // [3, 7]
 * ```
 */
export const matvec = (x1: Array, x2: Array): Array => lib.matvec({ a: x1, b: x2 });
/**
 * Vector-matrix product, batched.
 *
 * @example
 * ```ts
 * using v = np.array([1, 1]);
 * using m = np.array([[1, 2], [3, 4]]);
 * using y = np.vecmat(v, m); // [4, 6]
 * ```
 */
export const vecmat = (x1: Array, x2: Array): Array => lib.vecmat({ a: x1, b: x2 });
/**
 * Cross product along the last axis (length 3, or 2 for the z component).
 *
 * @example
 * ```ts
 * using a = np.array([1, 0, 0]);
 * using b = np.array([0, 1, 0]);
 * using c = np.cross(a, b); // [0, 0, 1]
 * ```
 */
export const cross = (a: Array, b: Array): Array => lib.cross({ a, b });

/**
 * The dot product along `axis` (broadcasting the other axes).
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * using b = np.array([[1, 1], [1, 1]]);
 * using d = np.vecdot(a, b); // [3, 7]
 * ```
 */
export function vecdot(x: Array, y: Array, opts: { axis?: number } = {}): Array {
  return lib.vecdot({ a: x, b: y, axis: opts.axis });
}

/**
 * Evaluates the polynomial with coefficients `p` (highest power first) at `x`.
 *
 * @example
 * ```ts
 * using y = np.polyval([1, 0, -1], [0, 2]); // [-1, 3]: x² − 1
 * ```
 */
export const polyval = (p: ArrayInput, x: ArrayInput): Array => lib.polyval({ a: p, b: x });
/**
 * The sum of two polynomials given by their coefficients (highest power first), as NumPy's
 * `polyadd`.
 *
 * @example
 * ```ts
 * using p = np.polyadd([1, 2], [1, 0, 0]); // [1, 1, 2]
 * ```
 */
export const polyadd = (a1: ArrayInput, a2: ArrayInput): Array => lib.polyadd({ a: a1, b: a2 });
/**
 * The difference of two polynomials given by their coefficients (highest power first).
 *
 * @example
 * ```ts
 * using p = np.polysub([1, 2], [1, 1]); // [0, 1]
 * ```
 */
export const polysub = (a1: ArrayInput, a2: ArrayInput): Array => lib.polysub({ a: a1, b: a2 });
/**
 * The product of two polynomials given by their coefficients (highest power first).
 *
 * @example
 * ```ts
 * using y = np.polymul([1, 1], [1, -1]); // [1, 0, -1]: (x + 1)(x − 1)
 * ```
 */
export const polymul = (a1: ArrayInput, a2: ArrayInput): Array => lib.polymul({ a: a1, b: a2 });
/**
 * The `m`-th derivative of a polynomial.
 *
 * @example
 * ```ts
 * using d = np.polyder([1, 0, -1]); // [2, 0]
 * ```
 */
export const polyder = (p: ArrayInput, m = 1): Array => lib.polyder({ p, m });

/**
 * Removes jumps larger than `discont` by adding multiples of `period`.
 *
 * @example
 * ```ts
 * using p = np.array([0, 3, 6.5]);
 * using u = np.unwrap(p); // ≈ [0, 3, 0.21681469]
 * ```
 */
export function unwrap(
  p: Array,
  opts: { discont?: number | null; axis?: number; period?: number } = {},
): Array {
  return lib.unwrap({ p, discont: opts.discont, axis: opts.axis, period: opts.period });
}

function window(name: lib.WindowArgs["kind"]) {
  return (m: number, opts: DTypeAndDevice = {}): Array => {
    if (!Number.isInteger(m) || m < 0) {
      throw new TypeError(`${name}: M must be a non-negative integer, got ${m}`);
    }
    return lib.window({ kind: name, m, device: creationOptions(name, opts, false).device });
  };
}

/**
 * The Hamming window of `M` points (float32), as NumPy's `hamming`.
 *
 * @example
 * ```ts
 * using w = np.hamming(3); // [0.08, 1, 0.08]
 * ```
 */
export const hamming = window("hamming");
/**
 * The Hann window of `M` points (float32), as NumPy's `hanning`.
 *
 * @example
 * ```ts
 * using w = np.hann(3); // [0, 1, 0]
 * ```
 */
export const hann = window("hann");
/**
 * The Bartlett (triangular) window of `M` points (float32).
 *
 * @example
 * ```ts
 * using w = np.bartlett(3); // [0, 1, 0]
 * ```
 */
export const bartlett = window("bartlett");
/**
 * The Blackman window of `M` points (float32).
 *
 * @example
 * ```ts
 * using w = np.blackman(3); // ≈ [0, 1, 0]
 * ```
 */
export const blackman = window("blackman");

/**
 * `base ** linspace(start, stop, num)`.
 *
 * @example
 * ```ts
 * using x = np.logspace(0, 2, 3); // [1, 10, 100]
 * ```
 */
export function logspace(
  start: number,
  stop: number,
  num = 50,
  endpoint = true,
  base = 10,
  opts: DTypeAndDevice = {},
): Array {
  const { dtype, device } = creationOptions("logspace", opts);
  return lib.logspace({ start, stop, num, endpoint, base, dtype, device });
}

/**
 * Numbers spaced evenly on a log scale from `start` to `stop` (same sign, non-zero).
 *
 * @example
 * ```ts
 * using x = np.geomspace(1, 8, 4); // [1, 2, 4, 8]
 * ```
 */
export function geomspace(
  start: number,
  stop: number,
  num = 50,
  endpoint = true,
  opts: DTypeAndDevice = {},
): Array {
  const { dtype, device } = creationOptions("geomspace", opts);
  return lib.geomspace({ start, stop, num, endpoint, dtype, device });
}

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
  // Everything made here is freed, also when a step fails (issue 18, item 8).
  const made: Array[] = [];
  const keep = (a: Array): Array => (made.push(a), a);
  try {
    const parts = unstack(keep(indices(shape)), 0).map(keep);
    // The indices are float32 unless `dtype` says otherwise (JAX's and jax-js's default).
    const cast = parts.map((p) => keep(p.astype(opts.dtype ?? DType.Float32)));
    return fn(...cast);
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
    // The intermediate of the axes so far (issue 18, item 8).
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
