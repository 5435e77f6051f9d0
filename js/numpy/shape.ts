/**
 * numpy's shape functions (reshape, transposes, broadcasting, flips, joins, split, tile),
 * einsum, convolve and correlate. Argument parsing only: each is one call into Rust, where the
 * shapes are checked and the movement primitives bound (views: no copies).
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import * as checks from "../check.js";
import { shareOp } from "../ops.js";

type Axis = number | number[];

const list = (fn: string, a: Axis): Int32Array => checks.axes(fn, a) ?? new Int32Array();

function check(fn: string, x: unknown): asserts x is Array {
  if (!(x instanceof Array)) throw new TypeError(`${fn}: expected an Array, got ${typeof x}`);
}

function handles(fn: string, xs: Array[]): Float64Array {
  if (!globalThis.Array.isArray(xs)) throw new TypeError(`${fn}: expected a list of Arrays`);
  xs.forEach((x) => check(fn, x));
  return new Float64Array(xs.map((x) => x._handle));
}

/**
 * A view of `x` with shape `shape` (the same elements in row-major order; one entry may be `-1`,
 * inferred). Shares `x`'s buffer: no copy. Same as `x.reshape(shape)`.
 *
 * @example
 * ```ts
 * using a = np.arange(6);
 * using m = np.reshape(a, [2, -1]); // [[0, 1, 2], [3, 4, 5]]
 * ```
 */
export function reshape(x: Array, shape: number | number[]): Array {
  check("reshape", x);
  return x.reshape(shape);
}

/**
 * A 1-D view of the elements of `a` in row-major order.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using r = np.ravel(x); // [1, 2, 3, 4]
 * ```
 */
export function ravel(a: Array): Array {
  check("ravel", a);
  return a.reshape([-1]);
}

/**
 * A view of `x` with its axes permuted by `perm` (reversed by default). Same as `x.transpose()`.
 *
 * @example
 * ```ts
 * using x = np.ones([2, 3, 4]);
 * using t = np.transpose(x);
 * t.shape; // [4, 3, 2]
 * ```
 */
export function transpose(x: Array, perm?: number[]): Array {
  check("transpose", x);
  const p = perm === undefined ? undefined : checks.axes("transpose", perm);
  return new Array(call(() => wasm.transpose(x._handle, p)));
}

/** Alias of `transpose`. */
export const permuteDims = transpose;

/**
 * A view of `x` with axis `source` moved to position `destination`, the others in order.
 *
 * @example
 * ```ts
 * using x = np.ones([2, 3, 4]);
 * using m = np.moveaxis(x, 0, -1);
 * m.shape; // [3, 4, 2]
 * ```
 */
export function moveaxis(x: Array, source: number, destination: number): Array {
  check("moveaxis", x);
  return new Array(call(() => wasm.moveaxis(x._handle, source, destination)));
}

/**
 * A view of `a` with axes `axis1` and `axis2` swapped; the same axis twice returns `a` itself (no
 * new reference), as jax-js does.
 *
 * @example
 * ```ts
 * using x = np.zeros([2, 3]);
 * using s = np.swapaxes(x, 0, 1);
 * s.shape; // [3, 2]
 * ```
 */
export function swapaxes(a: Array, axis1: number, axis2: number): Array {
  check("swapaxes", a);
  if (axis1 === axis2) return shareOp("swapaxes", a);
  return new Array(call(() => wasm.swapaxes(a._handle, axis1, axis2)));
}

/**
 * A view of `a` with its last two axes swapped (a batch of transposed matrices).
 *
 * @example
 * ```ts
 * using x = np.zeros([5, 2, 3]);
 * using t = np.matrixTranspose(x);
 * t.shape; // [5, 3, 2]
 * ```
 */
export function matrixTranspose(a: Array): Array {
  check("matrixTranspose", a);
  if (a.ndim < 2) throw new Error(`matrixTranspose: needs at least 2 axes, got ${a.ndim}`);
  return new Array(call(() => wasm.swapaxes(a._handle, -2, -1)));
}

