/** `nn.dotProductAttention`: argument handling only; the math is in Rust. */
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";

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
