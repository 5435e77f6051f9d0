/**
 * Batching and Jacobians: `vmap` (the batching interpreter runs in Rust on the function traced
 * for one batch member), `jacfwd`, `jacrev`/`jacobian`, `hessian` (compositions of vmap with
 * jvp/vjp/grad, with jax-js's layouts) and `linearize`. Argument parsing and pytrees only.
 */
import { call, wasm } from "./bridge.js";
import { unwatchOwner, watchOwner } from "./reclaim.js";
import { Array } from "./array.js";
import { defaultDevice, type Device } from "./device.js";
import type { DType } from "./dtype.js";
import * as numpy from "./numpy/index.js";
import * as tree from "./tree.js";
import { checkOptions, grad, jvp, splitOutputs, traceToJaxpr, vjp } from "./transforms.js";
import { named } from "./errors.js";
import type {
  ArgsOf,
  InAxes,
  LinearizeResult,
  TracedFunction,
  Transformed,
} from "./transform-types.js";

type Fn = (...args: any[]) => any;

/** A batch axis for every leaf of `arg` from its `inAxes` entry (a prefix pytree). */
function leafAxes(spec: unknown, arg: unknown, where: string): (number | null)[] {
  if (spec === null || spec === undefined || typeof spec === "number") {
    return globalThis
      .Array(tree.structure(arg as tree.JsTree<unknown>).numLeaves)
      .fill(spec ?? null);
  }
  const mismatch = () =>
    new Error(
      `vmap: inAxes${where} ${tree.structure(spec as tree.JsTree<unknown>)} does not match the ` +
        `argument's structure ${tree.structure(arg as tree.JsTree<unknown>)}`,
    );
  if (globalThis.Array.isArray(spec)) {
    if (!globalThis.Array.isArray(arg) || arg.length !== spec.length) throw mismatch();
    return spec.flatMap((s, i) => leafAxes(s, arg[i], `${where}[${i}]`));
  }
  if (typeof spec === "object") {
    const keys = Object.keys(spec).sort();
    if (arg === null || typeof arg !== "object" || globalThis.Array.isArray(arg)) throw mismatch();
    const argKeys = Object.keys(arg).sort();
    if (keys.join("\u0000") !== argKeys.join("\u0000")) throw mismatch();
    return keys.flatMap((k) => leafAxes((spec as any)[k], (arg as any)[k], `${where}.${k}`));
  }
  throw new TypeError(`vmap: inAxes${where} must be a number, null or a pytree of them`);
}

/** jax-js's `inAxes` (a number, or one entry per argument) as one axis per leaf. */
function flatAxes(inAxes: unknown, args: unknown[]): (number | null)[] {
  if (typeof inAxes === "number") return leafAxes(inAxes, args, "");
  if (!globalThis.Array.isArray(inAxes)) {
    throw new TypeError("vmap: inAxes must be a number or a list with one entry per argument");
  }
  if (inAxes.length !== args.length) {
    throw new Error(`vmap: inAxes has ${inAxes.length} entries for ${args.length} argument(s)`);
  }
  return inAxes.flatMap((s, i) => leafAxes(s, args[i], `[${i}]`));
}

/**
 * Vectorises `f`: `vmap(f, inAxes)(...args)` applies `f` to slices of its arguments along their
 * batch axes and stacks the results along a new axis 0. `inAxes` is 0 by default (every argument
 * batched on axis 0), a number for all arguments, or a list with one entry per argument: a number,
 * `null` (not batched) or a pytree prefix of the argument giving axes per leaf.
 *
 * `f` is traced once with unbatched tracers and evaluated by oxjax's batching rules (one per
 * primitive, in Rust), so the batched work is whole-array kernels, not a loop. Arguments are not
 * consumed; outputs are new arrays owned by the caller. Composes with `grad`, `jit` and itself.
 *
 * @example
 * ```ts
 * using xs = np.array([[1, 2], [3, 4], [5, 6]]);
 * using w = np.array([10, 1]);
 * using ys = vmap((x, w) => np.dot(x, w), [0, null])(xs, w); // [12, 34, 56]
 * ```
 */
