/**
 * numpy's whole-array comparisons and membership: allclose, arrayEqual, arrayEquiv and isin.
 * Argument parsing only; the math is in Rust.
 */
import { Array } from "../array.js";
import type { ArrayInput } from "../lib.js";
import * as lib from "../lib-calls.js";

const sameShape = (a: Array, b: Array): boolean =>
  a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);

/**
 * Whether every element is close (`|a − b| ≤ atol + rtol·|b|`, NaNs at the same places).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.array([1, 2.0000001]);
 * np.allclose(x, y); // true
 * ```
 */
export function allclose(
  actual: Array,
  expected: Array,
  opts: { rtol?: number; atol?: number } = {},
): boolean {
  if (!(actual instanceof Array) || !(expected instanceof Array)) {
    throw new TypeError("allclose: expected two Arrays");
  }
  if (!sameShape(actual, expected)) return false;
  const r = lib.allclose({ a: actual, b: expected, rtol: opts.rtol, atol: opts.atol });
  try {
    return r.item() !== 0;
  } finally {
    r.dispose();
  }
}

function falseScalar(): Array {
  return lib.arrayEqual({ a: [1], b: [2] });
}

/**
 * A bool scalar: same shape and equal elements (NaNs equal with `equalNan`).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.array([1, 2]);
 * using eq = np.arrayEqual(x, y); // true
 * ```
 */
export function arrayEqual(a1: Array, a2: Array, opts: { equalNan?: boolean } = {}): Array {
  if (!sameShape(a1, a2)) return falseScalar();
  return lib.arrayEqual({ a: a1, b: a2, equalNan: !!opts.equalNan });
}

/**
 * A bool scalar: broadcastable and equal elements.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.array([[1, 2], [1, 2]]);
 * using eq = np.arrayEquiv(x, y); // true
 * ```
 */
export function arrayEquiv(a1: Array, a2: Array): Array {
  const [s1, s2] = [a1.shape, a2.shape];
  const rank = Math.max(s1.length, s2.length);
  for (let k = 1; k <= rank; k++) {
    const [d1, d2] = [s1[s1.length - k] ?? 1, s2[s2.length - k] ?? 1];
    if (d1 !== d2 && d1 !== 1 && d2 !== 1) return falseScalar();
  }
  return lib.arrayEquiv({ a: a1, b: a2 });
}

/**
 * Whether each element occurs in `testElements`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using m = np.isin(x, [2, 3]); // [false, true, true]
 * ```
 */
export function isin(
  element: ArrayInput,
  testElements: ArrayInput,
  opts: { invert?: boolean } = {},
): Array {
  return lib.isin({ element, testElements, invert: !!opts.invert });
}
