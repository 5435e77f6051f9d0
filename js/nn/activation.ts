/**
 * `nn`'s activations: element-wise (relu … squareplus, identity) and `glu`, which halves an
 * axis. The math is in Rust (jax.nn's formulas).
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { activation, check } from "./activation-op.js";
import * as lib from "../lib-calls.js";
import { shareOp } from "../ops.js";
import * as checks from "../check.js";

/**
 * `max(x, 0)`, element-wise (gradient 0 at 0). dtype: that of `x`.
 *
 * @example
 * ```ts
 * using x = np.array([-1, 2]);
 * using y = nn.relu(x); // [0, 2]
 * ```
 */
export const relu = activation("relu");

/**
 * `min(max(x, 0), 6)`, element-wise.
 *
 * @example
 * ```ts
 * using x = np.array([-1, 3, 8]);
 * using y = nn.relu6(x); // [0, 3, 6]
 * ```
 */
export const relu6 = activation("relu6");

/**
 * The logistic function `1 / (1 + e^−x)`, element-wise; integer inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0]);
 * using y = nn.sigmoid(x); // [0.5]
 * ```
 */
export const sigmoid = activation("sigmoid");

/**
 * `log(1 + eˣ)`, computed without overflow.
 *
 * @example
 * ```ts
 * using x = np.array([0]);
 * using y = nn.softplus(x); // [0.6931472]
 * ```
 */
export const softplus = activation("softplus");

/**
 * `log(sigmoid(x)) = −softplus(−x)`, computed stably.
 *
 * @example
 * ```ts
 * using x = np.array([0]);
 * using y = nn.logSigmoid(x); // [-0.6931472]
 * ```
 */
export const logSigmoid = activation("logSigmoid");

/**
 * `x · sigmoid(x)` (SiLU, also called swish).
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = nn.silu(x); // [0, 0.7310586]
 * ```
 */
export const silu = activation("silu");

/** Alias of `silu`. */
export const swish = silu;

/**
 * `x / (1 + |x|)`.
 *
 * @example
 * ```ts
 * using x = np.array([-1, 3]);
 * using y = nn.softSign(x); // [-0.5, 0.75]
 * ```
 */
export const softSign = activation("softSign");

/**
 * `x` where positive, `negativeSlope · x` (default 0.01) elsewhere.
 *
 * @example
 * ```ts
 * using x = np.array([-2, 3]);
 * using y = nn.leakyRelu(x, 0.1); // [-0.2, 3]
 * ```
 */
export function leakyRelu(x: Array, negativeSlope = 0.01): Array {
  check("leakyRelu", x);
  return new Array(call(() => wasm.activation("leakyRelu", x._handle, negativeSlope)));
}

/**
 * `x` where positive, `alpha · (eˣ − 1)` (default alpha 1) elsewhere.
 *
 * @example
 * ```ts
 * using x = np.array([0, 2]);
 * using y = nn.elu(x); // [0, 2]
 * ```
 */
export function elu(x: Array, alpha = 1): Array {
  check("elu", x);
  return new Array(call(() => wasm.activation("elu", x._handle, alpha)));
}

/**
 * The Gaussian error linear unit. `approximate` (default `true`, as JAX) uses the tanh form
 * `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`; `false` the exact form `x·Φ(x)` (erf). Given as
 * jax-js's option `{ approximate }` or as a boolean.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = nn.gelu(x); // [0, 0.841192]
 * using z = nn.gelu(x, { approximate: false }); // [0, 0.841345]
 * ```
 */
export function gelu(x: Array, opts: { approximate?: boolean } | boolean = {}): Array {
  check("gelu", x);
  const approximate = typeof opts === "boolean" ? opts : checks.options("gelu", opts).approximate;
  if (approximate !== undefined && typeof approximate !== "boolean") {
    throw new TypeError(`gelu: approximate must be a boolean, got ${typeof approximate}`);
  }
  return new Array(call(() => wasm.activation("gelu", x._handle, approximate === false ? 0 : 1)));
}

