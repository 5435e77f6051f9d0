/**
 * The `lax` namespace: erf, erfc, stopGradient and bitcastConvertType here; convolutions
 * (`conv.ts`), `dot` and `topK` (`dot.ts`), slicing (`slicing.ts`), `scan` and `foriLoop`
 * (`scan.ts`), `associativeScan` (`associative-scan.ts`), `linalg` (`linalg.ts`), and the names
 * oxjax does not implement (`unsupported.ts`). Argument parsing only.
 */
import { call, wasm } from "../bridge.js";
import { Array, type ArrayLike } from "../array.js";
import { DType, parseDType } from "../dtype.js";
import { applyOp, shareOp } from "../ops.js";

export { scan, foriLoop } from "./scan.js";
export type { ScanOptions, ScanPath } from "./scan.js";
export { associativeScan } from "./associative-scan.js";
export type { AssociativeScanOptions } from "./associative-scan.js";
export * as linalg from "./linalg.js";
export * from "./conv.js";
export * from "./dot.js";
export * from "./slicing.js";
export * from "./unsupported.js";

/**
 * The error function, element-wise; integer inputs give float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 1]);
 * using y = lax.erf(x); // [0, 0.8427008]
 * ```
 */
export const erf = (x: ArrayLike): Array => applyOp("erf", "erf", [x]);

/**
 * The complementary error function `1 − erf(x)`, accurate for large `x`; integer inputs give
 * float32.
 *
 * @example
 * ```ts
 * using x = np.array([0, 3]);
 * using y = lax.erfc(x); // [1, 0.00002209]
 * ```
 */
export const erfc = (x: ArrayLike): Array => applyOp("erfc", "erfc", [x]);

/**
 * The identity with a zero derivative. A concrete array (eager mode) comes back as a new array
 * sharing its data (no copy; disposing it leaves `x` alive; the consuming entry returns `x`
 * itself, as jax-js does); a tracer gets a `stop_gradient` equation.
 *
 * @example
 * ```ts
 * const f = (x) => x.mul(lax.stopGradient(x)).sum(); // the second factor is a constant to grad
 * using x = np.array([3]);
 * using g = grad(f)(x); // [3]
 * ```
 */
export function stopGradient(x: Array): Array {
  if (!(x instanceof Array)) throw new TypeError(`stopGradient: expected an Array`);
  if (call(() => wasm.device(x._handle)) !== undefined) return shareOp("stopGradient", x);
  return applyOp("stopGradient", "stop_gradient", [x]);
}

/**
 * Reinterprets the bits as `dtype` (same size).
 *
 * @example
 * ```ts
 * using x = np.array([1]);
 * using b = lax.bitcastConvertType(x, np.int32); // [1065353216]
 * ```
 */
export function bitcastConvertType(x: Array, dtype: DType): Array {
  if (!(x instanceof Array)) throw new TypeError("bitcastConvertType: expected an Array");
  const d = parseDType("bitcastConvertType", dtype);
  return new Array(call(() => wasm.convert(x._handle, d, true)));
}
