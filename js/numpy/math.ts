/**
 * More elementwise numpy functions (roots, rounding, signs, log-add-exp, NaN-aware extrema,
 * bitwise operations, powers of two) and the multi-output ones (divmod, frexp, modf). Each is
 * one call into Rust, where the math is.
 */
import { Array, type ArrayLike } from "../array.js";
import { applyOp, binaryOp, unaryOp } from "../ops.js";
import * as lib from "../lib-calls.js";

const unary = unaryOp;
const binary = binaryOp;

/**
 * The real cube root, element-wise (negative for negative inputs). Integer inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([-8, 27]);
 * using y = np.cbrt(x); // [-2, 3]
 * ```
 */
export const cbrt = unary("cbrt", "cbrt");
/**
 * The normalised sinc `sin(πx)/(πx)`, 1 at 0. Integer inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 0.5]);
 * using y = np.sinc(x); // [1, 0.63661975]
 * ```
 */
export const sinc = unary("sinc", "sinc");
/**
 * The Heaviside step of `x1`: 0 below zero, `x2` at zero, 1 above, with broadcasting. dtype: the
 * promoted dtype.
 *
 * @example
 * ```ts
 * using x = np.array([-1, 0, 2]);
 * using y = np.heaviside(x, 0.5); // [0, 0.5, 1]
 * ```
 */
export const heaviside = binary("heaviside", "heaviside");
/**
 * The magnitude of `x1` with the sign of `x2`, element-wise with broadcasting. dtype: the promoted
 * floating dtype.
 *
 * @example
 * ```ts
 * using x = np.array([1, -2]);
 * using y = np.array([-1, 1]);
 * using z = np.copysign(x, y); // [-1, 2]
 * ```
 */
export const copysign = binary("copysign", "copysign");
/**
 * Whether the sign bit of each element is set (true for −0 and negative values), as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([-0, 1, -2]);
 * using s = np.signbit(x); // [true, false, true]
 * ```
 */
export const signbit = unary("signbit", "signbit");
/**
 * Whether each element is +Infinity, as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([Infinity, -Infinity, 1]);
 * using y = np.isposinf(x); // [true, false, false]
 * ```
 */
export const isposinf = unary("isposinf", "isposinf");
/**
 * Whether each element is −Infinity, as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([Infinity, -Infinity, 1]);
 * using y = np.isneginf(x); // [false, true, false]
 * ```
 */
export const isneginf = unary("isneginf", "isneginf");
/**
 * `log(exp(x1) + exp(x2))`, computed without overflow, with broadcasting. Integer inputs give
 * float32.
 *
 * @example
 * ```ts
 * using x = np.array([0]);
 * using y = np.array([0]);
 * using z = np.logaddexp(x, y); // [0.6931472] (log 2)
 * ```
 */
export const logaddexp = binary("logaddexp", "logaddexp");
/**
 * `log2(2^x1 + 2^x2)`, computed without overflow, with broadcasting. Integer inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([1]);
 * using y = np.logaddexp2(x, x); // [2]
 * ```
 */
export const logaddexp2 = binary("logaddexp2", "logaddexp2");
/**
 * The element-wise maximum ignoring NaN (NaN only where both are NaN), with broadcasting.
 *
 * @example
 * ```ts
 * using x = np.array([NaN, 1]);
 * using y = np.array([2, NaN]);
 * using z = np.fmax(x, y); // [2, 1]
 * ```
 */
export const fmax = binary("fmax", "fmax");
/**
 * The element-wise minimum ignoring NaN (NaN only where both are NaN), with broadcasting.
 *
 * @example
 * ```ts
 * using x = np.array([NaN, 1]);
 * using z = np.array([2, NaN]);
 * using y = np.fmin(x, z); // [2, 1]
 * ```
 */
export const fmin = binary("fmin", "fmin");
/**
 * Rounds to the nearest integer value, halves to even. The dtype is kept.
 *
 * @example
 * ```ts
 * using x = np.array([0.5, 1.5, 2.5]);
 * using y = np.rint(x); // [0, 2, 2]
 * ```
 */
export const rint = unary("rint", "rint");
/**
 * `x1 · 2^x2` for an integer `x2`, element-wise with broadcasting. The result has `x1`'s floating
 * dtype.
 *
 * @example
 * ```ts
 * using x = np.array([1, 3]);
 * using y = np.array([2, 1], { dtype: np.int32 });
 * using z = np.ldexp(x, y); // [4, 6]
 * ```
 */
export const ldexp = binary("ldexp", "ldexp");
/**
 * `x1 ** x2` computed in floating point: integer and bool inputs become float32 first.
 *
 * @example
 * ```ts
 * using x = np.array([2], { dtype: np.int32 });
 * using y = np.floatPower(x, 3); // [8], float32
 * ```
 */
export const floatPower = binary("floatPower", "float_power");
/**
 * The bitwise AND of integer or bool arrays, with broadcasting (float inputs are an error).
 *
 * @example
 * ```ts
 * using x = np.array([12], { dtype: np.int32 });
 * using y = np.bitwiseAnd(x, 10); // [8]
 * ```
 */
export const bitwiseAnd = binary("bitwiseAnd", "bitwise_and");
/**
 * The bitwise OR of integer or bool arrays, with broadcasting (float inputs are an error).
 *
 * @example
 * ```ts
 * using x = np.array([12], { dtype: np.int32 });
 * using y = np.bitwiseOr(x, 3); // [15]
 * ```
 */
