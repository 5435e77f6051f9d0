/** `lax.dot` with dimension numbers, and `lax.topK`. Argument parsing only; the math is in Rust. */
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";

/** Which axes `lax.dot` contracts and which it treats as batch axes. */
export interface DotDimensionNumbers {
  /** Axes of `lhs` summed over (default: its last axis). */
  lhsContractingDims?: number[];
  /**
   * Axes of `rhs` summed over, paired with `lhsContractingDims` (default: its second-to-last
   * axis, or its only axis when it is 1-D).
   */
  rhsContractingDims?: number[];
  /** Batch axes of `lhs` (default none); they lead the result. */
  lhsBatchDims?: number[];
  /** Batch axes of `rhs`, paired with `lhsBatchDims`. */
  rhsBatchDims?: number[];
}

/**
 * General dot product; output axes: batch, lhs free, rhs free.
 *
 * @example
 * ```ts
 * using a = np.ones([2, 3]);
 * using b = np.ones([3, 4]);
 * using c = lax.dot(a, b); // every element is 3
 * c.shape; // [2, 4]
 * ```
 */
export function dot(lhs: Array, rhs: Array, dims: DotDimensionNumbers = {}): Array {
  const { lhsContractingDims, rhsContractingDims, lhsBatchDims, rhsBatchDims } = dims;
  return lib.dot({
    lhs,
    rhs,
    lhsContractingDims,
    rhsContractingDims,
    lhsBatchDims,
    rhsBatchDims,
  });
}

/**
 * `[values, indices]` of the `k` largest elements along `axis` (stable; int32 indices).
 *
 * @example
 * ```ts
 * using x = np.array([3, 1, 4, 1, 5]);
 * const [values, indices] = lax.topK(x, 2); // values = [5, 4], indices = [4, 2]
 * values.dispose();
 * indices.dispose();
 * ```
 */
export function topK(x: Array, k: number, axis = -1): [Array, Array] {
  return lib.topK({ x, k, axis });
}
