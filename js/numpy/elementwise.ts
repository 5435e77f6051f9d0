/**
 * numpy's elementwise functions and comparisons, with jax-js's names. Each is one call into
 * Rust (a primitive or a composition there); JS numbers are weakly typed operands.
 */
import { Array, type ArrayLike } from "../array.js";
import { applyOp, binaryOp, shareOp, unaryOp } from "../ops.js";

const unary = unaryOp;
const binary = binaryOp;

/**
 * `x + y`, element-wise with broadcasting. dtype: the promoted dtype of `x` and `y` (a JS number
 * takes the other operand's dtype); two bool operands give their logical or (as JAX). Same as
 * `x.add(y)`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.add(x, 10); // [11, 12], float32
 * ```
 */
export const add = binary("add", "add");
/**
 * `x - y`, element-wise with broadcasting. dtype: the promoted dtype; bool operands are an error.
 * Same as `x.sub(y)`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.subtract(10, x); // [9, 8]
 * ```
 */
export const subtract = binary("subtract", "subtract");
/**
 * `x * y`, element-wise with broadcasting. dtype: the promoted dtype; two bool operands give
 * their logical and (as JAX).
 * Same as `x.mul(y)`.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.multiply(x, 2); // [2, 4, 6]
 * ```
 */
export const multiply = binary("multiply", "mul");
/**
 * True division `x / y`, element-wise with broadcasting: integer and bool operands are converted
 * to float32 first, so the result is always floating point (float16/float32/float64 by
 * promotion). Division by zero gives ±Infinity or NaN, as in IEEE arithmetic. (`x.div(y)` of
 * two integer arrays truncates instead, as jax-js's method does.)
 *
 * @example
 * ```ts
 * using x = np.array([1, 2], { dtype: np.int32 });
 * using y = np.divide(x, 4); // [0.25, 0.5], float32
 * ```
 */
export const divide = binary("divide", "divide");
/**
 * Alias of `divide`.
 */
export const trueDivide = divide;
/**
 * `floor(x / y)`, element-wise with broadcasting. dtype: the promoted dtype (integers stay
 * integers, rounding toward −∞).
 *
 * @example
 * ```ts
 * using x = np.array([7, -7], { dtype: np.int32 });
 * using y = np.floorDivide(x, 2); // [3, -4], int32
 * ```
 */
export const floorDivide = binary("floorDivide", "floor_divide");
/**
 * `x mod y` with the sign of the divisor, as Python's `%` and `np.remainder`. dtype: the promoted
 * dtype.
 *
 * @example
 * ```ts
 * using x = np.array([5, -5]);
 * using y = np.remainder(x, 3); // [2, 1]
 * ```
 */
export const remainder = binary("remainder", "remainder");
/**
 * The remainder with the sign of the dividend, as C's `fmod` and JavaScript's `%`. dtype: the
 * promoted dtype.
 *
 * @example
 * ```ts
 * using x = np.array([5, -5]);
 * using y = np.fmod(x, 3); // [2, -2]
 * ```
 */
export const fmod = binary("fmod", "rem");
/**
 * The element-wise minimum of `x` and `y` (NaN if either is NaN), with broadcasting. dtype: the
 * promoted dtype.
 *
 * @example
 * ```ts
 * using x = np.array([1, 5]);
 * using y = np.minimum(x, 3); // [1, 3]
 * ```
 */
export const minimum = binary("minimum", "min");
/**
 * The element-wise maximum of `x` and `y` (NaN if either is NaN), with broadcasting. dtype: the
 * promoted dtype.
 *
 * @example
 * ```ts
 * using x = np.array([1, 5]);
 * using y = np.maximum(x, 3); // [3, 5]
 * ```
 */
export const maximum = binary("maximum", "max");
/**
 * `atan2(y, x)` (NumPy's argument order): the angle of the point `(x, y)`, the arc tangent of
 * `y / x` in `[-π, π]` with the quadrant from both signs. Integer inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([1]);
 * using y = np.array([-1]);
 * using z = np.atan2(x, y); // [2.3561945] (3π/4)
 * ```
 */
export const atan2 = binary("atan2", "atan2");
/**
 * Alias of `atan2`.
 */
export const arctan2 = atan2;
/**
 * `sqrt(x² + y²)` without intermediate overflow, element-wise with broadcasting. Integer inputs
 * give float32.
 *
 * @example
 * ```ts
 * using x = np.array([3]);
 * using y = np.array([4]);
 * using z = np.hypot(x, y); // [5]
 * ```
 */
export const hypot = binary("hypot", "hypot");

/**
 * `-x`, element-wise. dtype: that of `x` (bool is an error). Same as `x.neg()`.
 *
 * @example
 * ```ts
 * using x = np.array([1, -2]);
 * using y = np.negative(x); // [-1, 2]
 * ```
 */
export const negative = unary("negative", "neg");
/**
 * `1 / x`, element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([2, 4]);
 * using y = np.reciprocal(x); // [0.5, 0.25]
 * ```
 */
