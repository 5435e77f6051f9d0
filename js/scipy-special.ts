/** The `scipySpecial` namespace (first part): erf, erfc, erfinv, logit, logsumexp, softmax. */
import { Array, type ArrayLike } from "./array.js";
import { applyOp } from "./ops.js";

export { logsumexp, softmax, logSoftmax } from "./nn.js";

/** The error function, element-wise (as `lax.erf`); integer inputs give float32. */
export const erf = (x: ArrayLike): Array => applyOp("erf", "erf", [x]);
/** The complementary error function `1 − erf(x)` (as `lax.erfc`). */
export const erfc = (x: ArrayLike): Array => applyOp("erfc", "erfc", [x]);
/** The inverse error function on `(−1, 1)` (±Infinity at ±1, NaN outside). */
export const erfinv = (x: ArrayLike): Array => applyOp("erfinv", "erfinv", [x]);

/** `log(x / (1 − x))`. */
export const logit = (x: ArrayLike): Array => applyOp("logit", "logit", [x]);