export function vmap<F extends TracedFunction>(f: F, inAxes?: InAxes): Transformed<F>;
export function vmap(f: Fn, inAxes: number | unknown[] = 0): Fn {
  return named("vmap", (...args: unknown[]) => {
    const axes = flatAxes(inAxes, args);
    // JS numbers become weakly typed scalars (they adopt their partners' dtypes, as in jax-js).
    const weak: Array[] = [];
    const toArray = (l: unknown) => {
      if (typeof l !== "number") return l;
      const a = numpy.array(l);
      weak.push(a);
      return a;
    };
    let t: ReturnType<typeof traceToJaxpr>;
    let axesArr = new Int32Array();
    try {
      const arrays = args.map((a) => tree.map(toArray, a as tree.JsTree<unknown>));
      t = traceToJaxpr("vmap", f, arrays, false, false, (leaves, handles) => {
        axesArr = Int32Array.from(axes, (a, i) => {
          if (a === null) return -1;
          if (!Number.isInteger(a)) throw new TypeError(`vmap: inAxes entries must be integers`);
          const axis = a < 0 ? a + leaves[i].ndim : a;
          if (axis < 0) {
            throw new Error(
              `vmap: inAxes ${a} is out of range for argument ${i} of rank ${leaves[i].ndim}`,
            );
          }
          return axis;
        });
        return call(() => wasm.vmapBegin("vmap", handles, axesArr));
      });
    } catch (e) {
      for (const a of weak) a.dispose();
      throw e;
    }
    try {
      const res = call(() => wasm.vmapApply(t.jaxpr, t.handles, axesArr));
      return splitOutputs(t, res)[0];
    } finally {
      call(() => wasm.jaxprDispose(t.jaxpr));
      for (const a of [...t.temps, ...weak]) a.dispose();
    }
  });
}

function checkVector(name: string, x: unknown): asserts x is Array {
  if (!(x instanceof Array)) throw new TypeError(`${name}: the argument must be an Array`);
  if (x.ndim !== 1) {
    throw new TypeError(`${name} only supports 1D inputs, got shape [${x.shape.join(", ")}]`);
  }
  if (x.dtype !== "float32" && x.dtype !== "float64") {
    throw new TypeError(`${name}: the argument must be a float array, got ${x.dtype}`);
  }
}

/**
 * The options of a basis for `x`: its dtype, and its device when that is not the default (a
 * float64 `x` on cpu while webgpu is the default device), so the basis combines with `x`.
 */
function basisOptions(x: Array): { dtype: DType; device?: Device } {
  const device = x.device;
  return device === defaultDevice() ? { dtype: x.dtype } : { dtype: x.dtype, device };
}

/**
 * The Jacobian of `f` at a 1-D `x` by forward mode (one batched JVP), laid out as jax-js does:
 * `result[i] = ∂f/∂xᵢ`, shape `[n, ...outShape]`. A new array owned by the caller.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using J = jacfwd((v) => v.mul(v))(x); // [[2, 0], [0, 4]]
 * ```
 *
 * @typeParam F - The function differentiated: one 1-D Array in, an Array out.
 */
export function jacfwd<F extends (x: Array) => Array>(f: F): Transformed<F>;
export function jacfwd(f: Fn): (x: Array) => Array {
  return named("jacfwd", (x: Array) => {
    checkVector("jacfwd", x);
    const eye = numpy.eye(x.shape[0], undefined, basisOptions(x));
    try {
      return vmap((v: Array) => jvp(f, [x], [v])[1])(eye) as Array;
    } finally {
      eye.dispose();
    }
  });
}

/**
 * The Jacobian of `f` at a 1-D `x` by reverse mode (one batched VJP): `result[i] = ∂fᵢ/∂x`,
 * shape `[...outShape, n]` (jax-js's layout for its square case). A new array owned by the
 * caller.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3]);
 * using J = jacrev((v) => v.sum(0, { keepdims: true }))(x); // [[1, 1, 1]]
 * ```
 *
 * @typeParam F - The function differentiated: one 1-D Array in, an Array out.
 */
export function jacrev<F extends (x: Array) => Array>(f: F): Transformed<F>;
export function jacrev(f: Fn): (x: Array) => Array {
  return named("jacrev", (x: Array) => {
    checkVector("jacrev", x);
    const [y, fVjp] = vjp(f, [x]) as [unknown, ((ct: unknown) => unknown[]) & Disposable];
    try {
      if (!(y instanceof Array)) throw new TypeError("jacrev: the function must return one Array");
      const outShape = y.shape;
      const eye = numpy.eye(y.size, undefined, basisOptions(y));
      try {
        const rows = vmap((ct: Array) => fVjp(ct.reshape(outShape))[0] as Array)(eye) as Array;
        if (outShape.length === 1) return rows;
        const shaped = rows.reshape([...outShape, x.shape[0]]);
        rows.dispose();
        return shaped;
      } finally {
        eye.dispose();
      }
    } finally {
      tree.dispose(y as tree.JsTree<unknown>);
      fVjp[Symbol.dispose]();
    }
  });
}

