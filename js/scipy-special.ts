/** The `scipySpecial` namespace (first part): erf, erfc, erfinv, logit, logsumexp, softmax. */
import { Array, type ArrayLike } from "./array.js";
import { applyOp } from "./ops.js";

export { logsumexp, softmax, logSoftmax } from "./nn/index.js";

/**
 * The error function, element-wise (as `lax.erf`); integer inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = scipySpecial.erf(x); // [0, 0.8427008]
 * ```
 */
export const erf = (x: ArrayLike): Array => applyOp("erf", "erf", [x]);
/**
 * The complementary error function `1 − erf(x)` (as `lax.erfc`).
 *
 * @example
 * ```ts
 * using x = np.array([0]);
 * using y = scipySpecial.erfc(x); // [1]
 * ```
 */
export const erfc = (x: ArrayLike): Array => applyOp("erfc", "erfc", [x]);
/**
 * The inverse error function on `(−1, 1)` (±Infinity at ±1, NaN outside).
 *
 * @example
 * ```ts
 * using x = np.array([0, 0.5]);
 * using y = scipySpecial.erfinv(x); // [0, 0.47693628]
 * ```
 */
export const erfinv = (x: ArrayLike): Array => applyOp("erfinv", "erfinv", [x]);

/**
 * `log(x / (1 − x))`.
 *
 * @example
 * ```ts
 * using x = np.array([0.5, 0.75]);
 * using y = scipySpecial.logit(x); // [0, 1.0986123]
 * ```
 */
export const logit = (x: ArrayLike): Array => applyOp("logit", "logit", [x]);
