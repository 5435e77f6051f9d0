/**
 * `Aval`: an array's abstract value (shape, dtype, weak type), what `Array.aval` returns. Prints
 * as jax-js's `ShapedArray` does (`float32[2,3]`), which client code logs.
 */
import type { DType } from "./dtype.js";

/**
 * An array's abstract value, what `Array.aval` returns: its shape, dtype and weak type, without
 * data. Prints as jax-js's `ShapedArray` does (`float32[2,3]`).
 */
export class Aval {
  /** @internal */
  constructor(
    /** The size of each axis. */
    readonly shape: number[],
    /** The element type. */
    readonly dtype: DType,
    /** Whether the array is weakly typed (made from a bare JS number). */
    readonly weakType: boolean,
  ) {}

  /** The number of axes. */
  get ndim(): number {
    return this.shape.length;
  }

  /** The number of elements. */
  get size(): number {
    return this.shape.reduce((a, b) => a * b, 1);
  }

  /**
   * The same dtype and weak type with shape `[]`.
   *
   * @example
   * ```ts
   * using x = np.zeros([2, 3]);
   * x.aval.scalar().toString(); // "float32[]"
   * ```
   */
  scalar(): Aval {
    return new Aval([], this.dtype, this.weakType);
  }

  /**
   * Equal shapes and dtypes.
   *
   * @example
   * ```ts
   * using a = np.zeros([2]);
   * using b = np.ones([2]);
   * a.aval.equals(b.aval); // true
   * ```
   */
  equals(other: Aval): boolean {
    return (
      this === other ||
      (this.dtype === other.dtype &&
        this.shape.length === other.shape.length &&
        this.shape.every((d, i) => d === other.shape[i]))
    );
  }

  /**
   * `dtype[shape]`, e.g. `float32[2,3]`.
   *
   * @example
   * ```ts
   * using x = np.zeros([2, 3], { dtype: np.int32 });
   * x.aval.toString(); // "int32[2,3]"
   * ```
   */
  toString(): string {
    return `${this.dtype}[${this.shape.join(",")}]`;
  }
}