/**
 * A view of `a` broadcast to `shape` (NumPy's rules: axes of size 1 repeat, new axes are added
 * in front). No data is copied.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.broadcastTo(x, [2, 2]); // [[1, 2], [1, 2]]
 * ```
 */
export function broadcastTo(a: Array, shape: number[]): Array {
  check("broadcastTo", a);
  const dims = checks.shape("broadcastTo", shape);
  return new Array(call(() => wasm.broadcastTo(a._handle, dims)));
}

/**
 * A view of `a` with new axes of size 1 inserted at `axis` (a number or a list of positions in
 * the result).
 *
 * @example
 * ```ts
 * using x = np.ones([3]);
 * using e = np.expandDims(x, [0, 2]);
 * e.shape; // [1, 3, 1]
 * ```
 */
export function expandDims(a: Array, axis: Axis): Array {
  check("expandDims", a);
  return new Array(call(() => wasm.expandDims(a._handle, list("expandDims", axis))));
}

/**
 * A view of `a` without the axes of size 1 in `axis` (all of them by default); naming an axis
 * whose size is not 1 is an error.
 *
 * @example
 * ```ts
 * using x = np.zeros([1, 3, 1]);
 * using s = np.squeeze(x);
 * s.shape; // [3]
 * ```
 */
export function squeeze(a: Array, axis: Axis | null = null): Array {
  check("squeeze", a);
  return new Array(call(() => wasm.squeeze(a._handle, checks.axes("squeeze", axis))));
}

/**
 * `x` with the order of elements reversed along `axis` (all axes by default), as a view.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.flip(x); // [3, 2, 1]
 * ```
 */
export function flip(x: Array, axis: Axis | null = null): Array {
  check("flip", x);
  return new Array(call(() => wasm.flip(x._handle, checks.axes("flip", axis))));
}

/**
 * `flip(x, 0)`: the rows in reverse order.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using f = np.flipud(x); // [[3, 4], [1, 2]]
 * ```
 */
export const flipud = (x: Array): Array => flip(x, 0);
/**
 * `flip(x, 1)`: the columns in reverse order.
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using f = np.fliplr(x); // [[2, 1], [4, 3]]
 * ```
 */
export const fliplr = (x: Array): Array => flip(x, 1);

/**
 * Joins arrays along an existing `axis` (default 0); the other axes must agree and the dtypes
 * promote. A one-element list returns that element itself (no new reference), as jax-js does.
 *
 * @example
 * ```ts
 * using x = np.ones([2]);
 * using y = np.zeros([1]);
 * using z = np.concatenate([x, y]); // [1, 1, 0]
 * ```
 */
export function concatenate(xs: Array[], axis = 0): Array {
  const hs = handles("concatenate", xs);
  if (xs.length === 1) return xs[0];
  return new Array(call(() => wasm.concatenate(hs, axis)));
}

/**
 * Joins arrays of one shape along a new `axis` (default 0).
 *
 * @example
 * ```ts
 * using x = np.ones([2]);
 * using y = np.zeros([2]);
 * using z = np.stack([x, y], 1); // [[1, 0], [1, 0]]
 * ```
 */
export function stack(xs: Array[], axis = 0): Array {
  return new Array(call(() => wasm.stack(handles("stack", xs), axis)));
}

/** NumPy's atleast_2d (`[n]` → `[1, n]`) and atleast_3d (`[n]` → `[1, n, 1]`, `[m, n]` → `[m, n, 1]`). */
function atLeast(fn: string, xs: Array[], rank: number): Array[] {
  handles(fn, xs);
  return xs.map((x) => {
    if (x.ndim >= rank) return x;
    const lifted = x.ndim === 0 ? [] : x.ndim === 1 ? [1, ...x.shape] : x.shape;
    const shape = [...lifted, ...globalThis.Array(rank).fill(1)].slice(0, rank);
    return x.reshape(shape);
  });
}

