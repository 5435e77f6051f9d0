/**
 * The `Array` class: a handle to a value in Rust plus jax-js's method surface. Holds no math:
 * every operation goes through the bridge. Operations never consume their inputs; `dispose()`
 * drops one reference (throwing on a freed array), `[Symbol.dispose]` never throws.
 */
import { call, callAsync, wasm } from "./bridge.js";
import { DType, parseDType, type DataArray } from "./dtype.js";
import { defaultDevice, type Device } from "./device.js";
import { applyOp, reduceOp, type Axis } from "./ops.js";
import { recordCreation, recordRef } from "./leaks.js";
import { readData } from "./reads.js";
import * as checks from "./check.js";

export interface ReduceOpts {
  keepdims?: boolean;
}

const JsArray = globalThis.Array;

export type ArrayLike = Array | number | boolean;

/** Recursive nested JS arrays, as returned by `js()`. */
export type NestedValues = number | boolean | NestedValues[];

export class Array {
  /** The handle of the Rust value; internal. */
  readonly #handle: number;

  /** @internal Arrays are created by `np.array`, `np.zeros`, … */
  constructor(handle: number) {
    this.#handle = handle;
    recordCreation(handle, () => this.toString());
  }

  /** @internal */
  get _handle(): number {
    return this.#handle;
  }

