/** The `scipySpecial` namespace (first part): erf, erfc, erfinv, logit, logsumexp, softmax. */
import { Array, type ArrayLike } from "./array.js";
import { applyOp } from "./ops.js";

export { logsumexp, softmax, logSoftmax } from "./nn.js";

export const erf = (x: ArrayLike): Array => applyOp("erf", "erf", [x]);
export const erfc = (x: ArrayLike): Array => applyOp("erfc", "erfc", [x]);
export const erfinv = (x: ArrayLike): Array => applyOp("erfinv", "erfinv", [x]);

/** `log(x / (1 − x))`. */
export const logit = (x: ArrayLike): Array => applyOp("logit", "logit", [x]);