export const reciprocal = unary("reciprocal", "reciprocal");
/**
 * `x * x`, element-wise. dtype: that of `x` (bool is an error).
 *
 * @example
 * ```ts
 * using x = np.array([-3, 2]);
 * using y = np.square(x); // [9, 4]
 * ```
 */
export const square = unary("square", "square");
/**
 * The square root, element-wise (NaN for negative inputs). Integer and bool inputs give
 * float32; webgpu computes it correctly rounded, like the other devices.
 *
 * @example
 * ```ts
 * using x = np.array([1, 4, 9]);
 * using y = np.sqrt(x); // [1, 2, 3]
 * ```
 */
export const sqrt = unary("sqrt", "sqrt");
/**
 * `eˣ`, element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = np.exp(x); // [1, 2.7182817]
 * ```
 */
export const exp = unary("exp", "exp");
/**
 * `2ˣ`, element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 3]);
 * using y = np.exp2(x); // [1, 8]
 * ```
 */
export const exp2 = unary("exp2", "exp2");
/**
 * `eˣ − 1`, accurate for small `x`. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1e-7]);
 * using y = np.expm1(x); // [0, 1e-7]
 * ```
 */
export const expm1 = unary("expm1", "expm1");
/**
 * The natural logarithm, element-wise (−Infinity at 0, NaN below). Integer and bool inputs give
 * float32.
 *
 * @example
 * ```ts
 * using x = np.array([1, Math.E]);
 * using y = np.log(x); // ≈ [0, 1]
 * ```
 */
export const log = unary("log", "log");
/**
 * The base-2 logarithm, element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([1, 8]);
 * using y = np.log2(x); // [0, 3]
 * ```
 */
export const log2 = unary("log2", "log2");
/**
 * The base-10 logarithm, element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([1, 1000]);
 * using y = np.log10(x); // [0, 3]
 * ```
 */
export const log10 = unary("log10", "log10");
/**
 * `log(1 + x)`, accurate for small `x`. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1e-7]);
 * using y = np.log1p(x); // [0, 1e-7]
 * ```
 */
export const log1p = unary("log1p", "log1p");
/**
 * The absolute value, element-wise. dtype: that of `x` (bool is an error).
 *
 * @example
 * ```ts
 * using x = np.array([-1.5, 2]);
 * using y = np.abs(x); // [1.5, 2]
 * ```
 */
export const abs = unary("abs", "abs");
/**
 * Alias of `abs`.
 */
export const absolute = abs;
/**
 * The sign of each element: −1, 0 or 1 (NaN stays NaN). dtype: that of `x`; bool gives int32.
 *
 * @example
 * ```ts
 * using x = np.array([-2, 0, 3]);
 * using y = np.sign(x); // [-1, 0, 1]
 * ```
 */
export const sign = unary("sign", "sign");
/**
 * Rounds each element down to an integer value. Floating-point inputs only (an integer or bool
 * array is an error); the dtype is kept.
 *
 * @example
 * ```ts
 * using x = np.array([-1.5, 1.5]);
 * using y = np.floor(x); // [-2, 1]
 * ```
 */
export const floor = unary("floor", "floor");
/**
 * Rounds each element up to an integer value. Floating-point inputs only (an integer or bool
 * array is an error); the dtype is kept.
 *
 * @example
 * ```ts
 * using x = np.array([-1.5, 1.5]);
 * using y = np.ceil(x); // [-1, 2]
 * ```
 */
export const ceil = unary("ceil", "ceil");
/**
 * Rounds each element toward zero. The dtype is kept (integer inputs come back unchanged in
 * value).
 *
 * @example
 * ```ts
 * using x = np.array([-1.5, 1.5]);
 * using y = np.trunc(x); // [-1, 1]
 * ```
 */
export const trunc = unary("trunc", "trunc");

/**
 * `x == y`, element-wise with broadcasting, as a bool array (NaN equals nothing).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.equal(x, 2); // [false, true, false]
 * ```
 */
export const equal = binary("equal", "eq");
/**
 * `x != y`, element-wise with broadcasting, as a bool array (NaN differs from everything).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.notEqual(x, 2); // [true, false]
 * ```
 */
export const notEqual = binary("notEqual", "ne");
/**
 * `x < y`, element-wise with broadcasting, as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.less(x, 2); // [true, false, false]
 * ```
 */
export const less = binary("less", "lt");
/**
 * `x <= y`, element-wise with broadcasting, as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.lessEqual(x, 2); // [true, true, false]
 * ```
 */
export const lessEqual = binary("lessEqual", "le");
/**
 * `x > y`, element-wise with broadcasting, as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.greater(x, 2); // [false, false, true]
 * ```
 */
export const greater = binary("greater", "greater");
/**
 * `x >= y`, element-wise with broadcasting, as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.greaterEqual(x, 2); // [false, true, true]
 * ```
 */
export const greaterEqual = binary("greaterEqual", "greater_equal");
/**
 * Whether each element is NaN, as a bool array (false for integer and bool inputs).
 *
 * @example
 * ```ts
 * using x = np.array([1, NaN]);
 * using y = np.isnan(x); // [false, true]
 * ```
 */
