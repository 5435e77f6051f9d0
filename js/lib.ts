/**
 * The runtime of the generated call layer (`lib-calls.ts`): a `LibCall` lays out one call's
 * arguments — arrays as handles, everything else as numbers — in the order and layout Rust's
 * `library::args` reads them, checking each value's type and naming the function and the
 * field in errors; `run` sends it to Rust's `libCall` by typed id. JS numbers, booleans and
 * nested lists given for an `ArrayInput` become temporary arrays, freed after the call.
 */
import { call, memory, wasm } from "./bridge.js";
import { Array } from "./array.js";
import { DType } from "./dtype.js";
import * as checks from "./check.js";

type Nested = number | boolean | Nested[];
export type ArrayInput = Array | Nested;

/** One call's arguments being laid out (reused from call to call: see `begin`). */
export class LibCall {
  private readonly handles: number[] = [];
  private readonly nums: number[] = [];
  private readonly made: Array[] = [];
  private fn = "";

  /** Starts the arguments of a call of `fn`. */
  reset(fn: string): void {
    this.fn = fn;
    this.handles.length = 0;
    this.nums.length = 0;
  }

  /** Rejects fields the function does not declare. */
  only(args: object, known: readonly string[]): void {
    if (args === null || typeof args !== "object") {
      throw new TypeError(`${this.fn}: expected an arguments object`);
    }
    for (const k in args) {
      if (!known.includes(k)) throw new TypeError(`${this.fn}: unknown argument ${k}`);
    }
  }

  array(field: string, x: Array): void {
    if (!(x instanceof Array)) {
      throw new TypeError(`${this.fn}: ${field} must be an Array, got ${typeof x}`);
    }
    this.handles.push(x._handle);
  }

  input(field: string, x: ArrayInput): void {
    if (x instanceof Array) {
      this.handles.push(x._handle);
    } else if (typeof x === "number" || typeof x === "boolean" || globalThis.Array.isArray(x)) {
      const a = fromJs(this.fn, x);
      this.made.push(a);
      this.handles.push(a._handle);
    } else {
      throw new TypeError(`${this.fn}: ${field} must be an Array, got ${typeof x}`);
    }
  }

  num(field: string, x: number): void {
    if (typeof x !== "number") {
      throw new TypeError(`${this.fn}: ${field} must be a number, got ${typeof x}`);
    }
    this.nums.push(x);
  }

  int(field: string, x: number): void {
    this.nums.push(checks.int(this.fn, field, x));
  }

  size(field: string, x: number): void {
    if (checks.int(this.fn, field, x) < 0) {
      throw new RangeError(`${this.fn}: ${field} must be non-negative, got ${x}`);
    }
    this.nums.push(x);
  }

  bool(field: string, x: boolean): void {
    if (typeof x !== "boolean") {
      throw new TypeError(`${this.fn}: ${field} must be a boolean, got ${typeof x}`);
    }
    this.nums.push(x ? 1 : 0);
  }

  /** An option's presence flag: whether `x` is given (neither null nor undefined). */
  present<T>(x: T | null | undefined): x is T {
    const given = x !== null && x !== undefined;
    this.nums.push(given ? 1 : 0);
    return given;
  }

  /** A list's length; returns the list for its items to be laid out. */
  list<T>(field: string, xs: readonly T[]): readonly T[] {
    if (!globalThis.Array.isArray(xs)) {
      throw new TypeError(`${this.fn}: ${field} must be a list, got ${typeof xs}`);
    }
    this.nums.push(xs.length);
    return xs;
  }

  /** Axes: one axis or a list (null or undefined: all axes). */
  axes(field: string, x: number | readonly number[] | null | undefined): void {
    if (!this.present(x)) return;
    if (typeof x === "number") {
      this.nums.push(1, checks.int(this.fn, field, x));
      return;
    }
    const list = checks.intList(this.fn, field, x);
    this.nums.push(list.length, ...list);
  }

  choice(field: string, x: string, names: readonly string[]): void {
    const k = names.indexOf(x);
    if (k < 0) {
      const options = names.map((n) => JSON.stringify(n)).join(", ");
      throw new TypeError(`${this.fn}: ${field} must be one of ${options}, got ${String(x)}`);
    }
    this.nums.push(k);
  }

  /** Writes the handles, then the numbers, into Rust's argument buffer. */
  private write(): void {
    const { handles, nums } = this;
    const view = argBuffer(handles.length + nums.length);
    for (let i = 0; i < handles.length; i++) view[i] = handles[i];
    for (let i = 0, at = handles.length; i < nums.length; i++) view[at + i] = nums[i];
  }

  send(id: number): Array[] {
    this.write();
    const out = call(() => wasm.libCall(id, this.handles.length, this.nums.length));
    return globalThis.Array.from(out, (h) => new Array(h));
  }

  /** `send` for a function of one result. */
  send1(id: number): Array {
    this.write();
    return new Array(call(() => wasm.libCall1(id, this.handles.length, this.nums.length)));
  }

  /** Frees the temporary arrays. */
  free(): void {
    for (const a of this.made) a.dispose();
    this.made.length = 0;
  }
}

/** A view of Rust's argument buffer (empty until first used). */
let args = new Float64Array(0);

/** The argument buffer with room for `len` values (a new view when it or the memory grew). */
function argBuffer(len: number): Float64Array {
  if (args.buffer !== memory.buffer || args.length < len) {
    const size = Math.max(len, 256, args.length);
    const at = call(() => wasm.libCallBuffer(size));
    args = new Float64Array(memory.buffer, at, size);
  }
  return args;
}

/** A `LibCall` not in use: calls reuse it (a call started while one is encoding gets its own). */
let spare: LibCall | null = null;

function begin(fn: string): LibCall {
  const c = spare ?? new LibCall();
  spare = null;
  c.reset(fn);
  return c;
}

function end(c: LibCall): void {
  c.free();
  spare = c;
}

type Encoder<A> = (c: LibCall, a: A) => void;

/** Lays out `args` with `encode` and runs library function `id` (named `fn` in errors). */
export function run<A>(id: number, fn: string, args: A, encode: Encoder<A>): Array[] {
  const c = begin(fn);
  try {
    encode(c, args);
    return c.send(id);
  } finally {
    end(c);
  }
}

/** `run` for a function of one result. */
export function run1<A>(id: number, fn: string, args: A, encode: Encoder<A>): Array {
  const c = begin(fn);
  try {
    encode(c, args);
    return c.send1(id);
  } finally {
    end(c);
  }
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
