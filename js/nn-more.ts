/**
 * More of the `nn` namespace: hard and sparse activations, mish, selu, celu, squareplus,
 * log1mexp, glu, logmeanexp, standardize, identity and dotProductAttention. The math is in Rust
 * (compositions with jax.nn's formulas).
 */
import { call, wasm } from "./bridge.js";
import { Array } from "./array.js";
import { activation, check } from "./nn-activation.js";
import * as lib from "./lib-calls.js";
import { shareOp } from "./ops.js";

type Axis = number | number[] | null;

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

const isEmptyAxes = (axis: Axis): boolean => globalThis.Array.isArray(axis) && axis.length === 0;

/**
 * `log(mean(exp(x)))` over `axis` (all axes by default); an empty axis list gives `x`'s
 * values (a new array sharing its data).
 *
 * @example
 * ```ts
 * using x = np.array([0, 0]);
 * using y = nn.logmeanexp(x); // 0
 * ```
 */
export function logmeanexp(x: Array, axis: Axis = null, opts: { keepdims?: boolean } = {}): Array {
  check("logmeanexp", x);
  if (isEmptyAxes(axis)) return shareOp("logmeanexp", x);
  return lib.logmeanexp({ x, axis, keepdims: !!opts.keepdims });
}

/** Options of `standardize`. */
export interface StandardizeOptions {
  /** A precomputed mean (default: the mean over `axis`). */
  mean?: Array;
  /** A precomputed variance (default: the variance over `axis`). */
  variance?: Array;
  /** Added to the variance before the square root (default 1e-5). */
  epsilon?: number;
}

/**
 * `(x − mean)/√(variance + ε)` over `axis`; an empty axis list gives `x`'s
 * values (a new array sharing its data).
 *
 * @example
 * ```ts
 * using x = np.array([1, 3]);
 * using y = nn.standardize(x); // ≈ [-1, 1]
 * ```
 */
export function standardize(x: Array, axis: Axis = -1, opts: StandardizeOptions = {}): Array {
  check("standardize", x);
  if (isEmptyAxes(axis)) return shareOp("standardize", x);
  const { mean, variance, epsilon } = opts;
  return lib.standardize({ x, axis: axis ?? -1, mean, variance, epsilon });
}

/** Options of `dotProductAttention`. */
export interface AttentionOptions {
  /** Added to the attention logits (broadcast to `[B?, N, L, S]`). */
  bias?: Array;
  /** A bool mask: logits where it is false are set to a large negative value before the softmax. */
  mask?: Array;
  /** The factor of the logits (default `1/√headDim`). */
  scale?: number;
  /** Mask out keys after each query (a causal mask). */
  isCausal?: boolean;
}

/**
 * Scaled dot-product attention: q `[B?, L, N, H]`, k and v `[B?, S, K, H]` (grouped-query when
 * K < N). `mask` (bool, true = keep) and `bias` broadcast to `[B?, N, L, S]`.
 *
 * @example
 * ```ts
 * using q = np.ones([1, 2, 1, 4]); // [B, L, N, H]
 * using k = np.ones([1, 3, 1, 4]); // [B, S, K, H]
 * using v = np.ones([1, 3, 1, 4]);
 * using o = nn.dotProductAttention(q, k, v); // every element is 1
 * o.shape; // [1, 2, 1, 4]
 * ```
 */
export function dotProductAttention(
  q: Array,
  k: Array,
  v: Array,
  opts: AttentionOptions = {},
): Array {
  const { bias, mask, scale, isCausal } = opts;
  return lib.dotProductAttention({ q, k, v, bias, mask, scale, isCausal });
}
