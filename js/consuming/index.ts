/**
 * `oxjax/consuming`: oxjax with the ownership model of upstream `@jax-js/jax` 0.1.x, for code
 * written against it (e.g. `@jax-js/onnx`). Every operation, `data()`/`js()`, jitted and
 * transformed function and tree helper consumes its array arguments; `.ref` keeps one. The
 * arrays are the core's (the same Rust handles and one module instance as `oxjax`), seen
 * through the facade of `array.ts`; the rules are in `ownership.ts`.
 *
 * For users: import from `oxjax/consuming` instead of `@jax-js/jax` (or make that name resolve
 * here; the guide's "Moving from jax-js" says how). Passing an array to a function gives the
 * function one reference, which it releases; `x.ref` adds a reference to pass `x` and keep it.
 * Functions you pass in (traced functions, `tree.map` callbacks) own the arrays they are given.
 * Arrays of this entry and of `oxjax` are interchangeable (the same handles); an `oxjax` array
 * passed here is consumed too. What each function computes is on its `oxjax` page.
 *
 * @module oxjax/consuming
 */
import * as core from "../index.js";
import "./methods.js";
import { Array as Facade } from "./array.js";
import { consuming } from "./ownership.js";
import { consumingNamespace } from "./namespaces.js";

/** The array class of this entry (its methods consume; the type is the core's). */
export const Array = Facade as unknown as typeof core.Array;
export type Array = core.Array;

/**
 * The `numpy` namespace (see `oxjax`'s `numpy` for what each function computes), with
 * upstream's ownership: each function consumes its array arguments (`shape`, `ndim` and `size`
 * only read them, as do `isscalar` and `resultType`); results are new arrays owned by the
 * caller.
 *
 * @example
 * ```ts
 * import { numpy as np, lax, tree, grad, vjp, vmap, devicePut } from "oxjax/consuming";
 * const x = np.array([1, 2]);
 * const y = np.multiply(x.ref, x); // x is consumed by its last use
 * console.log(y.js()); // [1, 4]; js() consumed y
 * x.refCount; // 0
 * ```
 */
export const numpy: typeof core.numpy = consumingNamespace(core.numpy, {
  shape: "none",
  ndim: "none",
  size: "none",
  isscalar: "none",
  resultType: "none",
});
/** The types upstream code names through the namespace (`np.Array`, `np.ArrayLike`, `np.DType`). */
export declare namespace numpy {
  /** `oxjax`'s `Array`. */
  type Array = core.Array;
  /** `oxjax`'s `ArrayLike`: an Array, or a JS number or boolean. */
  type ArrayLike = core.ArrayLike;
  /** `oxjax`'s `DType`. */
  type DType = core.DType;
}
/**
 * The `lax` namespace (see `oxjax`'s `lax`); functions consume their array arguments, and a
 * scan body or `associativeScan` combiner owns the arrays it is given.
 *
 * @example
 * ```ts
 * import { numpy as np, lax, tree, grad, vjp, vmap, devicePut } from "oxjax/consuming";
 * const xs = np.array([1, 2, 3]);
 * const [total, ys] = lax.scan((c, x) => {
 *   const s = c.add(x);
 *   return [s.ref, s];
 * }, np.array(0), xs); // init and xs are consumed
 * console.log(total.js(), ys.js()); // 6 [1, 3, 6]
 * ```
 */
export const lax: typeof core.lax = consumingNamespace(core.lax);
/**
 * The `random` namespace (see `oxjax`'s `random`); functions consume their array arguments,
 * keys included (`key.ref` to reuse one).
 */
export const random: typeof core.random = consumingNamespace(core.random);
/** The `nn` namespace (see `oxjax`'s `nn`); functions consume their array arguments. */
export const nn: typeof core.nn = consumingNamespace(core.nn);
/** The `scipySpecial` namespace (see `oxjax`'s); functions consume their array arguments. */
export const scipySpecial: typeof core.scipySpecial = consumingNamespace(core.scipySpecial);
/** The `scipyLinalg` namespace (see `oxjax`'s); functions consume their array arguments. */
export const scipyLinalg: typeof core.scipyLinalg = consumingNamespace(core.scipyLinalg);
/**
 * The `tree` namespace (see `oxjax`'s `tree`). Its functions consume the array leaves they are
 * given, as upstream's (a leaf returned unchanged keeps its reference); `structure`, `dispose`,
 * `consumeData` and `makeDisposable` take them as they are.
 *
 * @example
 * ```ts
 * import { numpy as np, lax, tree, grad, vjp, vmap, devicePut } from "oxjax/consuming";
 * const t = { a: np.array([1, 2]) };
 * const doubled = tree.map((x) => x.mul(2), t); // t's leaves are consumed
 * doubled.a.js(); // [2, 4]
 * ```
 */
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
  MapJsTree,
  ArrayLike,
  NestedValues,
  ArgsOf,
  InAxes,
  TracedFunction,
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
  WasmThreadInfo,
} from "../index.js";
export type { Aval } from "../aval.js";

