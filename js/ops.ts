/**
 * The one path from TypeScript to Rust's operations: `applyOp` sends arrays as handles and JS
 * numbers/booleans as weakly typed literals; `reduceOp` sends a reduction with its axes.
 */
import { call, wasm } from "./bridge.js";
import { Array, type ArrayLike } from "./array.js";
import { DType } from "./dtype.js";
import * as checks from "./check.js";

/** An axis, a list of axes (negative counts from the end), or `null` for all axes. */
export type Axis = number | number[] | null;

/** Applies Rust operation `op` (reported to the user as `fn`) to `args`. */
export function applyOp(fn: string, op: string, args: ArrayLike[]): Array {
  const handles = new Float64Array(args.length);
  const literals = new Float64Array(args.length);
  const isLiteral = new Uint8Array(args.length);
  args.forEach((a, i) => {
    if (a instanceof Array) {
      handles[i] = a._handle;
    } else if (typeof a === "number" || typeof a === "boolean") {
      literals[i] = Number(a);
      isLiteral[i] = 1;
    } else {
      throw new TypeError(`${fn}: expected an Array, number or boolean, got ${typeof a}`);
    }
  });
  if (isLiteral.every((x) => x === 1)) {
    // No array operand: the first value becomes a weak scalar on the default device.
    const dtype = args.every((a) => typeof a === "boolean") ? DType.Bool : DType.Float32;
    const h = call(() => wasm.weakScalar(literals[0], dtype, ""));
    handles[0] = h;
    isLiteral[0] = 0;
    try {
      return new Array(call(() => wasm.apply(op, handles, literals, isLiteral)));
    } finally {
      call(() => wasm.dispose(h));
    }
  }
  return new Array(call(() => wasm.apply(op, handles, literals, isLiteral)));
}

/**
 * A new array of the same value as `x` (no copy), with a reference of its own: what identity
 * functions return, so disposing the result leaves `x` alive (a tracer stays the same tracer).
 */
export function shareOp(fn: string, x: Array): Array {
  if (!(x instanceof Array)) throw new TypeError(`${fn}: expected an Array, got ${typeof x}`);
  const out = new Array(call(() => wasm.share(fn, x._handle)));
  sharedFrom.set(out, x);
  return out;
}

/** The argument each `shareOp` result shares (the consuming entry returns that instead). */
export const sharedFrom = new WeakMap<Array, Array>();

/** The public function `name` of one operand: Rust operation `op`. */
export const unaryOp =
  (name: string, op: string) =>
  (x: ArrayLike): Array =>
    applyOp(name, op, [x]);

/** The public function `name` of two operands: Rust operation `op`. */
export const binaryOp =
  (name: string, op: string) =>
  (x: ArrayLike, y: ArrayLike): Array =>
    applyOp(name, op, [x, y]);

/** A numpy reduction of `x` over `axis` (null: all axes). */
export function reduceOp(kind: string, x: Array, axis: Axis, keepdims = false): Array {
  if (!(x instanceof Array)) throw new TypeError(`${kind}: expected an Array`);
  const axes = checks.axes(kind, axis);
  return new Array(call(() => wasm.reduce(kind, x._handle, axes, keepdims)));
}
