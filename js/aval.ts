/**
 * `Aval`: an array's abstract value (shape, dtype, weak type), what `Array.aval` returns. Prints
 * as jax-js's `ShapedArray` does (`float32[2,3]`), which client code logs.
 */
import type { DType } from "./dtype.js";

export class Aval {
  constructor(
    readonly shape: number[],
    readonly dtype: DType,
    readonly weakType: boolean,
  ) {}

  get ndim(): number {
    return this.shape.length;
  }

  get size(): number {
    return this.shape.reduce((a, b) => a * b, 1);
  }

  /** The same dtype and weak type with shape `[]`. */
  scalar(): Aval {
    return new Aval([], this.dtype, this.weakType);
  }

  /** Equal shapes and dtypes. */
  equals(other: Aval): boolean {
    return (
      this === other ||
      (this.dtype === other.dtype &&
        this.shape.length === other.shape.length &&
        this.shape.every((d, i) => d === other.shape[i]))
    );
  }

  toString(): string {
    return `${this.dtype}[${this.shape.join(",")}]`;
  }
}