/** `oxjax`'s `init` (no arrays involved). */
export const init = consuming("init", core.init);
/** `oxjax`'s `defaultDevice` (no arrays involved). */
export const defaultDevice = consuming("defaultDevice", core.defaultDevice);
/** `oxjax`'s `webgpuUnavailableReason`. */
export const webgpuUnavailableReason = core.webgpuUnavailableReason;
/** `oxjax`'s `wasmThreadInfo`: the `wasm` device's worker pool (shared by both entries). */
export const wasmThreadInfo = core.wasmThreadInfo;
/** `oxjax`'s `memoryStats` (the two entries share one module instance: the counts cover both). */
export const memoryStats = core.memoryStats;
/** `oxjax`'s `setDebug`. */
export const setDebug = core.setDebug;
/** `oxjax`'s `clearCaches`. */
export const clearCaches = core.clearCaches;
/** `oxjax`'s `getCacheSizes`. */
export const getCacheSizes = core.getCacheSizes;
/** `oxjax`'s `getBackend`. */
export const getBackend = core.getBackend;
/** `oxjax`'s `setScanPathCallback`. */
export const setScanPathCallback = consuming("setScanPathCallback", core.setScanPathCallback);
/**
 * `oxjax`'s `devicePut`, consuming the arrays of the tree it moves (an array already on the
 * device comes back as the same object, its reference moved into the result).
 *
 * @example
 * ```ts
 * import { numpy as np, lax, tree, grad, vjp, vmap, devicePut } from "oxjax/consuming";
 * const x = np.array([1, 2], { device: "cpu" });
 * const y = await devicePut(x, "wasm"); // x is consumed
 * y.device; // "wasm"
 * y.dispose();
 * ```
 */
export const devicePut = consuming("devicePut", core.devicePut);
/** `oxjax`'s `blockUntilReady`; it does not consume (the tree comes back as it is). */
export const blockUntilReady = consuming("blockUntilReady", core.blockUntilReady, "none");
/**
 * `oxjax`'s `grad`; the returned function consumes its array arguments, and `f` owns the tracers
 * it is given.
 *
 * @example
 * ```ts
 * import { numpy as np, lax, tree, grad, vjp, vmap, devicePut } from "oxjax/consuming";
 * const g = grad((x) => x.ref.mul(x).sum())(np.array([1, 2])); // the argument is consumed
 * g.js(); // [2, 4]
 * ```
 */
export const grad = consuming("grad", core.grad);
/** `oxjax`'s `valueAndGrad`; the returned function consumes its array arguments. */
export const valueAndGrad = consuming("valueAndGrad", core.valueAndGrad);
/**
 * `oxjax`'s `vjp`, consuming the primals; the returned `vjpFn` consumes its cotangents.
 *
 * @example
 * ```ts
 * import { numpy as np, lax, tree, grad, vjp, vmap, devicePut } from "oxjax/consuming";
 * const [y, pullback] = vjp((x) => x.ref.mul(x), [np.array([1, 2])]);
 * const [dx] = pullback(np.ones([2])); // the cotangent is consumed
 * dx.js(); // [2, 4]
 * y.dispose();
 * pullback.dispose();
 * ```
 */
export const vjp = consuming("vjp", core.vjp);
/** `oxjax`'s `jvp`, consuming the primals and tangents. */
export const jvp = consuming("jvp", core.jvp);
/**
 * `oxjax`'s `vmap`; the returned function consumes its array arguments.
 *
 * @example
 * ```ts
 * import { numpy as np, lax, tree, grad, vjp, vmap, devicePut } from "oxjax/consuming";
 * const f = vmap((row) => row.sum());
 * const s = f(np.array([[1, 2], [3, 4]])); // the argument is consumed
 * s.js(); // [3, 7]
 * ```
 */
export const vmap = consuming("vmap", core.vmap);
/** `oxjax`'s `jacfwd`; the returned function consumes its argument. */
export const jacfwd = consuming("jacfwd", core.jacfwd);
/** `oxjax`'s `jacrev`; the returned function consumes its argument. */
export const jacrev = consuming("jacrev", core.jacrev);
/** `oxjax`'s `jacobian`; the returned function consumes its argument. */
export const jacobian = consuming("jacobian", core.jacobian);
/** `oxjax`'s `hessian`; the returned function consumes its argument. */
export const hessian = consuming("hessian", core.hessian);
/** `oxjax`'s `linearize`, consuming the primals; the returned `fLin` consumes its tangents. */
export const linearize = consuming("linearize", core.linearize);
/**
 * `oxjax`'s `jit`; the jitted function consumes its array arguments (as upstream's) and still
 * owns its compiled programs until `dispose()`.
 *
 * @example
 * ```ts
 * import { numpy as np, jit } from "oxjax/consuming";
 * const f = jit((a) => a.ref.mul(a).sum());
 * const y = f(np.arange(4).astype(np.float32)); // the argument is consumed
 * console.log(y.js()); // 14; js() consumed y
 * f.dispose();
 * ```
 */
export const jit = consuming("jit", core.jit);
/**
 * `oxjax`'s `makeJaxpr`. Tracing reads its arguments' shapes only: they are not consumed (as
 * upstream).
 */
export const makeJaxpr = consuming("makeJaxpr", (f: Parameters<typeof core.makeJaxpr>[0]) =>
  consuming("makeJaxpr", core.makeJaxpr(f), "none"),
) as typeof core.makeJaxpr;
export * from "../named/top-unsupported.js";
