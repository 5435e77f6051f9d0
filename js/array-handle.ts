/**
 * `ArrayHandle`, the base of the `Array` class: the handle of a value in Rust, its ownership
 * (`ref`, `dispose`, `using`) and its metadata and reads (`shape`, `dtype`, `data()`, `js()`, …).
 * The operations live on `Array` (`array.ts`). Holds no math.
 */
import { call, callAsync, wasm } from "./bridge.js";
import { DType, type DataArray } from "./dtype.js";
import { defaultDevice, type Device } from "./device.js";
import { recordCreation, recordRef } from "./leaks.js";
import { readData, readInPlace } from "./reads.js";
import { Aval } from "./aval.js";
import { watchArray } from "./reclaim.js";

const JsArray = globalThis.Array;

/** Recursive nested JS arrays, as returned by `js()`. */
export type NestedValues = number | boolean | NestedValues[];

/**
 * What every `Array` is: a handle with its owners, metadata and reads. Documented with `Array`.
 *
 * @internal
 */
export class ArrayHandle {
  /** The handle of the Rust value; internal. */
  readonly #handle: number;
  /**
   * The shape and dtype as Rust reported them, once asked (the value behind a handle never
   * changes); later queries only check that the array is still alive.
   */
  #shape: number[] | undefined = undefined;
  #dtype: DType | undefined = undefined;

  /** @internal Arrays are created by `np.array`, `np.zeros`, … */
  constructor(handle: number) {
    this.#handle = handle;
    // Described by handle: the tracker must not keep this object from the collector.
    recordCreation(handle, describe);
    watchArray(this, handle);
  }

  /**
   * @internal This array holds the same value as `source` (a `share` of it): takes its shape
   * and dtype, asking Rust for them if `source` has not yet.
   */
  _sameValueAs(source: ArrayHandle): void {
    this.#shape = source.#shape ?? source.#dims();
    this.#dtype = source.#dtype ?? source.dtype;
  }

  /** Whether the handle is still alive (a cheap query: no allocation on either side). */
  #alive(): boolean {
    return call(() => wasm.refCount(this.#handle)) !== 0;
  }

  /**
   * A cached `value` while the array is alive; otherwise what `read` gets from Rust, which
   * fails with Rust's error for a freed array.
   */
  #known<T>(value: T | undefined, read: () => T): T {
    return value !== undefined && this.#alive() ? value : read();
  }

