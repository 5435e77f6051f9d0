/**
 * The `Array` of the consuming entry (`oxjax/consuming`): a facade over one core `Array` (the
 * same Rust handle, so both entries share one module instance). Reading properties (`shape`,
 * `dtype`, `aval`, `refCount`, …) never consumes; `.ref` adds an owner and returns this same
 * object; `dispose()` drops one. Every other method consumes `this` and its array arguments,
 * as in `@jax-js/jax` 0.1.x: `methods.ts` installs them. Each core array has at most one facade
 * (`facadeOf`), so identity (`y === x`) is kept across calls.
 */
import { Array as CoreArray } from "../array.js";
import type { Aval } from "../aval.js";
import type { DType } from "../dtype.js";
import type { Device } from "../device.js";

const facades = new WeakMap<CoreArray, Array>();

export class Array {
  readonly #core: CoreArray;

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
    return this.#core.shape;
  }

  get ndim(): number {
    return this.#core.ndim;
  }

  get size(): number {
    return this.#core.size;
  }

  get dtype(): DType {
    return this.#core.dtype;
  }

  get weakType(): boolean {
    return this.#core.weakType;
  }

  get device(): Device {
    return this.#core.device;
  }

  get aval(): Aval {
    return this.#core.aval;
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
    this.#core.dispose();
  }

  /** What `using` calls: disposes only if still alive, never throws. */
  [Symbol.dispose](): void {
    this.#core[Symbol.dispose]();
  }

  toString(): string {
    return this.#core.toString();
  }
}

/** The facade of `core` (the same object every time for the same core array). */
export function facadeOf(core: CoreArray): Array {
  let f = facades.get(core);
  if (!f) {
    f = new Array(core);
    facades.set(core, f);
  }
  return f;
}
