/**
 * The `Array` of the consuming entry (`oxjax/consuming`): a facade over one core `Array` (the
 * same Rust handle, so both entries share one module instance). Reading properties (`shape`,
 * `dtype`, `aval`, `refCount`, …) never consumes, and like upstream's still works once the
 * array is freed; `.ref` adds an owner and returns this same object; `dispose()` drops one. Every other method consumes `this` and its array arguments,
 * as in `@jax-js/jax` 0.1.x: `methods.ts` installs them. Each core array has at most one facade
 * (`facadeOf`), so identity (`y === x`) is kept across calls.
 */
import { Array as CoreArray } from "../array.js";
import { Aval } from "../aval.js";
import { call, wasm } from "../bridge.js";
import type { DType } from "../dtype.js";
import type { Device } from "../device.js";

/** Where a core array keeps its facade (a property: cheaper than a WeakMap per result). */
const FACADE = Symbol("oxjax.consuming.facade");
type WithFacade = CoreArray & { [FACADE]?: Array };

export class Array {
  readonly #core: CoreArray;
  /** The abstract value, kept when the last reference goes (upstream reads it after that). */
  #freed: Aval | null = null;

  /** @internal Facades are made by `facadeOf`. */
  constructor(core: CoreArray) {
    this.#core = core;
  }

  /** @internal The core array this facade stands for. */
  get _core(): CoreArray {
    return this.#core;
  }

  /** @internal */
  get _handle(): number {
    return this.#core._handle;
  }

  get shape(): number[] {
    return this.#freed ? this.#freed.shape.slice() : this.#core.shape;
  }

  get ndim(): number {
    return this.#freed ? this.#freed.ndim : this.#core.ndim;
  }

  get size(): number {
    return this.#freed ? this.#freed.size : this.#core.size;
  }

  get dtype(): DType {
    return this.#freed ? this.#freed.dtype : this.#core.dtype;
  }

  get weakType(): boolean {
    return this.#freed ? this.#freed.weakType : this.#core.weakType;
  }

  get device(): Device {
    return this.#core.device;
  }

  get aval(): Aval {
    return this.#freed ?? this.#core.aval;
  }

  get refCount(): number {
    return this.#core.refCount;
  }

  /** Adds an owner and returns this same object. */
  get ref(): this {
    void this.#core.ref;
    return this;
  }

  /** Drops one owner; frees the data at zero. Throws if the array was already freed. */
  dispose(): void {
    let freed: string | undefined;
    try {
      freed = call(() => wasm.releaseConsumed(this.#core._handle, true));
    } catch (e) {
      throw e instanceof Error && /disposed/.test(e.message) ? new ReferenceError(e.message) : e;
    }
    this.#keepAval(freed);
  }

  /** What `using` calls: disposes only if still alive, never throws. */
  [Symbol.dispose](): void {
    this._release();
  }

  /** @internal Drops one owner if alive (a consumed argument), never throws. */
  _release(): void {
    this.#keepAval(call(() => wasm.releaseConsumed(this.#core._handle, false)));
  }

  /** Keeps the abstract value readable once the last reference went, as upstream does. */
  #keepAval(freed: string | undefined): void {
    if (freed !== undefined && this.#freed === null) {
      const [dtype, weak, dims] = freed.split("|");
      const shape = dims === "" ? [] : dims.split(",").map(Number);
      this.#freed = new Aval(shape, dtype as DType, weak === "1");
    }
  }

  toString(): string {
    return this.#freed
      ? `Array:${this.#freed.dtype}[${this.#freed.shape.join(",")}]`
      : this.#core.toString();
  }
}

/** The facade of `core` (the same object every time for the same core array). */
export function facadeOf(core: CoreArray): Array {
  const c = core as WithFacade;
  return (c[FACADE] ??= new Array(core));
}