export const bitwiseOr = binary("bitwiseOr", "bitwise_or");
/**
 * The bitwise XOR of integer or bool arrays, with broadcasting (float inputs are an error).
 *
 * @example
 * ```ts
 * using x = np.array([12], { dtype: np.int32 });
 * using y = np.bitwiseXor(x, 10); // [6]
 * ```
 */
export const bitwiseXor = binary("bitwiseXor", "bitwise_xor");
/**
 * `x1 << x2` for integer arrays, with broadcasting. Shifts by 32 or more (or negative) give 0, as
 * NumPy does.
 *
 * @example
 * ```ts
 * using x = np.array([1], { dtype: np.int32 });
 * using y = np.bitwiseLeftShift(x, 3); // [8]
 * ```
 */
export const bitwiseLeftShift = binary("bitwiseLeftShift", "left_shift");
/**
 * Alias of `bitwiseLeftShift`.
 */
export const leftShift = bitwiseLeftShift;
/**
 * `x1 >> x2` for integer arrays, with broadcasting: arithmetic (sign-filling) for int32, logical
 * for uint32.
 *
 * @example
 * ```ts
 * using x = np.array([-8], { dtype: np.int32 });
 * using y = np.bitwiseRightShift(x, 1); // [-4]
 * ```
 */
export const bitwiseRightShift = binary("bitwiseRightShift", "right_shift");
/**
 * Alias of `bitwiseRightShift`.
 */
export const rightShift = bitwiseRightShift;
/**
 * The bitwise NOT of an integer array (`~x`), or the logical NOT of a bool array. Float inputs are
 * an error.
 *
 * @example
 * ```ts
 * using x = np.array([0, 5], { dtype: np.int32 });
 * using y = np.bitwiseNot(x); // [-1, -6]
 * ```
 */
export const bitwiseNot = unary("bitwiseNot", "bitwise_not");
/**
 * Alias of `bitwiseNot`.
 */
export const bitwiseInvert = bitwiseNot;
/**
 * Alias of `bitwiseNot`.
 */
export const invert = bitwiseNot;
/**
 * The number of set bits of each element (of the two's complement for int32), as int32.
 *
 * @example
 * ```ts
 * using x = np.array([7, -1], { dtype: np.int32 });
 * using y = np.bitwiseCount(x); // [3, 32]
 * ```
 */
export const bitwiseCount = unary("bitwiseCount", "bitwise_count");

/**
 * Rounds to `decimals` decimal places (default 0), halves to even, as NumPy. The dtype is kept;
 * `decimals` must be an integer (negative rounds to tens, hundreds…).
 *
 * @example
 * ```ts
 * using x = np.array([0.5, 1.5, 2.5]);
 * using y = np.round(x); // [0, 2, 2]
 * ```
 */
export function round(a: ArrayLike, decimals = 0): Array {
  if (!Number.isInteger(decimals)) throw new TypeError("round: decimals must be an integer");
  return applyOp("round", "round", [a, decimals]);
}
/**
 * Alias of `round`.
 */
export const around = round;

/**
 * Options of `nanToNum`: the replacement for NaN (default 0), +Infinity and −Infinity (default:
 * the dtype's largest and smallest finite values).
 */
export interface NanToNumOptions {
  /** The value for NaN (default 0). */
  nan?: number;
  /** The value for +Infinity (default: the dtype's largest finite value). */
  posinf?: number | null;
  /** The value for −Infinity (default: the dtype's most negative finite value). */
  neginf?: number | null;
}

/**
 * Replaces NaN with `nan` (default 0), +Infinity with `posinf` and −Infinity with `neginf`
 * (default: the dtype's largest / smallest finite values). The dtype is kept.
 *
 * @example
 * ```ts
 * using x = np.array([NaN, Infinity]);
 * using y = np.nanToNum(x); // [0, 3.4028235e38]
 * ```
 */
export function nanToNum(x: ArrayLike, opts: NanToNumOptions = {}): Array {
  const { nan = 0, posinf = null, neginf = null } = opts;
  return applyOp("nanToNum", "nan_to_num", [x, nan, posinf ?? NaN, neginf ?? NaN]);
}

/**
 * `[floorDivide(x, y), remainder(x, y)]`: two new arrays, both owned by the caller.
 *
 * @example
 * ```ts
 * using x = np.array([7, -7]);
 * const [q, r] = np.divmod(x, 2); // q = [3, -4], r = [1, 1]
 * q.dispose();
 * r.dispose();
 * ```
 */
export function divmod(x: ArrayLike, y: ArrayLike): [Array, Array] {
  const q = applyOp("divmod", "floor_divide", [x, y]);
  try {
    return [q, applyOp("divmod", "remainder", [x, y])];
  } catch (e) {
    q.dispose();
    throw e;
  }
}

/**
 * `[mantissa, exponent]` with `x = mantissa · 2^exponent` and `|mantissa|` in `[0.5, 1)` (0 for
 * 0): the mantissa has `x`'s dtype, the exponent is int32. Both are owned by the caller.
 *
 * @example
 * ```ts
 * using x = np.array([8, 0.5]);
 * const [m, e] = np.frexp(x); // m = [0.5, 0.5], e = [4, 0]
 * m.dispose();
 * e.dispose();
 * ```
 */
export function frexp(x: Array): [Array, Array] {
  return lib.frexp({ x });
}

/**
 * `[fractional part, integral part]` of each element, both with the sign of `x` and `x`'s dtype;
 * both owned by the caller.
 *
 * @example
 * ```ts
 * using x = np.array([1.5, -2.25]);
 * const [f, i] = np.modf(x); // f = [0.5, -0.25], i = [1, -2]
 * f.dispose();
 * i.dispose();
 * ```
 */
export function modf(x: Array): [Array, Array] {
  return lib.modf({ x });
}
