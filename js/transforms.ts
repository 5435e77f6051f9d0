/**
 * Transformations, bracketed from TypeScript (DESIGN.md decision 1): Rust opens a trace and
 * returns tracer handles, the user's function runs here on tracer Arrays, Rust closes the trace.
 * Rust never calls back into JavaScript. First member: `makeJaxpr`.
 */
import { call, wasm } from "./bridge.js";
import { Array } from "./array.js";

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
