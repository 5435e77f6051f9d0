/**
 * Transformations, bracketed from TypeScript (DESIGN.md decision 1): Rust opens a trace and
 * returns tracer handles, the user's function runs here on tracer Arrays, Rust closes the trace.
 * Rust never calls back into JavaScript. First member: `makeJaxpr`.
 */
import { call, wasm } from "./bridge.js";
import { Array } from "./array.js";
import { DType } from "./dtype.js";
import * as numpy from "./numpy/index.js";
import * as tree from "./tree.js";

/** A traced program with the constants it captured. Owns them until `dispose()`. */
export class ClosedJaxpr {
  #id: number;
  #disposed = false;

  /** @internal */
  constructor(id: number) {
    this.#id = id;
  }

  /** The program in JAX's notation. */
  toString(): string {
    return call(() => wasm.jaxprText(this.#id));
  }

  /** The same printout (jax-js spells it both ways). */
  pprint(): string {
    return this.toString();
  }

  dispose(): void {
    call(() => wasm.jaxprDispose(this.#id));
    this.#disposed = true;
  }

  [Symbol.dispose](): void {
    if (!this.#disposed) this.dispose();
  }
}

type Traceable = (...args: Array[]) => Array | Array[];

/**
 * Traces `f` on arrays shaped like `args` and returns its Jaxpr. Outer arrays used inside `f`
 * become constants of the Jaxpr (printed before the `;`).
 */
export function makeJaxpr(f: Traceable): (...args: Array[]) => { jaxpr: ClosedJaxpr } {
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
      call(() => wasm.traceAbort(frame));
      throw e;
    } finally {
      // Tracer handles die with the trace; the Jaxpr owns everything it needs.
      for (const t of tracers) t[Symbol.dispose]();
    }
  };
}

export interface GradOptions {
  /** Which arguments to differentiate: an index (the gradient alone) or a list (a tuple). */
  argnums?: number | number[];
  /** `f` returns `[output, aux]`; aux comes back beside the gradient. */
  hasAux?: boolean;
}

type GradFn = (...args: any[]) => any;

/**
 * Traces `f` on the arguments (pytrees of Arrays or numbers), then runs its Jaxpr forward and
 * backward in Rust. Returns the value, the aux pytree and the gradients (pytrees shaped like
 * the differentiated arguments).
 */
function valueAndGradImpl(name: string, f: GradFn, opts: GradOptions, args: unknown[]) {
  const unknown = Object.keys(opts).filter((k) => !["argnums", "hasAux"].includes(k));
  if (unknown.length) throw new TypeError(`${name}: unknown option(s) ${unknown.join(", ")}`);
  const argnums = opts.argnums ?? 0;
  const nums = typeof argnums === "number" ? [argnums] : argnums;
  for (const n of nums) {
    if (!Number.isInteger(n) || n < 0 || n >= args.length) {
      throw new Error(`${name}: argnums ${n} is out of range for ${args.length} argument(s)`);
    }
  }
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
  // Leaf indices of each argument in the flat list.
  const starts = flat.map((_, i) => flat.slice(0, i).reduce((n, [ls]) => n + ls.length, 0));
  try {
    const handles = new Float64Array(leaves.map((a) => a._handle));
    const opened = call(() => wasm.traceBegin(name, handles));
    const frame = opened[0];
    const tracers = globalThis.Array.from(opened.subarray(1), (h) => new Array(h));
    let jaxpr: number;
    let auxDef: tree.JsTreeDef | null = null;
    try {
      const treeArgs = flat.map(([, def], i) =>
        tree.unflatten(def, tracers.slice(starts[i], starts[i] + def.numLeaves)),
      );
      const result = f(...treeArgs);
      let outs: unknown[] = [result];
      if (opts.hasAux) {
        if (!globalThis.Array.isArray(result) || result.length !== 2) {
          throw new TypeError(`${name}: with hasAux the function must return [output, aux]`);
        }
        const [auxLeaves, def] = tree.flatten(result[1] as tree.JsTree<unknown>);
        auxDef = def;
        outs = [result[0], ...auxLeaves];
      }
      outs.forEach((o, i) => {
        if (!(o instanceof Array)) {
          throw new TypeError(
            `${name}: ${i === 0 ? "the output" : "aux"} must be an Array, got ${typeof o}`,
          );
        }
      });
      const outHandles = new Float64Array((outs as Array[]).map((o) => o._handle));
      jaxpr = call(() => wasm.traceEnd(name, frame, outHandles));
    } catch (e) {
      call(() => wasm.traceAbort(frame));
      throw e;
    }
    try {
      const wrt = nums.flatMap((n) => flat[n][0].map((_, k) => starts[n] + k));
      const res = call(() => wasm.valueAndGrad(jaxpr, handles, new Uint32Array(wrt)));
      const all = globalThis.Array.from(res, (h) => new Array(h));
      const auxCount = auxDef ? auxDef.numLeaves : 0;
      const value = all[0];
      const aux = auxDef ? tree.unflatten(auxDef, all.slice(1, 1 + auxCount)) : undefined;
      let next = 1 + auxCount;
      const grads = nums.map((n) => {
        const def = flat[n][1];
        const g = tree.unflatten(def, all.slice(next, next + def.numLeaves));
        next += def.numLeaves;
        return g;
      });
      return { value, aux, grads: typeof argnums === "number" ? grads[0] : grads };
    } finally {
      call(() => wasm.jaxprDispose(jaxpr));
    }
  } finally {
    for (const t of temps) t.dispose();
  }
}

/** The gradient of a scalar function with respect to argument(s) `argnums` (default 0). */
export function grad(f: GradFn, opts: GradOptions = {}): GradFn {
  return (...args: unknown[]) => {
    const { value, aux, grads } = valueAndGradImpl("grad", f, opts, args);
    value.dispose();
    return opts.hasAux ? [grads, aux] : grads;
  };
}

/** `[value, grads]` (with hasAux: `[[value, aux], grads]`). */
export function valueAndGrad(f: GradFn, opts: GradOptions = {}): GradFn {
  return (...args: unknown[]) => {
    const { value, aux, grads } = valueAndGradImpl("valueAndGrad", f, opts, args);
    return opts.hasAux ? [[value, aux], grads] : [value, grads];
  };
}