export const isnan = unary("isnan", "isnan");
/**
 * Whether each element is +Infinity or −Infinity, as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([Infinity, -Infinity, 1, NaN]);
 * using y = np.isinf(x); // [true, true, false, false]
 * ```
 */
export const isinf = unary("isinf", "isinf");
/**
 * Whether each element is neither infinite nor NaN, as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([Infinity, 1, NaN]);
 * using y = np.isfinite(x); // [false, true, false]
 * ```
 */
export const isfinite = unary("isfinite", "isfinite");
/**
 * `!x`, element-wise (non-zero is true), as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([0, 2]);
 * using y = np.logicalNot(x); // [true, false]
 * ```
 */
export const logicalNot = unary("logicalNot", "logical_not");
/**
 * `x && y`, element-wise with broadcasting (non-zero is true), as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([true, true]);
 * using y = np.array([true, false]);
 * using z = np.logicalAnd(x, y); // [true, false]
 * ```
 */
export const logicalAnd = binary("logicalAnd", "logical_and");
/**
 * `x || y`, element-wise with broadcasting (non-zero is true), as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([true, false]);
 * using z = np.array([false, false]);
 * using y = np.logicalOr(x, z); // [true, false]
 * ```
 */
export const logicalOr = binary("logicalOr", "logical_or");
/**
 * Exclusive or of the truth values of `x` and `y`, element-wise with broadcasting, as a bool array.
 *
 * @example
 * ```ts
 * using x = np.array([true, true]);
 * using z = np.array([true, false]);
 * using y = np.logicalXor(x, z); // [false, true]
 * ```
 */
export const logicalXor = binary("logicalXor", "logical_xor");

/**
 * `cond ? x : y`, element-wise with broadcasting of all three. `cond` is read as truth values
 * (non-zero is true); the result has the promoted dtype of `x` and `y`. Under `grad`, only the
 * chosen branch receives a gradient.
 *
 * @example
 * ```ts
 * using x = np.array([-2, 3]);
 * using pos = np.greater(x, 0);
 * using y = np.where(pos, x, 0); // [0, 3]
 * ```
 */
export function where(cond: ArrayLike, x: ArrayLike, y: ArrayLike): Array {
  return applyOp("where", "where", [cond, x, y]);
}

/**
 * The same values as `x`: a new array sharing `x`'s data (no copy), owned by the caller, so
 * disposing it leaves `x` alive. (The consuming entry returns `x` itself, as jax-js does.)
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.positive(x); // [1, 2]
 * ```
 */
export function positive(x: Array): Array {
  return shareOp("positive", x);
}

/**
 * Limits the values of `a` to `[min, max]`: `minimum(maximum(a, min), max)`. Either bound may
 * be omitted (`null`/`undefined`); with neither, `a` itself is returned (no new reference).
 * dtype: the promoted dtype of `a` and the bounds.
 *
 * @example
 * ```ts
 * using x = np.array([-1, 0.5, 2]);
 * using y = np.clip(x, 0, 1); // [0, 0.5, 1]
 * ```
 */
export function clip(a: Array, min?: ArrayLike | null, max?: ArrayLike | null): Array {
  if (min == null && max == null) return shareOp("clip", a);
  if (min == null) return applyOp("clip", "min", [a, max!]);
  if (max == null) return applyOp("clip", "max", [a, min]);
  return applyOp("clip", "clip", [a, min, max]);
}

/**
 * The matrix product with NumPy's rules: 2-D operands multiply as matrices, leading axes are
 * batch axes that broadcast, and a 1-D operand acts as a vector (its axis is dropped from the
 * result). dtype: the promoted dtype (float16 is computed in float32 and rounded once; bool is an
 * error). On webgpu large products use a tiled kernel.
 *
 * @example
 * ```ts
 * using a = np.array([[1, 2], [3, 4]]);
 * using v = np.array([1, 1]);
 * using x = np.matmul(a, v); // [3, 7]
 * ```
 */
export const matmul = binary("matmul", "matmul");
/**
 * NumPy's `dot`: vectors give their inner product, matrices their product, a scalar operand
 * multiplies, and n-D operands sum over the last axis of `x` and the second-to-last of `y`
 * (result shape `[...x.shape[:-1], ...y.shape[:-2], y.shape[-1]]`). dtype: the promoted dtype.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using y = np.array([4, 5, 6]);
 * using z = np.dot(x, y); // 32 (a 0-d array)
 * using a = np.ones([2, 2, 3]);
 * using b = np.ones([3, 4]);
 * using c = np.dot(a, b);
 * c.shape; // [2, 2, 4]
 * ```
 */
export const dot = binary("dot", "dot");

/**
 * `x ** y`, element-wise with broadcasting. dtype: the promoted dtype; an integer base with an
 * integer exponent stays integer (exact, by repeated multiplication), bool operands give
 * float32. Same as `x.pow(y)`.
 *
 * @example
 * ```ts
 * using x = np.array([2, 3]);
 * using y = np.power(x, 2); // [4, 9]
 * ```
 */
export const power = binary("power", "power");
/**
 * Alias of `power`.
 */
export const pow = power;
