/**
 * Transformations, bracketed from TypeScript (ARCHITECTURE.md, decision 1): Rust opens a trace
 * and returns tracer handles, the user's function runs here on tracer Arrays, Rust closes the
 * trace. Rust never calls back into JavaScript. Here: `makeJaxpr`, `grad`, `valueAndGrad`,
 * `vjp`, `jvp`.
 */
import { abortTrace, call, wasm } from "./bridge.js";
import { unwatchOwner, watchOwner } from "./reclaim.js";
import { Array } from "./array.js";
import { DType } from "./dtype.js";
import * as numpy from "./numpy/index.js";
import * as tree from "./tree.js";
import { named } from "./errors.js";
import type {
  ArgsOf,
  GradFunction,
  GradOptions,
  JvpResult,
  TracedFunction,
  ValueAndGradFunction,
  VjpResult,
} from "./transform-types.js";

/** Frees traced program `id` (a closure over nothing else, so it keeps no owner alive). */
const freeJaxpr = (id: number) => () => call(() => wasm.jaxprDispose(id));
/** Frees vjp program `id` (made here: a closure in `vjp` would keep `vjpFn` alive). */
const freeVjp = (id: number) => () => call(() => wasm.vjpDispose(id));

/**
 * A traced program (a Jaxpr) with the constants it captured, as `makeJaxpr` returns it. It owns
 * those constants until `dispose()` (or `using`). Print it with `toString()`.
 */
export class ClosedJaxpr {
  #id: number;
  #disposed = false;

  /** @internal */
  constructor(id: number) {
    this.#id = id;
    // Dropped undisposed: the program and its constants go with it.
    watchOwner(this, freeJaxpr(id), this);
  }

