/** The `numpy.linalg` namespace (math in Rust). */
import { Array } from "../array.js";
import * as lib from "../lib-calls.js";
import { normOrd, options } from "../linalg-options.js";

export { diagonal, matmul, matrixTranspose, trace } from "./index.js";
export { outer, tensordot, vecdot } from "./products.js";

/**
 * The Cholesky factor of each matrix of `a [..., n, n]`, symmetrized first by default.
 *
 * @example
 * ```ts
 * using a = np.array([[4, 2], [2, 5]]);
 * using l = np.linalg.cholesky(a); // [[2, 0], [1, 2]]
 * ```
 */
export function cholesky(a: Array, opts?: { upper?: boolean; symmetrizeInput?: boolean }): Array {
  const o = options("cholesky", opts, ["upper", "symmetrizeInput"]);
  return lib.linalgCholesky({ a, upper: o.upper, symmetrizeInput: o.symmetrizeInput });
}

/**
 * Solves `a x = b` for `a [..., N, N]`, `b [N]` or `[..., N, M]` (LU; batch axes broadcast).
 *
 * @example
 * ```ts
 * using a = np.array([[2, 0], [0, 4]]);
 * using b = np.array([2, 8]);
 * using x = np.linalg.solve(a, b); // [1, 2]
 * ```
 */
export function solve(a: Array, b: Array): Array {
  return lib.linalgSolve({ a, b });
}

/**
 * The inverse of each matrix of `a [..., N, N]` (LU).
 *
 * @example
 * ```ts
 * using a = np.array([[2, 0], [0, 4]]);
 * using i = np.linalg.inv(a); // [[0.5, 0], [0, 0.25]]
 * ```
 */
export function inv(a: Array): Array {
  return lib.linalgInv({ a });
}

/**
 * The determinant of each matrix of `a [..., N, N]` (LU).
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * using d = np.linalg.det(a); // -2
 * ```
 */
export function det(a: Array): Array {
  return lib.linalgDet({ a });
}

/**
 * `[sign, log|det|]` of each matrix of `a [..., N, N]` (LU); singular: sign 0, -Infinity.
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * const [sign, logabs] = np.linalg.slogdet(a); // sign = -1, logabs = 0.6931472
 * sign.dispose();
 * logabs.dispose();
 * ```
 */
export function slogdet(a: Array): [Array, Array] {
  return lib.linalgSlogdet({ a });
}

/**
 * QR by Householder reflections: `[q, r]`, reduced (default) or complete (`mode`).
 *
 * @example
 * ```ts
 * using a = np.array([[3, 0], [4, 5]]);
 * const [q, r] = np.linalg.qr(a);
 * using qr = np.matmul(q, r); // [[3, 0], [4, 5]]
 * q.dispose();
 * r.dispose();
 * ```
 */
export function qr(a: Array, opts?: { mode?: "reduced" | "complete" }): [Array, Array] {
  const o = options("qr", opts, ["mode"]);
  const mode = o.mode ?? "reduced";
  if (mode !== "reduced" && mode !== "complete") {
    throw new TypeError(`qr: mode must be "reduced" or "complete", got ${String(mode)}`);
  }
  return lib.linalgQr({ a, fullMatrices: mode === "complete" });
}

type Ord = number | "fro" | "nuc" | null;

/** Options of `vectorNorm`. */
export interface VectorNormOptions {
  /**
   * The order p (default 2): any p, `Infinity` (max |x|), `-Infinity` (min |x|), 0 (the count of
   * non-zero elements).
   */
  ord?: number;
  /** The axes to reduce (all by default). */
  axis?: number | number[] | null;
  /** Keep the reduced axes as size 1. */
  keepdims?: boolean;
}

/**
 * The vector p-norm over `axis` (all axes by default); ord ±Infinity, 0 or any p.
 *
 * @example
 * ```ts
 * using x = np.array([3, 4]);
 * using n = np.linalg.vectorNorm(x); // 5
 * ```
 */
export function vectorNorm(x: Array, opts?: VectorNormOptions): Array {
  const o = options("vectorNorm", opts, ["ord", "axis", "keepdims"]);
  const { ord, ordName } = normOrd("vectorNorm", o.ord ?? 2);
  if (ordName !== undefined) {
    throw new TypeError(`vectorNorm: ord must be a number, got "${ordName}"`);
  }
  return lib.linalgVectorNorm({ x, ord, axis: o.axis, keepdims: o.keepdims });
}

/**
 * The matrix norm over the last two axes: "fro" (default), 1, -1, Infinity, -Infinity.
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * using n = np.linalg.matrixNorm(a); // 5.4772258 (Frobenius)
 * ```
 */
export function matrixNorm(x: Array, opts?: { ord?: Ord; keepdims?: boolean } | Ord): Array {
  const o =
    typeof opts === "object" && opts !== null
      ? options("matrixNorm", opts, ["ord", "keepdims"])
      : { ord: opts, keepdims: false };
  return lib.linalgMatrixNorm({ x, ...normOrd("matrixNorm", o.ord), keepdims: o.keepdims });
}

/**
 * NumPy's `norm(x, ord, axis, keepdims)`: a vector norm over one axis, a matrix norm over two,
 * the 2-norm of everything without either. Also accepts `norm(x, { ord, axis, keepdims })`.
 *
 * @example
 * ```ts
 * using x = np.array([3, 4]);
 * using n2 = np.linalg.norm(x); // 5
 * using n1 = np.linalg.norm(x, 1); // 7
 * ```
 */
export function norm(
  x: Array,
  ord: Ord | { ord?: Ord; axis?: number | number[] | null; keepdims?: boolean } = null,
  axis: number | number[] | null = null,
  keepdims = false,
): Array {
  const o =
    typeof ord === "object" && ord !== null
      ? options("norm", ord, ["ord", "axis", "keepdims"])
      : { ord, axis, keepdims };
  return lib.linalgNorm({ x, ...normOrd("norm", o.ord), axis: o.axis, keepdims: o.keepdims });
}

