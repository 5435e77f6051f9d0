/** The `scipyLinalg` namespace: SciPy's conventions (upper Cholesky factor by default). */
import { Array } from "./array.js";
import * as lib from "./lib-calls.js";
import { options } from "./linalg-options.js";

/**
 * Solves `op(a) x = b` for triangular `a`; `b` is `[k]` or `[..., k, n]`; trans 0, 1 or 2 (= 1).
 *
 * @example
 * ```ts
 * using a = np.array([[2, 0], [1, 1]]);
 * using b = np.array([2, 3]);
 * using x = scipyLinalg.solveTriangular(a, b, { lower: true }); // [1, 2]
 * ```
 */
export function solveTriangular(
  a: Array,
  b: Array,
  opts?: { lower?: boolean; trans?: 0 | 1 | 2 | "N" | "T" | "C"; unitDiagonal?: boolean },
): Array {
  const o = options("solveTriangular", opts, ["lower", "trans", "unitDiagonal"]);
  const t = o.trans ?? 0;
  const trans = { 0: 0, 1: 1, 2: 1, N: 0, T: 1, C: 1 }[t];
  if (trans === undefined) {
    throw new TypeError(
      `solveTriangular: trans must be 0, 1, 2, "N", "T" or "C", got ${String(t)}`,
    );
  }
  const lower = o.lower;
  return lib.scipySolveTriangular({
    a,
    b,
    lower,
    trans: trans === 1,
    unitDiagonal: o.unitDiagonal,
  });
}

/**
 * The Cholesky factor: upper (a = Uᵀ U, from the upper triangle) unless `lower`.
 *
 * @example
 * ```ts
 * using a = np.array([[4, 2], [2, 5]]);
 * using u = scipyLinalg.cholesky(a); // [[2, 1], [0, 2]] (upper by default)
 * ```
 */
export function cholesky(a: Array, opts?: { lower?: boolean }): Array {
  const o = options("cholesky", opts, ["lower"]);
  return lib.scipyCholesky({ a, lower: o.lower });
}