/**
 * `relu6(x + 3) / 6`, a piecewise-linear sigmoid.
 *
 * @example
 * ```ts
 * using x = np.array([-3, 0, 3]);
 * using y = nn.hardSigmoid(x); // [0, 0.5, 1]
 * ```
 */
export const hardSigmoid = activation("hardSigmoid");

/**
 * `x · hardSigmoid(x)`.
 *
 * @example
 * ```ts
 * using x = np.array([-3, 0, 3]);
 * using y = nn.hardSilu(x); // [0, 0, 3]
 * ```
 */
export const hardSilu = activation("hardSilu");

/** Alias of `hardSilu`. */
export const hardSwish = hardSilu;

/**
 * `x` clipped to `[-1, 1]`.
 *
 * @example
 * ```ts
 * using x = np.array([-2, 0.5, 2]);
 * using y = nn.hardTanh(x); // [-1, 0.5, 1]
 * ```
 */
export const hardTanh = activation("hardTanh");

/**
 * `x · tanh(softplus(x))`.
 *
 * @example
 * ```ts
 * using x = np.array([0]);
 * using y = nn.mish(x); // [0]
 * ```
 */
export const mish = activation("mish");

/**
 * The scaled exponential linear unit, with JAX's constants (λ ≈ 1.0507, α ≈ 1.6733).
 *
 * @example
 * ```ts
 * using x = np.array([1]);
 * using y = nn.selu(x); // [1.050701]
 * ```
 */
export const selu = activation("selu");

/**
 * JAX's `sparse_plus`: 0 below −1, `(x + 1)²/4` on `[−1, 1]`, `x` above.
 *
 * @example
 * ```ts
 * using x = np.array([-2, 0, 2]);
 * using y = nn.sparsePlus(x); // [0, 0.25, 2]
 * ```
 */
export const sparsePlus = activation("sparsePlus");

/**
 * JAX's `sparse_sigmoid`: 0 below −1, `(x + 1)/2` on `[−1, 1]`, 1 above.
 *
 * @example
 * ```ts
 * using x = np.array([-2, 0, 2]);
 * using y = nn.sparseSigmoid(x); // [0, 0.5, 1]
 * ```
 */
export const sparseSigmoid = activation("sparseSigmoid");

/**
 * `log(1 − exp(−x))`, stable on both sides of ln 2.
 *
 * @example
 * ```ts
 * using x = np.array([1]);
 * using y = nn.log1mexp(x); // [-0.45867515]
 * ```
 */
export const log1mexp = activation("log1mexp");

/**
 * `max(x, 0) + min(0, alpha·(e^(x/alpha) − 1))` (default alpha 1).
 *
 * @example
 * ```ts
 * using x = np.array([0, 2]);
 * using y = nn.celu(x); // [0, 2]
 * ```
 */
export function celu(x: Array, alpha = 1): Array {
  check("celu", x);
  return new Array(call(() => wasm.activation("celu", x._handle, alpha)));
}

/**
 * `(x + √(x² + b)) / 2` (default b 4), a smooth relu.
 *
 * @example
 * ```ts
 * using x = np.array([0]);
 * using y = nn.squareplus(x); // [1]
 * ```
 */
export function squareplus(x: Array, b = 4): Array {
  check("squareplus", x);
  return new Array(call(() => wasm.activation("squareplus", x._handle, b)));
}

/**
 * The same values as `x`: a new array sharing `x`'s data (no copy), owned by the caller, so
 * disposing it leaves `x` alive. (The consuming entry returns `x` itself, as jax-js does.)
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = nn.identity(x); // [1, 2]
 * ```
 */
export function identity(x: Array): Array {
  return shareOp("identity", x);
}

/**
 * Gated linear unit: first half times the sigmoid of the second half along `axis`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 0, 0]);
 * using y = nn.glu(x); // [0.5, 1]
 * ```
 */
export function glu(x: Array, axis = -1): Array {
  check("glu", x);
  return lib.glu({ x, axis });
}
