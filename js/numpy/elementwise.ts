/**
 * numpy's elementwise functions and comparisons, with jax-js's names. Each is one call into
 * Rust (a primitive or a composition there); JS numbers are weakly typed operands.
 */
import { Array, type ArrayLike } from "../array.js";
import { applyOp } from "../ops.js";

type Unary = (x: ArrayLike) => Array;
type Binary = (x: ArrayLike, y: ArrayLike) => Array;

const unary =
  (name: string, op: string): Unary =>
  (x) =>
    applyOp(name, op, [x]);
const binary =
  (name: string, op: string): Binary =>
  (x, y) =>
    applyOp(name, op, [x, y]);

export const add = binary("add", "add");
export const subtract = binary("subtract", "subtract");
export const multiply = binary("multiply", "mul");
/** True division: two integer inputs are converted to float32 first. */
export const divide = binary("divide", "divide");
export const trueDivide = divide;
export const floorDivide = binary("floorDivide", "floor_divide");
/** Remainder with the sign of the divisor (Python's `%`). */
export const remainder = binary("remainder", "remainder");
/** Remainder with the sign of the dividend (C's `fmod`). */
export const fmod = binary("fmod", "rem");
export const minimum = binary("minimum", "min");
export const maximum = binary("maximum", "max");
export const atan2 = binary("atan2", "atan2");
export const arctan2 = atan2;
export const hypot = binary("hypot", "hypot");

export const negative = unary("negative", "neg");
export const reciprocal = unary("reciprocal", "reciprocal");
export const square = unary("square", "square");
export const sqrt = unary("sqrt", "sqrt");
export const exp = unary("exp", "exp");
export const exp2 = unary("exp2", "exp2");
export const expm1 = unary("expm1", "expm1");
export const log = unary("log", "log");
export const log2 = unary("log2", "log2");
export const log10 = unary("log10", "log10");
export const log1p = unary("log1p", "log1p");
export const abs = unary("abs", "abs");
export const absolute = abs;
/** −1, 0 or 1 (NaN stays NaN). */
export const sign = unary("sign", "sign");
export const floor = unary("floor", "floor");
export const ceil = unary("ceil", "ceil");
export const trunc = unary("trunc", "trunc");
export const sin = unary("sin", "sin");
export const cos = unary("cos", "cos");
export const tan = unary("tan", "tan");
export const arcsin = unary("arcsin", "asin");
export const asin = arcsin;
export const arccos = unary("arccos", "acos");
export const acos = arccos;
export const arctan = unary("arctan", "atan");
export const atan = arctan;
export const sinh = unary("sinh", "sinh");
export const cosh = unary("cosh", "cosh");
export const tanh = unary("tanh", "tanh");
export const arcsinh = unary("arcsinh", "asinh");
export const asinh = arcsinh;
export const arccosh = unary("arccosh", "acosh");
export const acosh = arccosh;
export const arctanh = unary("arctanh", "atanh");
export const atanh = arctanh;
export const deg2rad = unary("deg2rad", "deg2rad");
export const radians = deg2rad;
export const rad2deg = unary("rad2deg", "rad2deg");
export const degrees = rad2deg;

export const equal = binary("equal", "eq");
export const notEqual = binary("notEqual", "ne");
export const less = binary("less", "lt");
export const lessEqual = binary("lessEqual", "le");
export const greater = binary("greater", "greater");
export const greaterEqual = binary("greaterEqual", "greater_equal");
export const isnan = unary("isnan", "isnan");
export const isinf = unary("isinf", "isinf");
export const isfinite = unary("isfinite", "isfinite");
export const logicalNot = unary("logicalNot", "logical_not");
export const logicalAnd = binary("logicalAnd", "logical_and");
export const logicalOr = binary("logicalOr", "logical_or");
export const logicalXor = binary("logicalXor", "logical_xor");

/** `cond ? x : y`, elementwise with broadcasting. */
export function where(cond: ArrayLike, x: ArrayLike, y: ArrayLike): Array {
  return applyOp("where", "where", [cond, x, y]);
}

/** The input itself (jax-js returns the same object). */
export function positive(x: Array): Array {
  return x;
}

/** Limits values to [min, max]; either bound may be omitted (then the input is returned). */
export function clip(a: Array, min?: ArrayLike | null, max?: ArrayLike | null): Array {
  if (min == null && max == null) return a;
  if (min == null) return applyOp("clip", "min", [a, max!]);
  if (max == null) return applyOp("clip", "max", [a, min]);
  const low = applyOp("clip", "max", [a, min]);
  try {
    return applyOp("clip", "min", [low, max]);
  } finally {
    low.dispose();
  }
}

/** Matrix product with NumPy's broadcasting of batch axes; 1-D operands act as vectors. */
export const matmul = binary("matmul", "matmul");
/** `dot` for operands of rank ≤ 2 (scalars multiply). */
export const dot = binary("dot", "dot");

/** `x ** y`; small integer exponents multiply exactly. */
export const power = binary("power", "power");
export const pow = power;
