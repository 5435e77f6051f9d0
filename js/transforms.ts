/**
 * Transformations, bracketed from TypeScript (DESIGN.md decision 1): Rust opens a trace and
 * returns tracer handles, the user's function runs here on tracer Arrays, Rust closes the trace.
 * Rust never calls back into JavaScript. First member: `makeJaxpr`.
 */
import { call, wasm } from "./bridge.js";
import { Array } from "./array.js";
import { DType } from "./dtype.js";
import * as numpy from "./numpy/index.js";

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
 * Traces `f` on the arguments, then runs its Jaxpr forward and backward in Rust. Returns the
 * outputs (value, then aux arrays) and the gradients.
 */
function valueAndGradImpl(name: string, f: GradFn, opts: GradOptions, args: unknown[]) {
  const unknown = Object.keys(opts).filter((k) => !["argnums", "hasAux"].includes(k));
  if (unknown.length) throw new TypeError(`${name}: unknown option(s) ${unknown.join(", ")}`);
  const argnums = opts.argnums ?? 0;
  const nums = typeof argnums === "number" ? [argnums] : argnums;
  const temps: Array[] = [];
  const arrays = args.map((a, i) => {
    if (a instanceof Array) return a;
    if (typeof a === "number") {
      const t = numpy.array(a, { dtype: DType.Float32 });
      temps.push(t);
      return t;
    }
    throw new TypeError(
      `${name}: argument ${i} must be an Array or a number (pytrees are not supported yet)`,
    );
  });
  try {
    const handles = new Float64Array(arrays.map((a) => a._handle));
    const opened = call(() => wasm.traceBegin(name, handles));
    const frame = opened[0];
    const tracers = globalThis.Array.from(opened.subarray(1), (h) => new Array(h));
    let jaxpr: number;
    let auxCount = 0;
    let auxIsList = false;
    try {
      const result = f(...tracers);
      let outs: unknown[] = [result];
      if (opts.hasAux) {
        if (!globalThis.Array.isArray(result) || result.length !== 2) {
          throw new TypeError(`${name}: with hasAux the function must return [output, aux]`);
        }
        const aux = result[1];
        auxIsList = globalThis.Array.isArray(aux);
        const auxLeaves = auxIsList ? (aux as unknown[]) : [aux];
        auxCount = auxLeaves.length;
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
      const res = call(() => wasm.valueAndGrad(jaxpr, handles, new Uint32Array(nums)));
      const all = globalThis.Array.from(res, (h) => new Array(h));
      const value = all[0];
      const auxArrays = all.slice(1, 1 + auxCount);
      const grads = all.slice(1 + auxCount);
      const aux = auxIsList ? auxArrays : auxArrays[0];
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
