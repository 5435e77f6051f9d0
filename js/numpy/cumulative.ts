/**
 * `cumulativeSum` and `cumulativeProd` (NumPy 2's names): `cumsum`/`cumprod` with jax-js's
 * options object (`axis`, `includeInitial`) or an axis. Argument parsing only.
 */
import { Array } from "../array.js";
import { full } from "./creation.js";
import { cumprod, cumsum } from "./reductions.js";
import { concatenate } from "./shape.js";

/** Options of `cumulativeSum` and `cumulativeProd`. */
export interface CumulativeOptions {
  /** The axis (default: the only one of a 1-D array; the flattened array otherwise). */
  axis?: number | null;
  /** Start with the identity (0 or 1): one more element along the axis. */
  includeInitial?: boolean;
}

function cumulative(
  name: string,
  run: (x: Array, axis?: number | null) => Array,
  identity: number,
) {
  return (x: Array, axisOrOptions: number | null | CumulativeOptions = {}): Array => {
    const o =
      axisOrOptions !== null && typeof axisOrOptions === "object"
        ? axisOrOptions
        : { axis: axisOrOptions };
    const out = run(x, o.axis);
    if (!o.includeInitial) return out;
    const axis = o.axis ?? 0;
    const k = axis < 0 ? axis + out.ndim : axis;
    const shape = out.shape.map((d, i) => (i === k ? 1 : d));
    const initial = full(shape, identity, { dtype: out.dtype, device: out.device });
    try {
      return concatenate([initial, out], k);
    } finally {
      initial.dispose();
      out.dispose();
    }
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
export const cumulativeSum = cumulative("cumulativeSum", cumsum, 0);

/**
 * The running product along `axis` (`cumprod`), optionally starting with 1 (`includeInitial`).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.cumulativeProd(x, { axis: 0 }); // [1, 2, 6]
 * ```
 */
export const cumulativeProd = cumulative("cumulativeProd", cumprod, 1);
