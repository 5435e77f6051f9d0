/**
 * Top-level names of later fork snapshots: `scatterAdd`, and the ones oxjax does not implement
 * yet (each throws a clear error when called).
 */
import { notYet, notYetClass } from "./unsupported.js";
import { Array, type ArrayLike } from "./array.js";
import { lib1 } from "./lib.js";

/** `target` with `updates` added at `indices` along `axis` (a new array; duplicates add up). */
export function scatterAdd(target: Array, indices: ArrayLike | Array, updates: Array, axis = 0) {
  return lib1("scatterAdd", [target, indices as Array, updates], [axis]);
}

export const getWebGPUDevice = notYet("getWebGPUDevice");
export const aotLinearize = notYet("aotLinearize");
export const jitCompile = notYet("jitCompile");
export const hasSymbolicDims = notYet("hasSymbolicDims");
export const isSymbolicDim = notYet("isSymbolicDim");
export const verifyJaxprEffects = notYet("verifyJaxprEffects");
export const _setVerifyEffects = notYet("_setVerifyEffects");

/** jax-js's Jaxpr object API (oxjax prints programs through ClosedJaxpr). */
export const Jaxpr = notYetClass("Jaxpr");

/** Upstream's trace profiler. */
export const profiler = { startTrace: notYet("startTrace"), stopTrace: notYet("stopTrace") };
