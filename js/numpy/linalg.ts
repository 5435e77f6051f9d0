/** The `numpy.linalg` namespace (math in Rust). */
import { Array } from "../array.js";
import { axesOpt, flag, linalgCall, options, ordOpt } from "../linalg-call.js";

export { diagonal, matmul, matrixTranspose, trace } from "./index.js";
export { outer, tensordot, vecdot } from "./products.js";

/** The Cholesky factor of each matrix of `a [..., n, n]`, symmetrized first by default. */
export function cholesky(a: Array, opts?: { upper?: boolean; symmetrizeInput?: boolean }): Array {
  const o = options("cholesky", opts, ["upper", "symmetrizeInput"]);
  const flags = [flag(o.upper, false), flag(o.symmetrizeInput, true)];
  return linalgCall("cholesky", "numpy.cholesky", [a], flags)[0];
}

/** Solves `a x = b` for `a [..., N, N]`, `b [N]` or `[..., N, M]` (LU; batch axes broadcast). */
export function solve(a: Array, b: Array): Array {
  return linalgCall("solve", "numpy.solve", [a, b])[0];
}

/** The inverse of each matrix of `a [..., N, N]` (LU). */
export function inv(a: Array): Array {
  return linalgCall("inv", "numpy.inv", [a])[0];
}

/** The determinant of each matrix of `a [..., N, N]` (LU). */
export function det(a: Array): Array {
  return linalgCall("det", "numpy.det", [a])[0];
}

/** `[sign, log|det|]` of each matrix of `a [..., N, N]` (LU); singular: sign 0, -Infinity. */
export function slogdet(a: Array): [Array, Array] {
  const [sign, logdet] = linalgCall("slogdet", "numpy.slogdet", [a]);
  return [sign, logdet];
}

