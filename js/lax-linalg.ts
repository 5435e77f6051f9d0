/** The `lax.linalg` namespace: cholesky, triangularSolve (math in Rust). */
import { Array } from "./array.js";
import { flag, linalgCall, options } from "./linalg-call.js";
import { notYet } from "./unsupported.js";

// oxjax has no eigenvalue or singular value routine.
export const eigh = notYet("eigh");
export const svd = notYet("svd");

/** The Cholesky factor of each matrix of `a [..., n, n]`: lower (a = L Lᵀ), or upper (Lᵀ). */
export function cholesky(a: Array, opts?: { upper?: boolean }): Array {
  const o = options("cholesky", opts, ["upper"]);
  return linalgCall("cholesky", "lax.cholesky", [a], [flag(o.upper, false)])[0];
}

export interface TriangularSolveOptions {
  leftSide?: boolean;
  lower?: boolean;
  transposeA?: boolean;
  unitDiagonal?: boolean;
}

/**
 * Solves `op(a) x = b` (leftSide) or `x op(a) = b` with triangular `a [..., k, k]` and
 * `b [..., m, n]`; `op(a) = aᵀ` with transposeA. jax-js's defaults: right side, upper.
 */
export function triangularSolve(a: Array, b: Array, opts?: TriangularSolveOptions): Array {
  const o = options("triangularSolve", opts, ["leftSide", "lower", "transposeA", "unitDiagonal"]);
  const flags = [
    flag(o.leftSide, false),
    flag(o.lower, false),
    flag(o.transposeA, false),
    flag(o.unitDiagonal, false),
  ];
  return linalgCall("triangularSolve", "lax.triangularSolve", [a, b], flags)[0];
}
