/** The `nn` namespace: activations, logsumexp, softmax, oneHot (math in Rust). */
import { call, wasm } from "./bridge.js";
import { Array } from "./array.js";
import { activation, check } from "./nn-activation.js";
import * as checks from "./check.js";

type Axis = number | number[] | null;

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

const axes = (axis: Axis | undefined, fn = "nn"): Int32Array | undefined => checks.axes(fn, axis);

/**
 * `log(Σ exp(x))` over `axis` (all axes by default), computed stably (the maximum is subtracted
 * first); `keepdims` keeps the reduced axes.
 *
 * @example
 * ```ts
 * using x = np.array([0, 0]);
 * using y = nn.logsumexp(x); // 0.6931472 (log 2)
 * ```
 */
export function logsumexp(x: Array, axis: Axis = null, opts: { keepdims?: boolean } = {}): Array {
  check("logsumexp", x);
  return new Array(call(() => wasm.nnReduce("logsumexp", x._handle, axes(axis), !!opts.keepdims)));
}

/** Alias of `logsumexp`. */
export const logSumExp = logsumexp;

/**
 * `exp(x) / Σ exp(x)` along `axis` (default the last), computed stably; each slice sums to 1.
 *
 * @example
 * ```ts
 * using x = np.array([0, 0]);
 * using y = nn.softmax(x); // [0.5, 0.5]
 * ```
 */
export function softmax(x: Array, axis: Axis = -1): Array {
  check("softmax", x);
  return new Array(call(() => wasm.nnReduce("softmax", x._handle, axes(axis), false)));
}

/**
 * `x − logsumexp(x)` along `axis` (default the last), computed stably.
 *
 * @example
 * ```ts
 * using x = np.array([0, 0]);
 * using y = nn.logSoftmax(x); // [-0.6931472, -0.6931472]
 * ```
 */
export function logSoftmax(x: Array, axis: Axis = -1): Array {
  check("logSoftmax", x);
  return new Array(call(() => wasm.nnReduce("logSoftmax", x._handle, axes(axis), false)));
}

/**
 * A float32 one-hot encoding of the integer classes in `x` along a new last axis of size
 * `numClasses` (out-of-range classes give all zeros).
 *
 * @example
 * ```ts
 * using x = np.array([0, 2], { dtype: np.int32 });
 * using y = nn.oneHot(x, 3); // [[1, 0, 0], [0, 0, 1]]
 * ```
 */
export function oneHot(x: Array, numClasses: number): Array {
  check("oneHot", x);
  return new Array(call(() => wasm.oneHot(x._handle, numClasses)));
}

export * from "./nn-more.js";
