/**
 * numpy's shape functions. Argument parsing only: each is one call into Rust, where the
 * shapes are checked and the movement primitives bound (views: no copies).
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import * as checks from "../check.js";

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

export function reshape(x: Array, shape: number | number[]): Array {
  check("reshape", x);
  return x.reshape(shape);
}

export function ravel(a: Array): Array {
  check("ravel", a);
  return a.reshape([-1]);
}

export function transpose(x: Array, perm?: number[]): Array {
  check("transpose", x);
  const p = perm === undefined ? undefined : checks.axes("transpose", perm);
  return new Array(call(() => wasm.transpose(x._handle, p)));
}

export const permuteDims = transpose;

export function moveaxis(x: Array, source: number, destination: number): Array {
  check("moveaxis", x);
  return new Array(call(() => wasm.moveaxis(x._handle, source, destination)));
}

/** Swaps two axes; the same axis twice returns the input object itself (as jax-js does). */
export function swapaxes(a: Array, axis1: number, axis2: number): Array {
  check("swapaxes", a);
  if (axis1 === axis2) return a;
  return new Array(call(() => wasm.swapaxes(a._handle, axis1, axis2)));
}

/** Swaps the last two axes. */
export function matrixTranspose(a: Array): Array {
  check("matrixTranspose", a);
  if (a.ndim < 2) throw new Error(`matrixTranspose: needs at least 2 axes, got ${a.ndim}`);
  return new Array(call(() => wasm.swapaxes(a._handle, -2, -1)));
}

export function broadcastTo(a: Array, shape: number[]): Array {
  check("broadcastTo", a);
  const dims = checks.shape("broadcastTo", shape);
  return new Array(call(() => wasm.broadcastTo(a._handle, dims)));
}

export function expandDims(a: Array, axis: Axis): Array {
  check("expandDims", a);
  return new Array(call(() => wasm.expandDims(a._handle, list("expandDims", axis))));
}

export function squeeze(a: Array, axis: Axis | null = null): Array {
  check("squeeze", a);
  return new Array(call(() => wasm.squeeze(a._handle, checks.axes("squeeze", axis))));
}

export function flip(x: Array, axis: Axis | null = null): Array {
  check("flip", x);
  return new Array(call(() => wasm.flip(x._handle, checks.axes("flip", axis))));
}

export const flipud = (x: Array): Array => flip(x, 0);
export const fliplr = (x: Array): Array => flip(x, 1);

/** Joins arrays along `axis`; a one-element list returns that element itself (as jax-js). */
export function concatenate(xs: Array[], axis = 0): Array {
  const hs = handles("concatenate", xs);
  if (xs.length === 1) return xs[0];
  return new Array(call(() => wasm.concatenate(hs, axis)));
}

export function stack(xs: Array[], axis = 0): Array {
  return new Array(call(() => wasm.stack(handles("stack", xs), axis)));
}

function atLeast(fn: string, xs: Array[], rank: number): Array[] {
  handles(fn, xs);
  return xs.map((x) => {
    if (x.ndim >= rank) return x;
    const shape = rank === 2 ? [1, ...x.shape, 1].slice(0, 2) : [1, ...x.shape, 1];
    return x.reshape(x.ndim === 0 ? globalThis.Array(rank).fill(1) : shape.slice(0, rank));
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

/** Joins along axis 1 (axis 0 for 1-D arrays). */
export const hstack = (xs: Array[]): Array =>
  joinAll("hstack", xs, 1, xs.every((x) => x.ndim <= 1) ? 0 : 1);
/** Joins along axis 0, treating 1-D arrays as rows. */
export const vstack = (xs: Array[]): Array => joinAll("vstack", xs, 2, 0);
/** Joins along axis 2, lifting arrays to 3-D. */
export const dstack = (xs: Array[]): Array => joinAll("dstack", xs, 3, 2);

/** Joins 1-D arrays as columns of a 2-D array (2-D arrays as they are). */
export function columnStack(xs: Array[]): Array {
  handles("columnStack", xs);
  const cols = xs.map((x) => (x.ndim < 2 ? x.reshape([-1, 1]) : x));
  try {
    return new Array(call(() => wasm.concatenate(handles("columnStack", cols), 1)));
  } finally {
    cols.forEach((y, i) => y !== xs[i] && y.dispose());
  }
}

/** Splits into equal sections (a number) or at the given indices (a list). */
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

export function tile(a: Array, reps: number | number[]): Array {
  check("tile", a);
  const r = checks.shape("tile", reps, "reps");
  return new Array(call(() => wasm.tile(a._handle, r)));
}

/** Einstein summation, e.g. `einsum("nij,njk->nik", a, b)`; operands may also be one list. */
export function einsum(subscripts: string, ...operands: (Array | Array[])[]): Array {
  if (typeof subscripts !== "string") throw new TypeError("einsum: subscripts must be a string");
  const xs =
    operands.length === 1 && globalThis.Array.isArray(operands[0])
      ? operands[0]
      : (operands as Array[]);
  return new Array(call(() => wasm.einsum(subscripts, handles("einsum", xs))));
}

/** Diagonal `offset` of the matrices over `axis1` and `axis2`, as the last axis (a view). */
export function diagonal(a: Array, offset = 0, axis1 = 0, axis2 = 1): Array {
  check("diagonal", a);
  return new Array(call(() => wasm.diagonal(a._handle, offset, axis1, axis2)));
}

/** The sum of a diagonal. */
export function trace(a: Array, offset = 0, axis1 = 0, axis2 = 1): Array {
  const d = diagonal(a, offset, axis1, axis2);
  try {
    return d.sum(-1);
  } finally {
    d.dispose();
  }
}

/** A 1-D array's matrix with it on diagonal `k`, or a 2-D array's diagonal `k`. */
export function diag(v: Array, k = 0): Array {
  check("diag", v);
  return new Array(call(() => wasm.diag(v._handle, k)));
}

export function tril(a: Array, k = 0): Array {
  check("tril", a);
  return new Array(call(() => wasm.triangle(a._handle, k, true)));
}

export function triu(a: Array, k = 0): Array {
  check("triu", a);
  return new Array(call(() => wasm.triangle(a._handle, k, false)));
}

/** 1-D discrete convolution, mode "full" (default), "same" or "valid". */
export function convolve(x: Array, y: Array, mode: "full" | "same" | "valid" = "full"): Array {
  check("convolve", x);
  check("convolve", y);
  checkMode("convolve", mode);
  return new Array(call(() => wasm.correlate(x._handle, y._handle, mode, true)));
}

/** 1-D cross-correlation, mode "valid" (default), "same" or "full". */
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
