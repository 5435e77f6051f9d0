/** optax's losses: squared error and the L2 loss, elementwise. */
import { Array } from "../array.js";
import { freeing } from "./tree-utils.js";

function sameShape(fn: string, a: Array, b: Array): void {
  if (a.shape.length !== b.shape.length || a.shape.some((d, i) => d !== b.shape[i])) {
    throw new Error(`${fn}: shape mismatch [${a.shape}] vs [${b.shape}]`);
  }
}

/**
 * `(predictions − targets)²` (or `predictions²` without targets).
 *
 * @example
 * ```ts
 * using p = np.array([1, 2]);
 * using t = np.array([0, 4]);
 * using e = optax.squaredError(p, t); // [1, 4]
 * ```
 */
export function squaredError(predictions: Array, targets?: Array): Array {
  if (!targets) return predictions.mul(predictions);
  sameShape("squaredError", predictions, targets);
  const d = predictions.sub(targets);
  return freeing([d], () => d.mul(d));
}

/**
 * Half the squared error.
 *
 * @example
 * ```ts
 * using p = np.array([1, 2]);
 * using t = np.array([0, 4]);
 * using e = optax.l2Loss(p, t); // [0.5, 2]
 * ```
 */
export function l2Loss(predictions: Array, targets?: Array): Array {
  const e = squaredError(predictions, targets);
  return freeing([e], () => e.mul(0.5));
}