  /** The shape, shared (not a copy): from Rust the first time; fails once disposed. */
  #dims(): number[] {
    return (this.#shape = this.#known(this.#shape, () =>
      numbers(call(() => wasm.shape(this.#handle))),
    ));
  }

  /** @internal */
  get _handle(): number {
    return this.#handle;
  }

  /**
   * The size of each axis (a new JS array each time); `[]` for a 0-d array.
   *
   * @example
   * ```ts
   * using x = np.zeros([2, 3]);
   * x.shape; // [2, 3]
   * ```
   */
  get shape(): number[] {
    return this.#dims().slice();
  }

  /**
   * The number of axes.
   *
   * @example
   * ```ts
   * using x = np.zeros([2, 3]);
   * x.ndim; // 2
   * ```
   */
  get ndim(): number {
    return this.#dims().length;
  }

  /**
   * The number of elements (the product of `shape`; 1 for a 0-d array).
   *
   * @example
   * ```ts
   * using x = np.zeros([2, 3]);
   * x.size; // 6
   * ```
   */
  get size(): number {
    return this.#dims().reduce((a, b) => a * b, 1);
  }

  /**
   * The element type: `"float32"`, `"float16"`, `"float64"`, `"int32"`, `"uint32"` or `"bool"`.
   *
   * @example
   * ```ts
   * using x = np.array([1, 2], { dtype: np.int32 });
   * x.dtype; // "int32"
   * ```
   */
  get dtype(): DType {
    return (this.#dtype = this.#known(
      this.#dtype,
      () => call(() => wasm.dtype(this.#handle)) as DType,
    ));
  }

  /**
   * Whether the array is weakly typed (made from a bare JS number): then, in a binary operation
   * with a strongly typed array, it takes that array's dtype.
   *
   * @example
   * ```ts
   * using w = np.array(2);
   * using s = np.array([2]);
   * w.weakType; // true
   * s.weakType; // false
   * ```
   */
  get weakType(): boolean {
    return call(() => wasm.weakType(this.#handle));
  }

  /**
   * The abstract value: shape, dtype and weak type (prints as `float32[2,3]`).
   *
   * @example
   * ```ts
   * using x = np.zeros([2, 3]);
   * x.aval.toString(); // "float32[2,3]"
   * ```
   */
  get aval(): Aval {
    return new Aval(this.shape, this.dtype, this.weakType);
  }

  /**
   * The device holding the data; for a tracer, that of the arrays its trace was opened on (else
   * the default device).
   *
   * @example
   * ```ts
   * using x = np.zeros([2], { device: "cpu" });
   * x.device; // "cpu"
   * ```
   */
  get device(): Device {
    return (call(() => wasm.placedOn(this.#handle)) as Device | undefined) ?? defaultDevice();
  }

  /**
   * The number of owners; 0 once freed.
   *
   * @example
   * ```ts
   * using x = np.zeros([2]);
   * x.refCount; // 1
   * ```
   */
  get refCount(): number {
    return call(() => wasm.refCount(this.#handle));
  }

  /**
   * Adds an owner and returns this same object.
   *
   * @example
   * ```ts
   * const x = np.zeros([2]);
   * x.ref === x; // true
   * x.refCount; // 2
   * x.dispose();
   * x.dispose(); // the second owner frees it
   * ```
   */
  get ref(): this {
    call(() => wasm.incRef(this.#handle));
    recordRef(this.#handle);
    return this;
  }

  /**
   * Drops one owner; frees the data at zero. Throws if the array was already freed.
   *
   * @example
   * ```ts
   * const x = np.zeros([2]);
   * x.dispose();
   * x.refCount; // 0
   * ```
   */
  dispose(): void {
    try {
      call(() => wasm.dispose(this.#handle));
    } catch (e) {
      throw e instanceof Error && /disposed/.test(e.message) ? new ReferenceError(e.message) : e;
    }
  }

  /**
   * What `using` calls: disposes only if the array is still alive, never throws. A no-op on
   * tracers (values inside jit, grad, scan bodies…), which their trace owns.
   *
   * @example
   * ```ts
   * {
   *   using x = np.ones([2]); // disposed when the block ends, even on an exception
   *   x.shape; // [2]
   * }
   * ```
   */
  [Symbol.dispose](): void {
    call(() => wasm.disposeScoped(this.#handle));
  }
  /**
   * The elements as a fresh typed array (row-major). Works on every device; on webgpu, reads
   * requested in the same tick (`Promise.all` of `data()` calls) share one map (`reads.ts`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * const d = await x.data(); // Float32Array [1, 2]
   * Array.from(d); // [1, 2]
   * ```
   */
  data(): Promise<DataArray> {
    return readData("data", this.#handle);
  }

  /**
   * Resolves to this array once its pending device work is done (no readback, no ownership change).
   *
   * @example
   * ```ts
   * using x = np.ones([4]);
   * (await x.blockUntilReady()) === x; // true
   * ```
   */
  async blockUntilReady(): Promise<this> {
    await callAsync(() => wasm.blockUntilReady(this.#handle));
    return this;
  }

  /**
   * The elements, read synchronously; on webgpu use `await data()` instead.
   *
   * @example
   * ```ts
   * using x = np.array([1, 2], { dtype: np.int32 });
   * Array.from(x.dataSync()); // [1, 2]
   * ```
   */
  dataSync(): DataArray {
    return (
      readInPlace("dataSync", this.#handle) ??
      (call(() => wasm.readSync("dataSync", this.#handle)) as DataArray)
    );
  }

  /**
   * Reads the data, then drops one owner.
   *
   * @example
   * ```ts
   * const x = np.array([1, 2]);
   * const d = await x.consumeData(); // x is disposed
   * x.refCount; // 0
   * ```
   */
  async consumeData(): Promise<DataArray> {
    const data = await this.data();
    this.dispose();
    return data;
  }

  /**
   * Reads the data synchronously (`dataSync()`), then drops one owner (`dispose()`).
   *
   * @example
   * ```ts
   * const x = np.array([1, 2]);
   * Array.from(x.consumeDataSync()); // [1, 2]
   * ```
   */
  consumeDataSync(): DataArray {
    const data = this.dataSync();
    this.dispose();
    return data;
  }

  /**
   * Nested JS arrays (bool dtype gives booleans; 0-d gives a bare value).
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * x.js(); // [[1, 2], [3, 4]]
   * ```
   */
  js(): NestedValues {
    return nest(this.dataSync(), this.shape, this.dtype === DType.Bool);
  }

  /**
   * The elements as nested JS arrays, read with `await data()` (so it works on webgpu too).
   *
   * @example
   * ```ts
   * using x = np.array([true, false]);
   * await x.jsAsync(); // [true, false]
   * ```
   */
  async jsAsync(): Promise<NestedValues> {
    return nest(await this.data(), this.shape, this.dtype === DType.Bool);
  }

  /**
   * The single element of a size-1 array.
   *
   * @example
   * ```ts
   * using x = np.array([[5]]);
   * x.item(); // 5
   * ```
   */
  item(): number {
    if (this.size !== 1) {
      throw new TypeError(`item: the array has ${this.size} elements, not 1`);
    }
    return this.dataSync()[0];
  }

  /**
   * A short description: `Array:<dtype>[<shape>]`, e.g. `Array:float32[2,3]` (no values).
   *
   * @example
   * ```ts
   * using x = np.zeros([2, 3]);
   * x.toString(); // "Array:float32[2,3]"
   * ```
   */
  toString(): string {
    return describe(this.#handle);
  }

  /**
   * A 0-d array converts to its number (`+x`, `x == 3`); other shapes throw.
   *
   * @example
   * ```ts
   * using s = np.array(2.5);
   * +s * 2; // 5
   * ```
   */
  [Symbol.toPrimitive](hint: string): number | string {
    if (hint === "string") return this.toString();
    if (this.ndim !== 0) {
      throw new TypeError(`${this}: only 0-d arrays convert to a number (use item() or data())`);
    }
    return this.item();
  }

  /** WebGPU buffer access (jax-js's `gpuBuffer`); not in oxjax yet. */
  gpuBuffer(): never {
    throw new Error("gpuBuffer is not supported in oxjax yet");
  }

  /**
   * jax-js's synchronous WebGPU buffer access; not in oxjax yet (always throws).
   */
  gpuBufferSync(): never {
    throw new Error("gpuBufferSync is not supported in oxjax yet");
  }

  /** Upstream's bit view as another dtype; not in oxjax yet. */
  view(_dtype?: DType): never {
    throw new Error("view is not supported in oxjax yet");
  }
}

/** `Array:float32[2,3]`: what `toString` prints. */
function describe(handle: number): string {
  const shape = numbers(call(() => wasm.shape(handle)));
  return `Array:${call(() => wasm.dtype(handle))}[${shape.join(",")}]`;
}

/** The entries of `dims` as a JS array (a loop: `Array.from` of a typed array is slower). */
function numbers(dims: Float64Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < dims.length; i++) out.push(dims[i]);
  return out;
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
