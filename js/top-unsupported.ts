/** Top-level jax-js names oxjax does not implement yet (each throws a clear error when called). */
import { notYet, notYetClass } from "./unsupported.js";

export const getBackend = notYet("getBackend");
export const getWebGPUDevice = notYet("getWebGPUDevice");
export const aotLinearize = notYet("aotLinearize");
export const jitCompile = notYet("jitCompile");
export const scatterAdd = notYet("scatterAdd");
export const hasSymbolicDims = notYet("hasSymbolicDims");
export const isSymbolicDim = notYet("isSymbolicDim");
export const verifyJaxprEffects = notYet("verifyJaxprEffects");
export const _setVerifyEffects = notYet("_setVerifyEffects");

/** jax-js's Jaxpr object API (oxjax prints programs through ClosedJaxpr). */
export const Jaxpr = notYetClass("Jaxpr");

/** Upstream's trace profiler. */
export const profiler = { startTrace: notYet("startTrace"), stopTrace: notYet("stopTrace") };