function joinAll(fn: string, xs: Array[], rank: number, axis: number): Array {
  const lifted = atLeast(fn, xs, rank);
  try {
    return new Array(call(() => wasm.concatenate(handles(fn, lifted), axis)));
  } finally {
    lifted.forEach((y, i) => y !== xs[i] && y.dispose());
  }
}

/**
 * Joins arrays along axis 1 (along axis 0 when they are 1-D).
 *
 * @example
 * ```ts
 * using a = np.array([1, 2]);
 * using b = np.array([3]);
 * using h = np.hstack([a, b]); // [1, 2, 3]
 * ```
 */
export const hstack = (xs: Array[]): Array =>
  joinAll("hstack", xs, 1, xs.every((x) => x.ndim <= 1) ? 0 : 1);
/**
 * Joins arrays along axis 0, treating 1-D arrays as rows.
 *
 * @example
 * ```ts
 * using a = np.array([1, 2]);
 * using b = np.array([3, 4]);
 * using v = np.vstack([a, b]); // [[1, 2], [3, 4]]
 * ```
 */
export const vstack = (xs: Array[]): Array => joinAll("vstack", xs, 2, 0);
/**
 * Joins arrays along axis 2, lifting 1-D and 2-D arrays to 3-D first.
 *
 * @example
 * ```ts
 * using a = np.array([1, 2]);
 * using b = np.array([3, 4]);
 * using d = np.dstack([a, b]); // [[[1, 3], [2, 4]]]
 * ```
 */
export const dstack = (xs: Array[]): Array => joinAll("dstack", xs, 3, 2);

/**
 * Joins 1-D arrays as the columns of a 2-D array (2-D arrays are joined along axis 1 as they are).
 *
 * @example
 * ```ts
 * using a = np.array([1, 2]);
 * using b = np.array([3, 4]);
 * using c = np.columnStack([a, b]); // [[1, 3], [2, 4]]
 * ```
 */
export function columnStack(xs: Array[]): Array {
  handles("columnStack", xs);
  const cols = xs.map((x) => (x.ndim < 2 ? x.reshape([-1, 1]) : x));
  try {
    return new Array(call(() => wasm.concatenate(handles("columnStack", cols), 1)));
  } finally {
    cols.forEach((y, i) => y !== xs[i] && y.dispose());
  }
}

/**
 * Splits `a` along `axis` (default 0) into `sectionsOrIndices` equal parts (a number, which must
 * divide the axis) or at the given indices (a list). Returns a JS array of new arrays (views),
 * each owned by the caller.
 *
 * @example
 * ```ts
 * using x = np.arange(4);
 * const [a, b] = np.split(x, 2); // a = [0, 1], b = [2, 3]
 * a.dispose();
 * b.dispose();
 * ```
 */
export function split(a: Array, sectionsOrIndices: number | number[], axis = 0): Array[] {
  check("split", a);
  const sections =
    typeof sectionsOrIndices === "number"
      ? checks.int("split", "sections", sectionsOrIndices)
      : undefined;
  const cuts = new Float64Array(
    sections === undefined ? checks.intList("split", "indices", sectionsOrIndices) : [],
  );
  checks.int("split", "axis", axis);
  const hs = call(() => wasm.split(a._handle, sections, cuts, axis));
  return globalThis.Array.from(hs, (h) => new Array(h));
}

/**
 * `a` repeated `reps` times along each axis (a number repeats the last axis).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.tile(x, 2); // [1, 2, 1, 2]
 * ```
 */
export function tile(a: Array, reps: number | number[]): Array {
  check("tile", a);
  const r = checks.shape("tile", reps, "reps");
  return new Array(call(() => wasm.tile(a._handle, r)));
}

