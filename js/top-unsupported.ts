/**
 * Top-level names of later fork snapshots: `scatterAdd`, and the ones oxjax does not implement
 * yet (each throws a clear error when called).
 */
import { notYet, notYetClass } from "./unsupported.js";
import { Array, type ArrayLike } from "./array.js";
import * as lib from "./lib-calls.js";

/**
 * `target` with `updates` added at `indices` along `axis` (a new array; repeated indices add
 * up). `target` is not consumed.
 *
 * @example
 * ```ts
 * using t = np.zeros([3]);
 * using i = np.array([0, 2, 0], { dtype: np.int32 });
 * using u = np.array([1, 2, 3]);
 * using y = scatterAdd(t, i, u); // [4, 0, 2]
 * ```
 */
export function scatterAdd(target: Array, indices: ArrayLike | Array, updates: Array, axis = 0) {
  return lib.scatterAdd({ target, indices: indices as Array, updates, axis });
}

/**
 * jax-js's access to its WebGPU device; not in oxjax (throws): oxjax's WebGPU device is owned
 * by wgpu inside the WebAssembly module and cannot be handed out as a JS `GPUDevice`.
 */
export const getWebGPUDevice = notYet("getWebGPUDevice");
/** Ahead-of-time linearization; not in oxjax yet (throws). */
export const aotLinearize = notYet("aotLinearize");
/** Ahead-of-time compilation; not in oxjax yet (throws): use `jit`. */
export const jitCompile = notYet("jitCompile");
/** Symbolic dimensions; not in oxjax yet (throws). */
export const hasSymbolicDims = notYet("hasSymbolicDims");
/** Symbolic dimensions; not in oxjax yet (throws). */
export const isSymbolicDim = notYet("isSymbolicDim");
/** The fork's Jaxpr effect checks; not in oxjax yet (throws). */
export const verifyJaxprEffects = notYet("verifyJaxprEffects");
/** The fork's Jaxpr effect checks; not in oxjax yet (throws). */
export const _setVerifyEffects = notYet("_setVerifyEffects");

/** jax-js's Jaxpr object API (oxjax prints programs through ClosedJaxpr). */
export const Jaxpr = notYetClass("Jaxpr");

/** Upstream's trace profiler; not in oxjax yet (both functions throw). */
export const profiler = {
  /** Not in oxjax yet (throws). */
  startTrace: notYet("startTrace"),
  /** Not in oxjax yet (throws). */
  stopTrace: notYet("stopTrace"),
};
