/**
 * oxjax: JAX for JavaScript, rebuilt in Rust. Importing this module loads the WebAssembly
 * core; `cpu` and `wasm` work at once, `await init()` starts WebGPU where available.
 *
 * The namespaces (`numpy`, `lax`, `nn`, `random`, `tree`, `scipySpecial`, `scipyLinalg`) hold
 * the operations; the top-level functions transform functions (`grad`, `vmap`, `jit`…),
 * manage devices (`init`, `devicePut`) and report on memory (`memoryStats`, `checkLeaks`).
 * Operations never consume their arguments: dispose every array you get, once.
 *
 * @example
 * ```ts
 * import { numpy as np, grad, jit } from "oxjax";
 *
 * const loss = (w) => np.square(w).sum();
 * using w = np.array([1, -2]);
 * using g = grad(loss)(w); // [2, -4]
 * using fastLoss = jit(loss);
 * using l = fastLoss(w); // 5
 * ```
 *
 * @module oxjax
 */
import "./polyfill.js";
// Every exported function is wrapped so that its errors name it (js/errors.ts, js/named/).
import * as numpy from "./named/numpy.js";
import * as lax from "./named/lax.js";
import * as random from "./named/random.js";
import * as nn from "./named/nn.js";
import * as scipySpecial from "./named/scipy-special.js";
import * as tree from "./named/tree.js";
import * as scipyLinalg from "./named/scipy-linalg.js";
import { Array } from "./array.js";
import { ArrayHandle } from "./array-handle.js";
import { checkLeaks } from "./leaks.js";
import { nameMethods } from "./errors.js";

nameMethods(Array.prototype);
nameMethods(ArrayHandle.prototype);
nameMethods(checkLeaks, "checkLeaks.");

export { numpy, lax, random, nn, scipySpecial, tree, scipyLinalg };
export type { JsTree, JsTreeDef, MapJsTree } from "./tree.js";
export { Array } from "./array.js";
export type { ArrayLike, NestedValues } from "./array.js";
export { DType } from "./dtype.js";
export type { DataArray } from "./dtype.js";
export { init, defaultDevice, webgpuUnavailableReason, wasmThreadInfo } from "./named/top.js";
export { devices } from "./device.js";
export type { Device, InitOptions } from "./device.js";
export type { WasmThreadInfo } from "./wasm-threads.js";
export { memoryStats, setDebug, devicePut, blockUntilReady } from "./named/top.js";
export { checkLeaks } from "./leaks.js";
export { setScanPathCallback } from "./named/top.js";
export type { ScanPath, ScanPathCallback } from "./lax/scan.js";
export type { LeakReport, SnapshotEntry } from "./leaks.js";
export { makeJaxpr, grad, valueAndGrad, vjp, jvp } from "./named/top.js";
export { ClosedJaxpr } from "./transforms.js";
export type { GradOptions, VjpFn } from "./transforms.js";
export { vmap, jacfwd, jacrev, jacobian, hessian, linearize } from "./named/top.js";
export type { LinearFn } from "./vmap.js";
export { jit, clearCaches, getCacheSizes } from "./named/top.js";
export type { JitOptions, OwnedFunction, CacheSizes } from "./jit.js";
export type { ArgsOf, InAxes, TracedFunction } from "./transform-types.js";
export type { MemoryStats, DeviceStats, ScanStats, CompiledCallStats } from "./stats.js";
export * from "./named/top-unsupported.js";
export { getBackend } from "./named/top.js";
export type { Backend } from "./backend-info.js";