const SUBSCRIPT_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A sublist (integers 0–51, or "..." for an ellipsis) of einsum's sublist form as letters. */
function sublistLetters(v: unknown, what: string): string {
  const items = checks.list("einsum", what, v);
  return items
    .map((i) => {
      if (i === "...") return "...";
      if (typeof i !== "number" || !Number.isInteger(i) || i < 0 || i >= SUBSCRIPT_LETTERS.length)
        throw new TypeError(`einsum: ${what} must hold integers in [0, 52) or "...", got ${i}`);
      return SUBSCRIPT_LETTERS[i];
    })
    .join("");
}

/**
 * Einstein summation over the operands, e.g. `einsum("ij,jk->ik", a, b)` or
 * `einsum("nij,njk->nik", a, b)`; the operands may also be given as one list. `...` stands for
 * broadcast axes, a subscript repeated in one operand takes its diagonal (`"ii->"` is the
 * trace), and NumPy's sublist form `einsum(a, [0, 1], b, [1, 2], [0, 2])` (integers 0–51 for
 * subscripts, `"..."` for an ellipsis) is accepted. dtype: the promoted dtype.
 *
 * @example
 * ```ts
 * using a = np.ones([2, 3]);
 * using b = np.ones([3, 4]);
 * using c = np.einsum("ij,jk->ik", a, b);
 * c.shape; // [2, 4]
 * using d = np.einsum(a, [0, 1], b, [1, 2], [0, 2]); // the sublist form
 * d.shape; // [2, 4]
 * ```
 */
export function einsum(subscripts: string, ...operands: (Array | Array[])[]): Array;
export function einsum(...args: (Array | number[])[]): Array;
export function einsum(...args: unknown[]): Array {
  let spec: string;
  let xs: Array[];
  if (typeof args[0] === "string") {
    const operands = args.slice(1);
    spec = args[0];
    xs =
      operands.length === 1 && globalThis.Array.isArray(operands[0])
        ? (operands[0] as Array[])
        : (operands as Array[]);
  } else if (args[0] instanceof Array) {
    const pairs = Math.floor(args.length / 2);
    xs = globalThis.Array.from({ length: pairs }, (_, i) => args[2 * i] as Array);
    const ins = xs.map((_, i) => sublistLetters(args[2 * i + 1], `sublist ${i}`));
    const out = args.length % 2 === 1 ? `->${sublistLetters(args.at(-1), "output sublist")}` : "";
    spec = ins.join(",") + out;
  } else {
    throw new TypeError("einsum: the first argument must be a subscripts string or an Array");
  }
  return new Array(call(() => wasm.einsum(spec, handles("einsum", xs))));
}

/**
 * The 1-D discrete convolution of `x` and `y` (the kernel flipped, as NumPy), mode `"full"`
 * (default, length n + m − 1), `"same"` (length of `x`) or `"valid"`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.array([0, 1]);
 * using z = np.convolve(x, y); // [0, 1, 2, 3]
 * ```
 */
export function convolve(x: Array, y: Array, mode: "full" | "same" | "valid" = "full"): Array {
  check("convolve", x);
  check("convolve", y);
  checkMode("convolve", mode);
  return new Array(call(() => wasm.correlate(x._handle, y._handle, mode, true)));
}

/**
 * The 1-D cross-correlation of `x` and `y` (no flip), mode `"valid"` (default), `"same"` or
 * `"full"`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using k = np.array([0, 1]);
 * using c = np.correlate(x, k); // [2, 3]
 * ```
 */
export function correlate(x: Array, y: Array, mode: "full" | "same" | "valid" = "valid"): Array {
  check("correlate", x);
  check("correlate", y);
  checkMode("correlate", mode);
  return new Array(call(() => wasm.correlate(x._handle, y._handle, mode, false)));
}

function checkMode(fn: string, mode: unknown): void {
  if (mode !== "full" && mode !== "same" && mode !== "valid") {
    throw new TypeError(`${fn}: mode must be "full", "same" or "valid", got ${String(mode)}`);
  }
}
