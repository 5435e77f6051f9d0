/** The `lax.linalg` namespace: cholesky, triangularSolve (math in Rust). */
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";
import { options } from "../linalg-options.js";

/**
 * `[v, w]`: eigenvectors (columns) and eigenvalues (ascending) of symmetric `x [..., n, n]`.
 *
 * @example
 * ```ts
 * using a = np.array([[2, 1], [1, 2]]);
 * const [v, w] = lax.linalg.eigh(a); // w = [1, 3]
 * v.dispose();
 * w.dispose();
 * ```
 */
export function eigh(
  x: Array,
  opts?: { lower?: boolean; symmetrizeInput?: boolean },
): [Array, Array] {
  const o = options("eigh", opts, ["lower", "symmetrizeInput"]);
  return lib.laxEigh({ a: x, lower: o.lower, symmetrizeInput: o.symmetrizeInput });
}

/** Options of `svd`. */
export interface SvdOptions {
  /** Complete `u` and `vh` (default true) rather than reduced. */
  fullMatrices?: boolean;
  /** Return `[u, s, vh]` (default true) rather than `s` alone. */
  computeUv?: boolean;
}

/**
 * `[u, s, vh]` of `x [..., M, N]` (s descending; complete u, vh by default), or `s`.
 *
 * @example
 * ```ts
 * using a = np.array([[3, 0], [0, -2]]);
 * using s = lax.linalg.svd(a, { computeUv: false }); // [3, 2]
 * ```
 */
export function svd(x: Array, opts?: SvdOptions & { computeUv?: true }): [Array, Array, Array];
export function svd(x: Array, opts: SvdOptions & { computeUv: false }): Array;
export function svd(x: Array, opts?: SvdOptions): Array | [Array, Array, Array];
export function svd(x: Array, opts?: SvdOptions): Array | [Array, Array, Array] {
  const o = options("svd", opts, ["fullMatrices", "computeUv"]);
  const out = lib.laxSvd({ a: x, fullMatrices: o.fullMatrices, computeUv: o.computeUv });
  return out.length === 1 ? out[0] : [out[0], out[1], out[2]];
}

/**
 * The Cholesky factor of each matrix of `a [..., n, n]`: lower (a = L Lᵀ), or upper (Lᵀ).
 *
 * @example
 * ```ts
 * using a = np.array([[4, 2], [2, 5]]);
 * using l = lax.linalg.cholesky(a); // [[2, 0], [1, 2]]
 * ```
 */
export function cholesky(a: Array, opts?: { upper?: boolean }): Array {
  const o = options("cholesky", opts, ["upper"]);
  return lib.laxCholesky({ a, upper: o.upper });
}

/**
 * LU with partial pivoting of each matrix of `x [..., M, N]`: `[lu, pivots, permutation]`,
 * with unit-lower L and U packed in `lu`, int32 `pivots [..., min(M, N)]` (row swapped with
 * row i at step i) and `permutation [..., M]` (row i of P x is row permutation[i] of x).
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * const [lu, pivots, perm] = lax.linalg.lu(a); // pivots = [1, 1], perm = [1, 0]
 * for (const m of [lu, pivots, perm]) m.dispose();
 * ```
 */
export function lu(x: Array): [Array, Array, Array] {
  return lib.laxLu({ a: x });
}

/**
 * QR by Householder reflections: `[q, r]`, complete (`fullMatrices`, JAX's default) or thin.
 *
 * @example
 * ```ts
 * using a = np.array([[3, 0], [4, 5]]);
 * const [q, r] = lax.linalg.qr(a);
 * using back = np.matmul(q, r); // [[3, 0], [4, 5]]
 * q.dispose();
 * r.dispose();
 * ```
 */
export function qr(a: Array, opts?: { fullMatrices?: boolean }): [Array, Array] {
  const o = options("qr", opts, ["fullMatrices"]);
  return lib.laxQr({ a, fullMatrices: o.fullMatrices });
}

/** Options of `triangularSolve`. */
export interface TriangularSolveOptions {
  /** Solve `a·x = b` (true) or `x·a = b` (false, the default, as JAX). */
  leftSide?: boolean;
  /** `a` is lower triangular (default false: upper, as JAX). */
  lower?: boolean;
  /** Use `aᵀ` instead of `a`. */
  transposeA?: boolean;
  /** Assume ones on `a`'s diagonal without reading it. */
  unitDiagonal?: boolean;
}

/**
 * Solves `op(a) x = b` (leftSide) or `x op(a) = b` with triangular `a [..., k, k]` and
 * `b [..., m, n]`; `op(a) = aᵀ` with transposeA. jax-js's defaults: right side, upper.
 *
 * @example
 * ```ts
 * using a = np.array([[2, 0], [1, 1]]);
 * using b = np.array([[2], [3]]);
 * using x = lax.linalg.triangularSolve(a, b, { leftSide: true, lower: true }); // [[1], [2]]
 * ```
 */
export function triangularSolve(a: Array, b: Array, opts?: TriangularSolveOptions): Array {
  const o = options("triangularSolve", opts, ["leftSide", "lower", "transposeA", "unitDiagonal"]);
  const { leftSide, lower, transposeA, unitDiagonal } = o;
  return lib.laxTriangularSolve({ a, b, leftSide, lower, transposeA, unitDiagonal });
}
