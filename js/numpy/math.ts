/**
 * More elementwise numpy functions (roots, rounding, signs, log-add-exp, NaN-aware extrema,
 * bitwise operations, powers of two) and the multi-output ones (divmod, frexp, modf). Each is
 * one call into Rust, where the math is.
 */
import { Array, type ArrayLike } from "../array.js";
import { applyOp } from "../ops.js";
import { libCall } from "../lib.js";

const unary =
  (name: string, op: string) =>
  (x: ArrayLike): Array =>
    applyOp(name, op, [x]);
const binary =
  (name: string, op: string) =>
  (x: ArrayLike, y: ArrayLike): Array =>
    applyOp(name, op, [x, y]);

/** Real cube root. */
export const cbrt = unary("cbrt", "cbrt");
/** Normalised sinc, `sin(πx)/(πx)`. */
export const sinc = unary("sinc", "sinc");
/** 0 below zero, `x2` at zero, 1 above. */
export const heaviside = binary("heaviside", "heaviside");
export const copysign = binary("copysign", "copysign");
/** True where the sign bit is set (including −0). */
export const signbit = unary("signbit", "signbit");
export const isposinf = unary("isposinf", "isposinf");
export const isneginf = unary("isneginf", "isneginf");
/** `log(exp(x1) + exp(x2))`, stable. */
export const logaddexp = binary("logaddexp", "logaddexp");
/** `log2(2^x1 + 2^x2)`, stable. */
export const logaddexp2 = binary("logaddexp2", "logaddexp2");
/** Elementwise maximum ignoring NaN. */
export const fmax = binary("fmax", "fmax");
/** Elementwise minimum ignoring NaN. */
export const fmin = binary("fmin", "fmin");
/** Round half to even. */
export const rint = unary("rint", "rint");
/** `x1 · 2^x2` (x2 integer). */
export const ldexp = binary("ldexp", "ldexp");
/** Power in floating point (integer inputs become float32). */
export const floatPower = binary("floatPower", "float_power");
export const bitwiseAnd = binary("bitwiseAnd", "bitwise_and");
export const bitwiseOr = binary("bitwiseOr", "bitwise_or");
export const bitwiseXor = binary("bitwiseXor", "bitwise_xor");
export const bitwiseLeftShift = binary("bitwiseLeftShift", "left_shift");
export const leftShift = bitwiseLeftShift;
export const bitwiseRightShift = binary("bitwiseRightShift", "right_shift");
export const rightShift = bitwiseRightShift;
export const bitwiseNot = unary("bitwiseNot", "bitwise_not");
export const bitwiseInvert = bitwiseNot;
export const invert = bitwiseNot;
/** The number of set bits (of the two's complement for int32). */
export const bitwiseCount = unary("bitwiseCount", "bitwise_count");

/** Rounds to `decimals` places (half to even), as NumPy. */
export function round(a: ArrayLike, decimals = 0): Array {
  if (!Number.isInteger(decimals)) throw new TypeError("round: decimals must be an integer");
  return applyOp("round", "round", [a, decimals]);
}
export const around = round;

export interface NanToNumOptions {
  nan?: number;
  posinf?: number | null;
  neginf?: number | null;
}

/** Replaces NaN (default 0) and infinities (default: the dtype's largest finite values). */
export function nanToNum(x: ArrayLike, opts: NanToNumOptions = {}): Array {
  const { nan = 0, posinf = null, neginf = null } = opts;
  return applyOp("nanToNum", "nan_to_num", [x, nan, posinf ?? NaN, neginf ?? NaN]);
}

/** `[floorDivide(x, y), remainder(x, y)]`. */
export function divmod(x: ArrayLike, y: ArrayLike): [Array, Array] {
  const q = applyOp("divmod", "floor_divide", [x, y]);
  try {
    return [q, applyOp("divmod", "remainder", [x, y])];
  } catch (e) {
    q.dispose();
    throw e;
  }
}

/** `[mantissa, exponent]` with `x = mantissa · 2^exponent`, |mantissa| in [0.5, 1). */
export function frexp(x: Array): [Array, Array] {
  const [m, e] = libCall("frexp", [x]);
  return [m, e];
}

/** `[fractional part, integral part]`, both with the sign of `x`. */
export function modf(x: Array): [Array, Array] {
  const [f, i] = libCall("modf", [x]);
  return [f, i];
}
