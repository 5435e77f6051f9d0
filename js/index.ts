/**
 * oxjax: JAX for JavaScript, rebuilt in Rust. Importing this module loads the WebAssembly
 * core; `cpu` and `wasm` work at once, `await init()` starts WebGPU where available.
 */
import "./polyfill.js";
import * as numpy from "./numpy/index.js";
import * as lax from "./lax.js";
import * as random from "./random.js";
import * as nn from "./nn.js";
import * as scipySpecial from "./scipy-special.js";
import * as tree from "./tree.js";
import * as scipyLinalg from "./scipy-linalg.js";

export { numpy, lax, random, nn, scipySpecial, tree, scipyLinalg };
export type { JsTree, JsTreeDef } from "./tree.js";
export { Array } from "./array.js";
export { DType } from "./dtype.js";
export type { DataArray } from "./dtype.js";
export { init, defaultDevice, devices, webgpuUnavailableReason } from "./device.js";
export type { Device, InitOptions } from "./device.js";
export { memoryStats } from "./stats.js";
export { setDebug } from "./debug.js";
export { devicePut, blockUntilReady } from "./device-put.js";
export { checkLeaks } from "./leaks.js";
export { setScanPathCallback } from "./lax-scan.js";
export type { ScanPath, ScanPathCallback } from "./lax-scan.js";
export type { LeakReport, SnapshotEntry } from "./leaks.js";
export { makeJaxpr, ClosedJaxpr, grad, valueAndGrad, vjp, jvp } from "./transforms.js";
export type { GradOptions, VjpFn } from "./transforms.js";
export { vmap, jacfwd, jacrev, jacobian, hessian, linearize } from "./vmap.js";
export type { LinearFn } from "./vmap.js";
export { jit, clearCaches, getCacheSizes } from "./jit.js";
export type { JitOptions, OwnedFunction, CacheSizes } from "./jit.js";
export type { MemoryStats, DeviceStats, ScanStats } from "./stats.js";
export * from "./top-unsupported.js";
export { getBackend } from "./backend-info.js";
export type { Backend } from "./backend-info.js";