/** QR by Householder reflections: `[q, r]`, reduced (default) or complete (`mode`). */
export function qr(a: Array, opts?: { mode?: "reduced" | "complete" }): [Array, Array] {
  const o = options("qr", opts, ["mode"]);
  const mode = o.mode ?? "reduced";
  if (mode !== "reduced" && mode !== "complete") {
    throw new TypeError(`qr: mode must be "reduced" or "complete", got ${String(mode)}`);
  }
  const [q, r] = linalgCall("qr", "numpy.qr", [a], [mode === "complete" ? 1 : 0]);
  return [q, r];
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

/** The vector p-norm over `axis` (all axes by default); ord ±Infinity, 0 or any p. */
export function vectorNorm(x: Array, opts?: VectorNormOptions): Array {
  const o = options("vectorNorm", opts, ["ord", "axis", "keepdims"]);
  const [ord] = ordOpt("vectorNorm", o.ord ?? 2);
  const flags = [ord, flag(o.keepdims, false), ...axesOpt("vectorNorm", o.axis)];
  return linalgCall("vectorNorm", "numpy.vectorNorm", [x], flags)[0];
}

/** The matrix norm over the last two axes: "fro" (default), 1, -1, Infinity, -Infinity. */
export function matrixNorm(x: Array, opts?: { ord?: Ord; keepdims?: boolean } | Ord): Array {
  const o =
    typeof opts === "object" && opts !== null
      ? options("matrixNorm", opts, ["ord", "keepdims"])
      : { ord: opts, keepdims: false };
  const [ord, text] = ordOpt("matrixNorm", o.ord);
  return linalgCall("matrixNorm", "numpy.matrixNorm", [x], [ord, flag(o.keepdims, false)], text)[0];
}

/**
 * NumPy's `norm(x, ord, axis, keepdims)`: a vector norm over one axis, a matrix norm over two,
 * the 2-norm of everything without either. Also accepts `norm(x, { ord, axis, keepdims })`.
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
  const [n, text] = ordOpt("norm", o.ord);
  const flags = [n, flag(o.keepdims, false), ...axesOpt("norm", o.axis)];
  return linalgCall("norm", "numpy.norm", [x], flags, text)[0];
}

/** The cross product of 3-vectors along `axis` (default -1). */
export function cross(x1: Array, x2: Array, axis = -1): Array {
  if (!Number.isInteger(axis)) throw new TypeError(`cross: axis must be an integer`);
  return linalgCall("cross", "numpy.cross", [x1, x2], [axis])[0];
}

/** The product of a chain of matrices (the first and last may be vectors). */
export function multiDot(arrays: Array[]): Array {
  if (!globalThis.Array.isArray(arrays)) throw new TypeError(`multiDot: expected a list of Arrays`);
  return linalgCall("multiDot", "numpy.multiDot", arrays)[0];
}

/** `a` to the integer power `n` (repeated squaring). */
export function matrixPower(a: Array, n: number): Array {
  if (typeof n !== "number") throw new TypeError(`matrixPower: n must be an integer`);
  return linalgCall("matrixPower", "numpy.matrixPower", [a], [n])[0];
}

/** Least squares `a [M, N] x ≈ b` (normal equations with a Cholesky factor, as jax-js). */
export function lstsq(a: Array, b: Array): Array {
  return linalgCall("lstsq", "numpy.lstsq", [a, b])[0];
}

/** Options of `eigh` and `eigvalsh`. */
export interface EighOptions {
  /** Which triangle to read when not symmetrizing: "L" (default) or "U". */
  UPLO?: "L" | "U";
  /** Use (a + aᵀ) / 2 (default true, as JAX). */
  symmetrizeInput?: boolean;
}

function eighFlags(fn: string, opts: EighOptions | "L" | "U" | undefined): number[] {
  const o =
    typeof opts === "string" ? { UPLO: opts } : options(fn, opts, ["UPLO", "symmetrizeInput"]);
  const uplo = o.UPLO ?? "L";
  if (uplo !== "L" && uplo !== "U") {
    throw new TypeError(`${fn}: UPLO must be "L" or "U", got ${String(uplo)}`);
  }
  return [uplo === "L" ? 1 : 0, flag(o.symmetrizeInput, true)];
}

/** `[w, v]`: eigenvalues (ascending) and eigenvectors (columns) of symmetric `a [..., n, n]`. */
export function eigh(a: Array, opts?: EighOptions | "L" | "U"): [Array, Array] {
  const [w, v] = linalgCall("eigh", "numpy.eigh", [a], eighFlags("eigh", opts));
  return [w, v];
}

/** The eigenvalues (ascending) of symmetric `a [..., n, n]`. */
export function eigvalsh(a: Array, opts?: EighOptions | "L" | "U"): Array {
  return linalgCall("eigvalsh", "numpy.eigvalsh", [a], eighFlags("eigvalsh", opts))[0];
}

/** Options of `svd`. */
export interface SvdOptions {
  /** Complete u and vh (default true) rather than reduced. */
  fullMatrices?: boolean;
  /** Return `[u, s, vh]` (default true) rather than `s` alone. */
  computeUv?: boolean;
}

/** The singular value decomposition `[u, s, vh]` of `a [..., M, N]` (s descending), or `s`. */
export function svd(a: Array, opts?: SvdOptions & { computeUv?: true }): [Array, Array, Array];
export function svd(a: Array, opts: SvdOptions & { computeUv: false }): Array;
export function svd(a: Array, opts?: SvdOptions): Array | [Array, Array, Array];
export function svd(a: Array, opts?: SvdOptions): Array | [Array, Array, Array] {
  const o = options("svd", opts, ["fullMatrices", "computeUv"]);
  const flags = [flag(o.fullMatrices, true), flag(o.computeUv, true)];
  const out = linalgCall("svd", "numpy.svd", [a], flags);
  return out.length === 1 ? out[0] : [out[0], out[1], out[2]];
}

/** The singular values (descending) of `a [..., M, N]`. */
export function svdvals(a: Array): Array {
  return linalgCall("svdvals", "numpy.svdvals", [a])[0];
}
