/**
 * numpy's trigonometric and hyperbolic functions and angle conversions, with jax-js's names.
 * Each is one call into Rust; integer and bool inputs give float32.
 */
import { unaryOp } from "../ops.js";

const unary = unaryOp;

/**
 * The sine (radians), element-wise. Integer and bool inputs give float32. Transcendental
 * functions are within a few ulp of the correctly rounded result on every device.
 *
 * @example
 * ```ts
 * using x = np.array([0, Math.PI / 2]);
 * using y = np.sin(x); // [0, 1]
 * ```
 */
export const sin = unary("sin", "sin");
/**
 * The cosine (radians), element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, Math.PI]);
 * using y = np.cos(x); // [1, -1]
 * ```
 */
export const cos = unary("cos", "cos");
/**
 * The tangent (radians), element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, Math.PI / 4]);
 * using y = np.tan(x); // [0, 1]
 * ```
 */
export const tan = unary("tan", "tan");
/**
 * The inverse sine, in `[-π/2, π/2]` (NaN outside `[-1, 1]`). Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = np.arcsin(x); // [0, 1.5707964]
 * ```
 */
export const arcsin = unary("arcsin", "asin");
/**
 * Alias of `arcsin`.
 */
export const asin = arcsin;
/**
 * The inverse cosine, in `[0, π]` (NaN outside `[-1, 1]`). Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([1, 0]);
 * using y = np.arccos(x); // [0, 1.5707964]
 * ```
 */
export const arccos = unary("arccos", "acos");
/**
 * Alias of `arccos`.
 */
export const acos = arccos;
/**
 * The inverse tangent, in `(-π/2, π/2)`. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = np.arctan(x); // [0, 0.7853982]
 * ```
 */
export const arctan = unary("arctan", "atan");
/**
 * Alias of `arctan`.
 */
export const atan = arctan;
/**
 * The hyperbolic sine, element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = np.sinh(x); // [0, 1.1752012]
 * ```
 */
export const sinh = unary("sinh", "sinh");
/**
 * The hyperbolic cosine, element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = np.cosh(x); // [1, 1.5430806]
 * ```
 */
export const cosh = unary("cosh", "cosh");
/**
 * The hyperbolic tangent, element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 100]);
 * using y = np.tanh(x); // [0, 1]
 * ```
 */
export const tanh = unary("tanh", "tanh");
/**
 * The inverse hyperbolic sine, element-wise. Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = np.arcsinh(x); // [0, 0.8813736]
 * ```
 */
export const arcsinh = unary("arcsinh", "asinh");
/**
 * Alias of `arcsinh`.
 */
export const asinh = arcsinh;
/**
 * The inverse hyperbolic cosine (NaN below 1). Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using y = np.arccosh(x); // [0, 1.3169578]
 * ```
 */
export const arccosh = unary("arccosh", "acosh");
/**
 * Alias of `arccosh`.
 */
export const acosh = arccosh;
/**
 * The inverse hyperbolic tangent (±Infinity at ±1, NaN outside). Integer and bool inputs give
 * float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 0.5]);
 * using y = np.arctanh(x); // [0, 0.54930615]
 * ```
 */
export const arctanh = unary("arctanh", "atanh");
/**
 * Alias of `arctanh`.
 */
export const atanh = arctanh;
/**
 * Degrees to radians (`x · π/180`). Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([180]);
 * using y = np.deg2rad(x); // [3.1415927]
 * ```
 */
export const deg2rad = unary("deg2rad", "deg2rad");
/**
 * Alias of `deg2rad`.
 */
export const radians = deg2rad;
/**
 * Radians to degrees (`x · 180/π`). Integer and bool inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([Math.PI]);
 * using y = np.rad2deg(x); // [180]
 * ```
 */
export const rad2deg = unary("rad2deg", "rad2deg");
/**
 * Alias of `rad2deg`.
 */
export const degrees = rad2deg;
