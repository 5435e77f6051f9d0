/**
 * `cumulativeSum` and `cumulativeProd` (NumPy 2's names): `cumsum`/`cumprod` with jax-js's
 * options object (`axis`, `includeInitial`) or an axis. Argument parsing only; the math is in
 * Rust.
 */
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";

/** Options of `cumulativeSum` and `cumulativeProd`. */
export interface CumulativeOptions {
  /** The axis (default: the only one of a 1-D array; the flattened array otherwise). */
  axis?: number | null;
  /** Start with the identity (0 or 1): one more element along the axis. */
  includeInitial?: boolean;
}

function cumulative(run: typeof lib.cumulativeSum) {
  return (x: Array, axisOrOptions: number | null | CumulativeOptions = {}): Array => {
    const o =
      axisOrOptions !== null && typeof axisOrOptions === "object"
        ? axisOrOptions
        : { axis: axisOrOptions };
    return run({ x, axis: o.axis, includeInitial: !!o.includeInitial });
  };
}

/**
 * The running sum along `axis` (`cumsum`), optionally starting with 0 (`includeInitial`).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.cumulativeSum(x, { includeInitial: true }); // [0, 1, 3, 6]
 * ```
 */
export const cumulativeSum = cumulative(lib.cumulativeSum);

/**
 * The running product along `axis` (`cumprod`), optionally starting with 1 (`includeInitial`).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.cumulativeProd(x, { axis: 0 }); // [1, 2, 6]
 * ```
 */
export const cumulativeProd = cumulative(lib.cumulativeProd);