/** Alias of `jacrev`. */
export const jacobian = jacrev;

/**
 * The Hessian of a scalar `f` at a 1-D `x`: `jacfwd(grad(f))`, the `[n, n]` matrix of second
 * derivatives. A new array owned by the caller.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using H = hessian((v) => v.mul(v).mul(v).sum())(x); // [[6, 0], [0, 12]]
 * ```
 *
 * @typeParam F - The function differentiated: one 1-D Array in, an Array out.
 */
export function hessian<F extends (x: Array) => Array>(f: F): Transformed<F>;
export function hessian(f: Fn): (x: Array) => Array {
  return jacfwd(grad(f) as (x: Array) => Array);
}

/** Frees linearized program `id` (made here: a closure in `linearize` would keep `fLin` alive). */
const freeLinearized = (id: number) => () => call(() => wasm.linearizeDispose(id));

/**
 * The linear function returned by `linearize`: call it with tangents (one per primal) to get the
 * JVP at the fixed primals (new arrays). It holds the forward pass's residuals until `dispose()`
 * (or `using`).
 */
export type LinearFn = ((...tangents: unknown[]) => unknown) & {
  /** Releases the residuals; calling the function afterwards is an error. */
  dispose(): void;
  /** What `using` calls: `dispose()` unless already disposed. */
  [Symbol.dispose](): void;
};

/**
 * `[out, fLin]` (with `hasAux`: `[out, fLin, aux]`): `out = f(...primals)`, and `fLin(...tangents)`
 * evaluates the JVP of `f` at those primals without re-running the forward pass. `out`, `aux` and
 * each result of `fLin` are new arrays owned by the caller; `fLin` owns the residuals: dispose it.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * const [y, fLin] = linearize((v) => v.mul(v), [x]);
 * using t = np.ones([2]);
 * using dy = fLin(t); // [2, 4]
 * y.dispose();
 * fLin.dispose();
 * ```
 */
export function linearize<F extends TracedFunction, const HA extends boolean = false>(
  f: F,
  primals: ArgsOf<F>,
  opts?: { hasAux?: HA },
): LinearizeResult<F, HA>;
export function linearize(f: Fn, primals: unknown[], opts: { hasAux?: boolean } = {}): unknown[] {
  checkOptions("linearize", opts);
  if (!globalThis.Array.isArray(primals)) {
    throw new TypeError("linearize: primals must be a list of arguments");
  }
  const primDef = tree.structure(primals as tree.JsTree<unknown>);
  const t = traceToJaxpr("linearize", f, primals, !!opts.hasAux, false);
  let opened: Float64Array;
  try {
    opened = call(() => wasm.linearizeBegin(t.jaxpr, t.handles, t.outDef.numLeaves));
  } finally {
    call(() => wasm.jaxprDispose(t.jaxpr));
    for (const a of t.temps) a.dispose();
  }
  const id = opened[0];
  const [out, aux] = splitOutputs(t, opened.subarray(1));
  let disposed = false;
  const fn = named("linearize", (...tangents: unknown[]) => {
    const [leaves, def] = tree.flatten(tangents as tree.JsTree<unknown>);
    if (!def.equals(primDef)) {
      throw new Error(
        `linearize: tangents must have the primals' structure ${primDef}, got ${def}`,
      );
    }
    leaves.forEach((l) => {
      if (!(l instanceof Array)) throw new TypeError("linearize: every tangent must be an Array");
    });
    const handles = new Float64Array((leaves as Array[]).map((l) => l._handle));
    const res = call(() => wasm.linearizeApply(id, handles));
    return tree.unflatten(
      t.outDef,
      globalThis.Array.from(res, (h) => new Array(h)),
    );
  }) as LinearFn;
  const token = {};
  fn.dispose = () => {
    call(() => wasm.linearizeDispose(id));
    unwatchOwner(token);
    disposed = true;
  };
  fn[Symbol.dispose] = () => {
    if (!disposed) fn.dispose();
  };
  // Dropped undisposed: its residuals go with it.
  watchOwner(fn, freeLinearized(id), token);
  return opts.hasAux ? [out, fn, aux] : [out, fn];
}