/**
 * The cross product of 3-vectors along `axis` (default -1).
 *
 * @example
 * ```ts
 * using a = np.array([0, 0, 1]);
 * using b = np.array([1, 0, 0]);
 * using c = np.linalg.cross(a, b); // [0, 1, 0]
 * ```
 */
export function cross(x1: Array, x2: Array, axis = -1): Array {
  if (!Number.isInteger(axis)) throw new TypeError(`cross: axis must be an integer`);
  return lib.linalgCross({ a: x1, b: x2, axis });
}

/**
 * The product of a chain of matrices (the first and last may be vectors).
 *
 * @example
 * ```ts
 * using a = np.eye(2);
 * using b = np.array([[1, 2], [3, 4]]);
 * using v = np.array([1, 1]);
 * using p = np.linalg.multiDot([a, b, v]); // [3, 7]
 * ```
 */
export function multiDot(arrays: Array[]): Array {
  if (!globalThis.Array.isArray(arrays)) throw new TypeError(`multiDot: expected a list of Arrays`);
  return lib.linalgMultiDot({ arrays });
}

/**
 * `a` to the integer power `n` (repeated squaring).
 *
 * @example
 * ```ts
 * using a = np.array([[1, 1], [0, 1]]);
 * using p = np.linalg.matrixPower(a, 3); // [[1, 3], [0, 1]]
 * ```
 */
export function matrixPower(a: Array, n: number): Array {
  if (typeof n !== "number") throw new TypeError(`matrixPower: n must be an integer`);
  return lib.linalgMatrixPower({ a, n });
}

/**
 * Least squares `a [M, N] x ≈ b` (normal equations with a Cholesky factor, as jax-js).
 *
 * @example
 * ```ts
 * using a = np.array([[1, 0], [0, 1], [1, 1]]);
 * using b = np.array([1, 2, 3]);
 * using x = np.linalg.lstsq(a, b); // [1, 2]
 * ```
 */
export function lstsq(a: Array, b: Array): Array {
  return lib.linalgLstsq({ a, b });
}

/** Options of `eigh` and `eigvalsh`. */
export interface EighOptions {
  /** Which triangle to read when not symmetrizing: "L" (default) or "U". */
  UPLO?: "L" | "U";
  /** Use (a + aᵀ) / 2 (default true, as JAX). */
  symmetrizeInput?: boolean;
}

function eighArgs(fn: string, a: Array, opts: EighOptions | "L" | "U" | undefined): lib.EighArgs {
  const o =
    typeof opts === "string" ? { UPLO: opts } : options(fn, opts, ["UPLO", "symmetrizeInput"]);
  const uplo = o.UPLO ?? "L";
  if (uplo !== "L" && uplo !== "U") {
    throw new TypeError(`${fn}: UPLO must be "L" or "U", got ${String(uplo)}`);
  }
  return { a, lower: uplo === "L", symmetrizeInput: o.symmetrizeInput };
}

/**
 * `[w, v]`: eigenvalues (ascending) and eigenvectors (columns) of symmetric `a [..., n, n]`.
 *
 * @example
 * ```ts
 * using a = np.array([[2, 1], [1, 2]]);
 * const [w, v] = np.linalg.eigh(a); // w = [1, 3]
 * w.dispose();
 * v.dispose();
 * ```
 */
export function eigh(a: Array, opts?: EighOptions | "L" | "U"): [Array, Array] {
  return lib.linalgEigh(eighArgs("eigh", a, opts));
}

/**
 * The eigenvalues (ascending) of symmetric `a [..., n, n]`.
 *
 * @example
 * ```ts
 * using a = np.array([[2, 1], [1, 2]]);
 * using w = np.linalg.eigvalsh(a); // [1, 3]
 * ```
 */
export function eigvalsh(a: Array, opts?: EighOptions | "L" | "U"): Array {
  return lib.linalgEigvalsh(eighArgs("eigvalsh", a, opts));
}

/** Options of `svd`. */
export interface SvdOptions {
  /** Complete u and vh (default true) rather than reduced. */
  fullMatrices?: boolean;
  /** Return `[u, s, vh]` (default true) rather than `s` alone. */
  computeUv?: boolean;
}

/**
 * The singular value decomposition `[u, s, vh]` of `a [..., M, N]` (s descending), or `s`.
 *
 * @example
 * ```ts
 * using a = np.array([[3, 0], [0, -2]]);
 * const [u, s, vh] = np.linalg.svd(a); // s = [3, 2]
 * for (const m of [u, s, vh]) m.dispose();
 * ```
 */
export function svd(a: Array, opts?: SvdOptions & { computeUv?: true }): [Array, Array, Array];
export function svd(a: Array, opts: SvdOptions & { computeUv: false }): Array;
export function svd(a: Array, opts?: SvdOptions): Array | [Array, Array, Array];
export function svd(a: Array, opts?: SvdOptions): Array | [Array, Array, Array] {
  const o = options("svd", opts, ["fullMatrices", "computeUv"]);
  const out = lib.linalgSvd({ a, fullMatrices: o.fullMatrices, computeUv: o.computeUv });
  return out.length === 1 ? out[0] : [out[0], out[1], out[2]];
}

/**
 * The singular values (descending) of `a [..., M, N]`.
 *
 * @example
 * ```ts
 * using a = np.array([[3, 0], [0, -2]]);
 * using s = np.linalg.svdvals(a); // [3, 2]
 * ```
 */
export function svdvals(a: Array): Array {
  return lib.linalgSvdvals({ a });
}