  /**
   * The program in JAX's notation.
   *
   * @example
   * ```ts
   * using x = np.ones([2]);
   * using j = makeJaxpr((v) => v.mul(2))(x).jaxpr;
   * j.toString(); // { lambda a:f32[2]. let b:f32[2] = mul a 2.0 in ( b ) } on several lines
   * ```
   */
  toString(): string {
    return call(() => wasm.jaxprText(this.#id));
  }

  /**
   * The same printout (jax-js spells it both ways).
   *
   * @example
   * ```ts
   * using x = np.ones([2]);
   * using j = makeJaxpr((v) => np.exp(v))(x).jaxpr;
   * j.pprint() === j.toString(); // true
   * ```
   */
  pprint(): string {
    return this.toString();
  }

  /**
   * Releases the program and its constants.
   *
   * @example
   * ```ts
   * using x = np.ones([2]);
   * const { jaxpr } = makeJaxpr((v) => v.add(x))(x); // x is captured as a constant
   * jaxpr.dispose(); // releases the program and its constant
   * ```
   */
  dispose(): void {
    call(() => wasm.jaxprDispose(this.#id));
    unwatchOwner(this);
    this.#disposed = true;
  }

  /**
   * What `using` calls: `dispose()` unless already disposed.
   *
   * @example
   * ```ts
   * using x = np.ones([2]);
   * using jaxpr = makeJaxpr((v) => v.add(1))(x).jaxpr; // released when the block ends
   * ```
   */
  [Symbol.dispose](): void {
    if (!this.#disposed) this.dispose();
  }
}

type Traceable = (...args: Array[]) => Array | Array[];

/**
 * Traces `f` on tracers shaped like `args` (arrays; not consumed) and returns `{ jaxpr }`, the
 * program in JAX's notation (`jaxpr.toString()`). Arrays from outside that `f` uses become
 * constants of the Jaxpr (printed before the `;`), owned by it: dispose the jaxpr when done. `f`
 * runs once, on tracers; nothing is computed.
 *
 * @example
 * ```ts
 * using x = np.ones([3]);
 * const { jaxpr } = makeJaxpr((v) => np.sin(v).mul(2))(x);
 * console.log(jaxpr.toString()); // { lambda a:f32[3]. let b:f32[3] = sin a … in ( c ) }
 * jaxpr.dispose();
 * ```
 */
export function makeJaxpr(f: Traceable): (...args: Array[]) => {
  /** The traced program, owning its constants. */
  jaxpr: ClosedJaxpr;
} {
  return (...args: Array[]) => {
    args.forEach((a, i) => {
      if (!(a instanceof Array)) {
        throw new TypeError(`makeJaxpr: argument ${i} is not an Array (got ${typeof a})`);
      }
    });
    const opened = call(() =>
      wasm.traceBegin("makeJaxpr", new Float64Array(args.map((a) => a._handle))),
    );
    const frame = opened[0];
    const tracers = globalThis.Array.from(opened.subarray(1), (h) => new Array(h));
    try {
      const result = f(...tracers);
      const outs = globalThis.Array.isArray(result) ? result : [result];
      outs.forEach((o, i) => {
        if (!(o instanceof Array)) {
          throw new TypeError(`makeJaxpr: output ${i} is not an Array (got ${typeof o})`);
        }
      });
      const handles = new Float64Array(outs.map((o) => o._handle));
      return { jaxpr: new ClosedJaxpr(call(() => wasm.traceEnd("makeJaxpr", frame, handles))) };
    } catch (e) {
      abortTrace(frame);
      throw e;
    } finally {
      // Tracer handles die with the trace; the Jaxpr owns everything it needs.
      for (const t of tracers) t[Symbol.dispose]();
    }
  };
}

export type { GradOptions } from "./transform-types.js";

type GradFn = (...args: any[]) => any;

/** @internal A function traced to a Jaxpr, with the pytree structure of its arguments and outputs. */
export interface Traced {
  jaxpr: number;
  handles: Float64Array;
  /** Per argument: its structure and the index of its first leaf. */
  argDefs: tree.JsTreeDef[];
  starts: number[];
  outDef: tree.JsTreeDef;
  auxDef: tree.JsTreeDef | null;
  /** Arrays made from JS numbers among the arguments, to dispose after use. */
  temps: Array[];
}

/**
 * @internal Traces `f` on `args` (pytrees of Arrays or numbers). The outputs are a pytree of
 * Arrays (`scalarOut`: one Array), with `[out, aux]` when `hasAux`. `open` starts the trace
 * from the argument leaves (default: tracers with the leaves' avals) and returns the frame id
 * followed by the tracer handles.
 */
export function traceToJaxpr(
  name: string,
  f: GradFn,
  args: unknown[],
  hasAux: boolean,
  scalarOut: boolean,
  open: (leaves: Array[], handles: Float64Array) => Float64Array = (_, h) =>
    call(() => wasm.traceBegin(name, h)),
): Traced {
  const temps: Array[] = [];
  const flat = args.map((a) => tree.flatten(a as tree.JsTree<unknown>));
  const leaves = flat.flatMap(([ls], i) =>
    ls.map((l) => {
      if (l instanceof Array) return l;
      if (typeof l === "number") {
        const t = numpy.array(l, { dtype: DType.Float32 });
        temps.push(t);
        return t;
      }
      throw new TypeError(`${name}: argument ${i} has a leaf that is not an Array or a number`);
    }),
  );
  const starts = flat.map((_, i) => flat.slice(0, i).reduce((n, [ls]) => n + ls.length, 0));
  const handles = new Float64Array(leaves.map((a) => a._handle));
  try {
    const opened = open(leaves, handles);
    const frame = opened[0];
    const tracers = globalThis.Array.from(opened.subarray(1), (h) => new Array(h));
    try {
      const treeArgs = flat.map(([, def], i) =>
        tree.unflatten(def, tracers.slice(starts[i], starts[i] + def.numLeaves)),
      );
      let result = f(...treeArgs);
      let auxDef: tree.JsTreeDef | null = null;
      let auxLeaves: unknown[] = [];
      if (hasAux) {
        if (!globalThis.Array.isArray(result) || result.length !== 2) {
          throw new TypeError(`${name}: with hasAux the function must return [output, aux]`);
        }
        [auxLeaves, auxDef] = tree.flatten(result[1] as tree.JsTree<unknown>);
        result = result[0];
      }
      if (scalarOut && !(result instanceof Array)) {
        throw new TypeError(`${name}: the output must be an Array, got ${typeof result}`);
      }
      const [outLeaves, outDef] = tree.flatten(result as tree.JsTree<unknown>);
      const outs = [...outLeaves, ...auxLeaves];
      outs.forEach((o, i) => {
        if (!(o instanceof Array)) {
          const what = i < outLeaves.length ? "output" : "aux";
          throw new TypeError(`${name}: every ${what} leaf must be an Array, got ${typeof o}`);
        }
      });
      const outHandles = new Float64Array((outs as Array[]).map((o) => o._handle));
      const jaxpr = call(() => wasm.traceEnd(name, frame, outHandles));
      return { jaxpr, handles, argDefs: flat.map(([, d]) => d), starts, outDef, auxDef, temps };
    } catch (e) {
      abortTrace(frame);
      throw e;
    }
  } catch (e) {
    for (const t of temps) t.dispose();
    throw e;
  }
}

/** @internal */
export function checkOptions(name: string, opts: object): void {
  const unknown = Object.keys(opts).filter((k) => !["argnums", "hasAux"].includes(k));
  if (unknown.length) throw new TypeError(`${name}: unknown option(s) ${unknown.join(", ")}`);
}

/** @internal Splits flat output handles into the output and aux pytrees. */
export function splitOutputs(t: Traced, handles: ArrayLike<number>): [unknown, unknown] {
  const all = globalThis.Array.from(handles, (h) => new Array(h));
  const n = t.outDef.numLeaves;
  const aux = t.auxDef ? tree.unflatten(t.auxDef, all.slice(n)) : undefined;
  return [tree.unflatten(t.outDef, all.slice(0, n)), aux];
}

/** Runs `f`'s Jaxpr forward and backward in Rust: the value, aux, and gradients (pytrees). */
function valueAndGradImpl(name: string, f: GradFn, opts: GradOptions, args: unknown[]) {
  checkOptions(name, opts);
  const argnums = opts.argnums ?? 0;
  const nums = typeof argnums === "number" ? [argnums] : argnums;
  for (const n of nums) {
    if (!Number.isInteger(n) || n < 0 || n >= args.length) {
      throw new Error(`${name}: argnums ${n} is out of range for ${args.length} argument(s)`);
    }
  }
  const t = traceToJaxpr(name, f, args, !!opts.hasAux, true);
  try {
    const wrt = nums.flatMap((n) =>
      globalThis.Array.from({ length: t.argDefs[n].numLeaves }, (_, k) => t.starts[n] + k),
    );
    const res = call(() => wasm.valueAndGrad(t.jaxpr, t.handles, new Uint32Array(wrt)));
    const outCount = 1 + (t.auxDef?.numLeaves ?? 0);
    const [value, aux] = splitOutputs(t, res.subarray(0, outCount));
    let next = outCount;
    const grads = nums.map((n) => {
      const def = t.argDefs[n];
      const g = tree.unflatten(
        def,
        globalThis.Array.from(res.subarray(next, next + def.numLeaves), (h) => new Array(h)),
      );
      next += def.numLeaves;
      return g;
    });
    return { value: value as Array, aux, grads: typeof argnums === "number" ? grads[0] : grads };
  } finally {
    call(() => wasm.jaxprDispose(t.jaxpr));
    for (const a of t.temps) a.dispose();
  }
}

/**
 * The gradient of a scalar-valued `f`: `grad(f)(...args)` returns `∂f/∂args[argnums]` (default
 * argument 0; a list of argnums gives a list of gradients), each a pytree shaped like its
 * argument. With `hasAux`, `f` returns `[output, aux]` and the call returns `[grads, aux]`.
 *
 * `f` must return a float scalar (`Array` of shape `[]`). It is traced once per call and
 * differentiated in reverse mode by oxjax's rules (every primitive has one, including scans,
 * sorts and linear algebra). Arguments are not consumed; the gradients (and `aux`) are new
 * arrays owned by the caller. Composes with itself (`grad(grad(f))`), `jit`, `vmap`; runs on the
 * device of the arguments.
 *
 * @example
 * ```ts
 * const f = (x) => x.mul(x).sum();
 * using x = np.array([1, 2, 3]);
 * using g = grad(f)(x); // [2, 4, 6]
 * ```
 */
export function grad<
  F extends TracedFunction,
  const I extends undefined | number | number[] = undefined,
  const HA extends boolean = false,
>(f: F, opts?: GradOptions<I, HA>): GradFunction<F, I, HA>;
export function grad(f: GradFn, opts: GradOptions = {}): GradFn {
  return named("grad", (...args: unknown[]) => {
    const { value, aux, grads } = valueAndGradImpl("grad", f, opts, args);
    value.dispose();
    return opts.hasAux ? [grads, aux] : grads;
  });
}

/**
 * Like `grad`, but returns `[value, grads]` (with `hasAux`: `[[value, aux], grads]`): the output
 * of `f` and its gradient from one forward and backward pass. All are new arrays owned by the
 * caller.
 *
 * @example
 * ```ts
 * using w = np.array([1, 2]);
 * const [loss, g] = valueAndGrad((v) => np.square(v).sum())(w); // loss = 5, g = [2, 4]
 * loss.dispose();
 * g.dispose();
 * ```
 */
export function valueAndGrad<
  F extends TracedFunction,
  const I extends undefined | number | number[] = undefined,
  const HA extends boolean = false,
>(f: F, opts?: GradOptions<I, HA>): ValueAndGradFunction<F, I>;
export function valueAndGrad(f: GradFn, opts: GradOptions = {}): GradFn {
  return named("valueAndGrad", (...args: unknown[]) => {
    const { value, aux, grads } = valueAndGradImpl("valueAndGrad", f, opts, args);
    return opts.hasAux ? [[value, aux], grads] : [value, grads];
  });
}

/**
 * The pullback returned by `vjp`: call it with cotangents shaped like `f`'s output to get the
 * cotangents of every primal (a list of pytrees, new arrays). It holds the forward pass's
 * residuals until `dispose()` (or `using`); it may be called any number of times.
 */
export type VjpFn = ((cotangents: unknown) => unknown[]) & {
  /** Releases the residuals; calling the function afterwards is an error. */
  dispose(): void;
  /** What `using` calls: `dispose()` unless already disposed. */
  [Symbol.dispose](): void;
};

/**
 * Reverse mode: `[out, vjpFn]` (with `hasAux`: `[out, vjpFn, aux]`). `out` is `f(...primals)`;
 * `vjpFn(cotangents)` — a pytree shaped like `out` — returns the cotangents of all primals, as a
 * list with one pytree per primal. `primals` are not consumed; `out`, `aux` and every result of
 * `vjpFn` are new arrays owned by the caller, and `vjpFn` itself owns the residuals: dispose it.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * const [y, vjpFn] = vjp((v) => v.mul(v), [x]);
 * using ct = np.ones([2]);
 * const [dx] = vjpFn(ct); // [2, 4]
 * for (const a of [y, dx, vjpFn]) a.dispose();
 * ```
 */
export function vjp<F extends TracedFunction, const HA extends boolean = false>(
  f: F,
  primals: ArgsOf<F>,
  opts?: { hasAux?: HA },
): VjpResult<F, HA>;
export function vjp(f: GradFn, primals: unknown[], opts: { hasAux?: boolean } = {}): unknown[] {
  checkOptions("vjp", opts);
  if (!globalThis.Array.isArray(primals))
    throw new TypeError("vjp: primals must be a list of arguments");
  const t = traceToJaxpr("vjp", f, primals, !!opts.hasAux, false);
  let opened: Float64Array;
  try {
    opened = call(() => wasm.vjpBegin(t.jaxpr, t.handles));
  } finally {
    call(() => wasm.jaxprDispose(t.jaxpr));
    for (const a of t.temps) a.dispose();
  }
  const id = opened[0];
  const [out, aux] = splitOutputs(t, opened.subarray(1));
  // Each output's shape, dtype and device: a number cotangent becomes an array like it.
  const outLikes = tree
    .leaves(out as tree.JsTree<Array>)
    .map((o) => ({ shape: o.shape, dtype: o.dtype, device: o.device }));
  let disposed = false;
  const fn = named("vjp", (cotangents: unknown) => {
    const [cts, def] = tree.flatten(cotangents as tree.JsTree<unknown>);
    if (!def.equals(t.outDef))
      throw new Error(`vjp: cotangents must have the output's structure ${t.outDef}, got ${def}`);
    const temps: Array[] = [];
    const handles = cts.map((c, i) => {
      if (c instanceof Array) return c._handle;
      if (typeof c !== "number") {
        throw new TypeError("vjp: every cotangent leaf must be an Array or a number");
      }
      const like = outLikes[i];
      const a = numpy.full(like.shape, c, { dtype: like.dtype, device: like.device });
      temps.push(a);
      return a._handle;
    });
    handles.push(...globalThis.Array(t.auxDef?.numLeaves ?? 0).fill(NaN));
    let res: Float64Array;
    try {
      res = call(() => wasm.vjpApply(id, new Float64Array(handles)));
    } finally {
      for (const a of temps) a.dispose();
    }
    const grads = globalThis.Array.from(res, (h) => new Array(h));
    return t.argDefs.map((d, i) =>
      tree.unflatten(d, grads.slice(t.starts[i], t.starts[i] + d.numLeaves)),
    );
  }) as VjpFn;
  const token = {};
  fn.dispose = () => {
    call(() => wasm.vjpDispose(id));
    unwatchOwner(token);
    disposed = true;
  };
  fn[Symbol.dispose] = () => {
    if (!disposed) fn.dispose();
  };
  // Dropped undisposed: its residuals go with it.
  watchOwner(fn, freeVjp(id), token);
  return opts.hasAux ? [out, fn, aux] : [out, fn];
}

/**
 * Forward mode: `[primalsOut, tangentsOut]` (with `hasAux`: `[primalsOut, tangentsOut, aux]`),
 * the outputs of `f` at `primals` and their directional derivatives along `tangents` (pytrees
 * matching `primals`). oxjax computes it by transposing the reverse-mode rules. Inputs are not
 * consumed; the outputs are new arrays owned by the caller.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2]);
 * using t = np.ones([2]);
 * const [y, dy] = jvp((v) => v.mul(v), [x], [t]); // y = [1, 4], dy = [2, 4]
 * y.dispose();
 * dy.dispose();
 * ```
 */
export function jvp<F extends TracedFunction, const HA extends boolean = false>(
  f: F,
  primals: ArgsOf<F>,
  tangents: ArgsOf<F>,
  opts?: { hasAux?: HA },
): JvpResult<F, HA>;
export function jvp(
  f: GradFn,
  primals: unknown[],
  tangents: unknown[],
  opts: { hasAux?: boolean } = {},
): unknown[] {
  checkOptions("jvp", opts);
  if (!globalThis.Array.isArray(primals) || !globalThis.Array.isArray(tangents)) {
    throw new TypeError("jvp: primals and tangents must be lists of arguments");
  }
  const [tanLeaves, tanDef] = tree.flatten(tangents as tree.JsTree<unknown>);
  const primDef = tree.structure(primals as tree.JsTree<unknown>);
  if (!tanDef.equals(primDef)) {
    throw new Error(`jvp: tangents must have the primals' structure ${primDef}, got ${tanDef}`);
  }
  tanLeaves.forEach((t) => {
    if (!(t instanceof Array)) throw new TypeError("jvp: every tangent leaf must be an Array");
  });
  const t = traceToJaxpr("jvp", f, primals, !!opts.hasAux, false);
  try {
    const tanHandles = new Float64Array((tanLeaves as Array[]).map((x) => x._handle));
    const n = t.outDef.numLeaves;
    const res = call(() => wasm.jvp(t.jaxpr, t.handles, tanHandles, n));
    const all = n + (t.auxDef?.numLeaves ?? 0);
    const [out, aux] = splitOutputs(t, res.subarray(0, all));
    const tan = tree.unflatten(
      t.outDef,
      globalThis.Array.from(res.subarray(all), (h) => new Array(h)),
    );
    return opts.hasAux ? [out, tan, aux] : [out, tan];
  } finally {
    call(() => wasm.jaxprDispose(t.jaxpr));
    for (const a of t.temps) a.dispose();
  }
}
