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

/** The operand arrays `applyOp` fills for a call of `n` operands, made once per `n`. */
interface Operands {
  handles: Float64Array;
  literals: Float64Array;
  isLiteral: Uint8Array;
}
const operandsByCount: Operands[] = [];

/** Applies Rust operation `op` (reported to the user as `fn`) to `args`. */
export function applyOp(fn: string, op: string, args: ArrayLike[]): Array {
  // Reused from call to call (wasm-bindgen copies them in; nothing runs JS in between).
  const n = args.length;
  const o = (operandsByCount[n] ??= {
    handles: new Float64Array(n),
    literals: new Float64Array(n),
    isLiteral: new Uint8Array(n),
  });
  const { handles, literals, isLiteral } = o;
  let arrays = 0;
  for (let i = 0; i < n; i++) {
    const a = args[i];
    if (a instanceof Array) {
      handles[i] = a._handle;
      literals[i] = 0;
      isLiteral[i] = 0;
      arrays++;
    } else if (typeof a === "number" || typeof a === "boolean") {
      handles[i] = 0;
      literals[i] = Number(a);
      isLiteral[i] = 1;
    } else {
      throw new TypeError(`${fn}: expected an Array, number or boolean, got ${typeof a}`);
    }
  }
  if (arrays === 0) {
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
  out._sameValueAs(x);
  // A property of the result, not a WeakMap entry: ephemerons cost the collector more than
  // the identity call itself.
  (out as Shared)[SHARED] = x;
  return out;
}

const SHARED = Symbol("sharedFrom");
type Shared = Array & { [SHARED]?: Array };

/** The argument a `shareOp` result shares (the consuming entry returns that instead). */
export function sharedFrom(out: Array): Array | undefined {
  return (out as Shared)[SHARED];
}

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