  get shape(): number[] {
    return JsArray.from(call(() => wasm.shape(this.#handle)));
  }

  get ndim(): number {
    return this.shape.length;
  }

  get size(): number {
    return this.shape.reduce((a, b) => a * b, 1);
  }

  get dtype(): DType {
    return call(() => wasm.dtype(this.#handle)) as DType;
  }

  get weakType(): boolean {
    return call(() => wasm.weakType(this.#handle));
  }

  /**
   * The device holding the data; for a tracer, that of the arrays its trace was opened on (else
   * the default device).
   */
  get device(): Device {
    return (call(() => wasm.placedOn(this.#handle)) as Device | undefined) ?? defaultDevice();
  }

  /** The number of owners; 0 once freed. */
  get refCount(): number {
    return call(() => wasm.refCount(this.#handle));
  }

  /** Adds an owner and returns this same object. */
  get ref(): this {
    call(() => wasm.incRef(this.#handle));
    recordRef(this.#handle);
    return this;
  }

  /** Drops one owner; frees the data at zero. Throws if the array was already freed. */
  dispose(): void {
    try {
      call(() => wasm.dispose(this.#handle));
    } catch (e) {
      throw e instanceof Error && /disposed/.test(e.message) ? new ReferenceError(e.message) : e;
    }
  }

  /**
   * What `using` calls: disposes only if the array is still alive, never throws. A no-op on
   * tracers (values inside jit, grad, scan bodies…), which their trace owns (ARCHITECTURE.md,
   * decision 3).
   */
  [Symbol.dispose](): void {
    call(() => wasm.disposeScoped(this.#handle));
  }

  add(other: ArrayLike): Array {
    return applyOp("add", "add", [this, other]);
  }

  sub(other: ArrayLike): Array {
    return applyOp("sub", "sub", [this, other]);
  }

  mul(other: ArrayLike): Array {
    return applyOp("mul", "mul", [this, other]);
  }

  /** Division; two integer arrays divide with truncation (as jax-js does). */
  div(other: ArrayLike): Array {
    return applyOp("div", "div", [this, other]);
  }

  /** JavaScript's `%`: the result has the dividend's sign. */
  mod(other: ArrayLike): Array {
    return applyOp("mod", "rem", [this, other]);
  }

  pow(other: ArrayLike): Array {
    return applyOp("pow", "power", [this, other]);
  }

  /** Diagonal `offset` over `axis1`/`axis2`, appended as the last axis (a view). */
  diagonal(offset = 0, axis1 = 0, axis2 = 1): Array {
    return new Array(call(() => wasm.diagonal(this.#handle, offset, axis1, axis2)));
  }

  /** Sorted copy along `axis` (stable; NaN last). */
  sort(axis = -1): Array {
    return new Array(call(() => wasm.sort(this.#handle, axis, false)));
  }

  /** The int32 indices that sort along `axis` (stable). */
  argsort(axis = -1): Array {
    return new Array(call(() => wasm.sort(this.#handle, axis, true)));
  }

  neg(): Array {
    return applyOp("neg", "neg", [this]);
  }

  equal(other: ArrayLike): Array {
    return applyOp("equal", "eq", [this, other]);
  }

  notEqual(other: ArrayLike): Array {
    return applyOp("notEqual", "ne", [this, other]);
  }

  less(other: ArrayLike): Array {
    return applyOp("less", "lt", [this, other]);
  }

  lessEqual(other: ArrayLike): Array {
    return applyOp("lessEqual", "le", [this, other]);
  }

  greater(other: ArrayLike): Array {
    return applyOp("greater", "greater", [this, other]);
  }

  greaterEqual(other: ArrayLike): Array {
    return applyOp("greaterEqual", "greater_equal", [this, other]);
  }

  sum(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("sum", this, axis, opts.keepdims);
  }

  prod(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("prod", this, axis, opts.keepdims);
  }

  mean(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("mean", this, axis, opts.keepdims);
  }

  max(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("max", this, axis, opts.keepdims);
  }

  min(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("min", this, axis, opts.keepdims);
  }

  all(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("all", this, axis, opts.keepdims);
  }

  any(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("any", this, axis, opts.keepdims);
  }

  /** Converts to `dtype`; returns this same object when the dtype already matches. */
  astype(dtype: DType): Array {
    const d = parseDType("astype", dtype);
    if (d === this.dtype) return this;
    return new Array(call(() => wasm.convert(this.#handle, d, false)));
  }

  /** A new array with the same elements in row-major order; one `-1` is inferred. */
  reshape(shape: number | number[]): Array {
    const dims = new Float64Array(checks.intList("reshape", "shape", shape));
    return new Array(call(() => wasm.reshape(this.#handle, dims)));
  }

  /** Permutes the axes (reverses them by default). */
  transpose(perm?: number[]): Array {
    return new Array(
      call(() =>
        wasm.transpose(
          this.#handle,
          perm === undefined ? undefined : checks.axes("transpose", perm),
        ),
      ),
    );
  }

  /** The transpose (axes reversed). */
  get T(): Array {
    return this.transpose();
  }

  /**
   * Basic indexing: a number selects and drops an axis, `[]` keeps an axis, `[start]` and
   * `[start, end]` keep a half-open range, `null` inserts an axis (negative indices count from
   * the end), and an integer Array gathers (advanced indexing, NumPy placement rules). Basic
   * indexing returns a view.
   */
  slice(...index: (number | [] | [number] | [number, number] | null | Array)[]): Array {
    const spec: number[] = [];
    const arrays: number[] = [];
    for (const item of index) {
      if (typeof item === "number") spec.push(0, item, 0);
      else if (item === null) spec.push(2, 0, 0);
      else if (item instanceof Array) {
        spec.push(3, arrays.length, 0);
        arrays.push(item._handle);
      } else if (globalThis.Array.isArray(item) && item.length <= 2) {
        spec.push(1, item[0] ?? 0, item.length === 2 ? item[1] : NaN);
      } else {
        throw new TypeError(`slice: invalid index ${JSON.stringify(item)}`);
      }
    }
    try {
      return new Array(
        call(() => wasm.slice(this.#handle, new Float64Array(spec), new Float64Array(arrays))),
      );
    } catch (e) {
      throw e instanceof Error && /out of bounds/.test(e.message) ? new RangeError(e.message) : e;
    }
  }

  flatten(): Array {
    return this.reshape([-1]);
  }

  ravel(): Array {
    return this.reshape([-1]);
  }

  /**
   * The elements as a fresh typed array (row-major). Works on every device; on webgpu, reads
   * requested in the same tick (`Promise.all` of `data()` calls) share one map (`reads.ts`).
   */
  data(): Promise<DataArray> {
    return readData("data", this.#handle);
  }

  /** Resolves to this array once its pending device work is done (no readback, no ownership change). */
  async blockUntilReady(): Promise<this> {
    await callAsync(() => wasm.blockUntilReady(this.#handle));
    return this;
  }

  /** The elements, read synchronously; on webgpu use `await data()` instead. */
  dataSync(): DataArray {
    return call(() => wasm.readSync("dataSync", this.#handle)) as DataArray;
  }

  /** Reads the data, then drops one owner. */
  async consumeData(): Promise<DataArray> {
    const data = await this.data();
    this.dispose();
    return data;
  }

  consumeDataSync(): DataArray {
    const data = this.dataSync();
    this.dispose();
    return data;
  }

  /** Nested JS arrays (bool dtype gives booleans; 0-d gives a bare value). */
  js(): NestedValues {
    return nest(this.dataSync(), this.shape, this.dtype === DType.Bool);
  }

  async jsAsync(): Promise<NestedValues> {
    return nest(await this.data(), this.shape, this.dtype === DType.Bool);
  }

  /** The single element of a size-1 array. */
  item(): number {
    if (this.size !== 1) {
      throw new TypeError(`item: the array has ${this.size} elements, not 1`);
    }
    return this.dataSync()[0];
  }

  toString(): string {
    return `Array:${this.dtype}[${this.shape.join(",")}]`;
  }

  /** A 0-d array converts to its number (`+x`, `x == 3`); other shapes throw. */
  [Symbol.toPrimitive](hint: string): number | string {
    if (hint === "string") return this.toString();
    if (this.ndim !== 0) {
      throw new TypeError(`${this}: only 0-d arrays convert to a number (use item() or data())`);
    }
    return this.item();
  }

  /** Iterates over axis 0, yielding new owned arrays (`const [a, b] = x`). */
  *[Symbol.iterator](): Iterator<Array> {
    const n = this.shape[0];
    if (n === undefined) throw new TypeError("iteration over a 0-d array");
    for (let i = 0; i < n; i++) yield this.slice(i);
  }

  /** WebGPU buffer access (jax-js's `gpuBuffer`); not in oxjax yet. */
  gpuBuffer(): never {
    throw new Error("gpuBuffer is not supported in oxjax yet");
  }

  gpuBufferSync(): never {
    throw new Error("gpuBufferSync is not supported in oxjax yet");
  }

  /** Upstream's bit view as another dtype; not in oxjax yet. */
  view(_dtype?: DType): never {
    throw new Error("view is not supported in oxjax yet");
  }
}

function nest(data: DataArray, shape: number[], bool: boolean): NestedValues {
  const leaf = (i: number): NestedValues => (bool ? data[i] !== 0 : data[i]);
  const build = (axis: number, offset: number): NestedValues => {
    if (axis === shape.length) return leaf(offset);
    const stride = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    return JsArray.from({ length: shape[axis] }, (_, k) => build(axis + 1, offset + k * stride));
  };
  return build(0, 0);
}
