/**
 * `oxjax/consuming`: oxjax with the ownership model of upstream `@jax-js/jax` 0.1.x, for code
 * written against it (e.g. `@jax-js/onnx`). Every operation, `data()`/`js()`, jitted and
 * transformed function and tree helper consumes its array arguments; `.ref` keeps one. The
 * arrays are the core's (the same Rust handles and one module instance as `oxjax`), seen
 * through the facade of `array.ts`; the rules are in `ownership.ts`.
 */
import * as core from "../index.js";
import "./methods.js";
import { Array as Facade } from "./array.js";
import { consuming } from "./ownership.js";
import { consumingNamespace } from "./namespaces.js";

/** The array class of this entry (its methods consume; the type is the core's). */
export const Array = Facade as unknown as typeof core.Array;
export type Array = core.Array;

export const numpy: typeof core.numpy = consumingNamespace(core.numpy, {
  shape: "none",
  ndim: "none",
  size: "none",
});
export const lax: typeof core.lax = consumingNamespace(core.lax);
export const random: typeof core.random = consumingNamespace(core.random);
export const nn: typeof core.nn = consumingNamespace(core.nn);
export const scipySpecial: typeof core.scipySpecial = consumingNamespace(core.scipySpecial);
export const scipyLinalg: typeof core.scipyLinalg = consumingNamespace(core.scipyLinalg);
export const tree: typeof core.tree = consumingNamespace(core.tree, {
  structure: "none",
  dispose: "none",
  consumeData: "none",
  makeDisposable: "none",
});

export { DType, ClosedJaxpr, devices, checkLeaks } from "../index.js";
export type {
  JsTree,
  JsTreeDef,
  DataArray,
  Device,
  InitOptions,
  ScanPath,
  ScanPathCallback,
  LeakReport,
  SnapshotEntry,
  GradOptions,
  VjpFn,
  LinearFn,
  JitOptions,
  OwnedFunction,
  CacheSizes,
  MemoryStats,
  DeviceStats,
  ScanStats,
  Backend,
} from "../index.js";
export type { Aval } from "../aval.js";

export const init = consuming("init", core.init);
export const defaultDevice = consuming("defaultDevice", core.defaultDevice);
export const webgpuUnavailableReason = core.webgpuUnavailableReason;
export const memoryStats = core.memoryStats;
export const setDebug = core.setDebug;
export const clearCaches = core.clearCaches;
export const getCacheSizes = core.getCacheSizes;
export const getBackend = core.getBackend;
export const setScanPathCallback = consuming("setScanPathCallback", core.setScanPathCallback);
export const devicePut = consuming("devicePut", core.devicePut);
export const blockUntilReady = consuming("blockUntilReady", core.blockUntilReady, "none");
export const grad = consuming("grad", core.grad);
export const valueAndGrad = consuming("valueAndGrad", core.valueAndGrad);
export const vjp = consuming("vjp", core.vjp);
export const jvp = consuming("jvp", core.jvp);
export const vmap = consuming("vmap", core.vmap);
export const jacfwd = consuming("jacfwd", core.jacfwd);
export const jacrev = consuming("jacrev", core.jacrev);
export const jacobian = consuming("jacobian", core.jacobian);
export const hessian = consuming("hessian", core.hessian);
export const linearize = consuming("linearize", core.linearize);
export const jit = consuming("jit", core.jit);
/** Tracing reads its arguments' shapes only: they are not consumed (as upstream). */
export const makeJaxpr = consuming("makeJaxpr", (f: Parameters<typeof core.makeJaxpr>[0]) =>
  consuming("makeJaxpr", core.makeJaxpr(f), "none"),
) as typeof core.makeJaxpr;
export * from "../named/top-unsupported.js";
