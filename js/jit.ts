/**
 * `jit`: traces a function once per input signature and runs the traced program through Rust,
 * where it is lowered to fused kernels (`src/lower`) and cached by structure. Nested calls
 * inline: while any trace is open (an outer `jit`, `grad`, `vjp`, …) the wrapper simply calls
 * the function, so compositions need no special rules. The wrapper owns its per-signature
 * traces and their captured constants until `dispose()` (or `using`), `clearCaches()`,
 * `checkLeaks.stop()`, or the garbage collector reclaiming it undisposed (`reclaim.ts`).
 */
import { call, wasm } from "./bridge.js";
import { Array } from "./array.js";
import * as numpy from "./numpy/index.js";
import * as tree from "./tree.js";
import { traceToJaxpr } from "./transforms.js";
import { onLeakCheck } from "./leaks.js";
import { memoryStats } from "./stats.js";
import { unwatchOwner, watchOwner } from "./reclaim.js";
import { named } from "./errors.js";
import type { OwnedFunction, TracedFunction, Transformed } from "./transform-types.js";

/** Options of `jit`. */
export interface JitOptions {
  /** Arguments passed by value (not traced); each distinct value compiles anew. */
  staticArgnums?: number | number[];
  /** Accepted for compatibility with the fork; references are always valid here. */
  validateRefs?: boolean;
}

export type { OwnedFunction } from "./transform-types.js";

interface Entry {
  /** The Rust compiled function. */
  id: number;
  outDef: tree.JsTreeDef;
}

/** The per-signature caches of every live wrapper (for `clearCaches` and `getCacheSizes`). */
const wrappers = new Set<Map<string, Entry>>();

function flush(cache: Map<string, Entry>): void {
  for (const e of cache.values()) call(() => wasm.jitDispose(e.id));
  cache.clear();
}

/**
 * What frees `cache` when its wrapper is collected undisposed. Made outside `jit`: a closure
 * there would share `jit`'s context, which holds the wrapper, and keep it alive.
 */
function releaseCache(cache: Map<string, Entry>): () => void {
  return () => {
    flush(cache);
    wrappers.delete(cache);
  };
}

/** Identity numbers for static arguments that are objects, functions or symbols. */
const identities = new WeakMap<object, number>();
const symbolIdentities = new Map<symbol, number>();
let nextIdentity = 1;

/**
 * A static argument as a JSON-able value: equal values (by content for numbers, strings,
 * lists and plain objects; by identity otherwise) give equal values, distinct ones distinct.
 */
function staticKey(v: unknown): unknown {
  if (v === null || v === undefined) return [String(v)];
  switch (typeof v) {
    case "number":
      return ["n", Object.is(v, -0) ? "-0" : String(v)];
    case "boolean":
    case "bigint":
      return [typeof v, String(v)];
    case "string":
      return ["s", v];
    case "symbol":
      if (!symbolIdentities.has(v)) symbolIdentities.set(v, nextIdentity++);
      return ["#", symbolIdentities.get(v)];
  }
  if (globalThis.Array.isArray(v)) return ["a", v.map(staticKey)];
  if (Object.getPrototypeOf(v) === Object.prototype) {
    const o = v as Record<string, unknown>;
    return ["o", Object.keys(o).map((k) => [k, staticKey(o[k])])];
  }
  const obj = v as object;
  if (!identities.has(obj)) identities.set(obj, nextIdentity++);
  return ["#", identities.get(obj)];
}

function staticNums(opts: JitOptions): number[] {
  const s = opts.staticArgnums ?? [];
  const nums = typeof s === "number" ? [s] : s;
  for (const n of nums) {
    if (!Number.isInteger(n) || n < 0) throw new Error(`jit: invalid staticArgnums entry ${n}`);
  }
  return nums;
}

/**
 * Compiles `f`: returns a function that traces `f` once per input signature and then runs the
 * traced program, lowered to fused kernels.
 *
 * - **Arguments** are pytrees of `Array`s or JS numbers (a number is a weak float32 scalar);
 *   `staticArgnums` marks arguments passed through as JS values (each distinct value compiles
 *   anew). A signature is the tree structure, each leaf's shape, dtype and weak type, and the
 *   static values; the traced program is lowered once per device it runs on.
 * - **Tracing** calls `f` with tracers: JavaScript side effects run only then, and reading a
 *   tracer (`data()`, `js()`, `item()`) throws. `using` inside `f` is harmless.
 * - **Lowering** (once per structure and device, cached globally by structure, so a fresh
 *   closure of the same code reuses it): element-wise chains, broadcasts and views fuse into
 *   their consumers and into reductions; kernels are split to the device's buffer limits;
 *   intermediates are freed at their last use. On `wasm` a program of small kernels runs as one
 *   call of one generated module; on `webgpu` as one dispatch or a few; otherwise kernel by
 *   kernel. Routines and scans run as steps of the program.
 * - **Ownership**: arguments are never consumed; outputs are new arrays owned by the caller. The
 *   returned function owns its traces and the arrays `f` captured: `dispose()` it (or `using`)
 *   when done; `clearCaches()` and `checkLeaks.stop()` release them too (it stays callable).
 * - Called while another trace is open (inside `grad`, `vmap`, a scan body, another `jit`), it
 *   simply calls `f`: the outer transformation decides what is compiled.
 *
 * @example
 * ```ts
 * using step = jit((w, x) => np.tanh(np.matmul(x, w)).sum());
 * using w = np.ones([3, 2]);
 * using x = np.ones([4, 3]);
 * using y = step(w, x); // traced and compiled on the first call, then reused
 * ```
 *
 * @typeParam F - The type of `f`; the returned function has its call signature.
 */
export function jit<F extends TracedFunction>(
  f: F,
  opts: JitOptions = {},
): OwnedFunction<Transformed<F>> {
  const unknown = Object.keys(opts).filter((k) => !["staticArgnums", "validateRefs"].includes(k));
  if (unknown.length) throw new TypeError(`jit: unknown option(s) ${unknown.join(", ")}`);
  if (typeof f !== "function") throw new TypeError("jit: expected a function");
  const user = f;
  const statics = staticNums(opts);
  const cache = new Map<string, Entry>();
  wrappers.add(cache);
  let disposed = false;

  const fn = named("jit", (...args: unknown[]) => {
    if (disposed) throw new Error("jit: the jitted function has been disposed");
    // Inside another trace the call is inlined: its operations join that trace.
    if (call(() => wasm.traceActive())) return user(...args);
    for (const n of statics) {
      if (n >= args.length) {
        throw new Error(`jit: staticArgnums ${n} is out of range for ${args.length} argument(s)`);
      }
    }
    const dynamic = args.filter((_, i) => !statics.includes(i));
    const [leaves, def] = tree.flatten(dynamic as tree.JsTree<unknown>);
    const temps: Array[] = [];
    try {
      const arrays = leaves.map((l, i) => {
        if (l instanceof Array) return l;
        if (typeof l === "number") {
          const t = numpy.array(l);
          temps.push(t);
          return t;
        }
        throw new TypeError(
          `jit: argument leaf ${i} is not an Array or a number (got ${typeof l})`,
        );
      });
      const handles = new Float64Array(arrays.map((a) => a._handle));
      // Structural (JSON of the parts), never printed text that a dict key could mimic; the
      // argument signature is a number.
      const sig = call(() => wasm.jitSignature(handles));
      const key = statics.length
        ? JSON.stringify([def.key(), statics.map((n) => staticKey(args[n])), sig])
        : `${sig}:${def.key()}`;
      let entry = cache.get(key);
      if (!entry) {
        const rebuild = (...dyn: unknown[]) => {
          const full: unknown[] = [];
          let d = 0;
          for (let i = 0; i < args.length; i++) full.push(statics.includes(i) ? args[i] : dyn[d++]);
          return user(...full);
        };
        const treeArgs = tree.unflatten(def, arrays) as unknown[];
        const t = traceToJaxpr("jit", rebuild, treeArgs, false, false);
        for (const a of t.temps) a.dispose();
        entry = { id: call(() => wasm.jitCompile(t.jaxpr)), outDef: t.outDef };
        cache.set(key, entry);
      }
      const id = entry.id;
      const res = call(() => wasm.jitRun(id, handles));
      return tree.unflatten(
        entry.outDef,
        globalThis.Array.from(res, (h) => new Array(h)),
      );
    } finally {
      for (const t of temps) t.dispose();
    }
  }) as unknown as OwnedFunction<Transformed<F>>;
  fn.dispose = () => {
    if (disposed) throw new Error("jit: the jitted function has already been disposed");
    flush(cache);
    wrappers.delete(cache);
    unwatchOwner(cache);
    disposed = true;
  };
  // Dropped undisposed: its programs go with it.
  watchOwner(fn, releaseCache(cache), cache);
  fn[Symbol.dispose] = () => {
    if (!disposed) fn.dispose();
  };
  return fn;
}

/** Drops each wrapper's traces and captured constants, and the lowered programs. */
function flushJit(): void {
  for (const cache of wrappers) flush(cache);
  call(() => wasm.clearProgramCache());
}

/**
 * Drops every cache: each jit wrapper's traces and captured constants (wrappers stay callable
 * and trace again), the global cache of lowered programs, scan plans, and each device's
 * compiled kernels and loops, shader pipelines, buffer pools and bind groups. Live arrays are
 * untouched. Use it to release memory after a phase of work, or to measure cold starts.
 *
 * @example
 * ```ts
 * clearCaches();
 * getCacheSizes().jitCompile; // 0
 * ```
 */
export function clearCaches(): void {
  flushJit();
  call(() => wasm.clearDeviceCaches());
}

/** What `getCacheSizes()` returns: entry counts of the jit caches. */
export interface CacheSizes {
  /** Lowered programs in the global program cache. */
  jitCompile: number;
  /** Derived-Jaxpr caches of the fork; oxjax derives these in Rust without caching. */
  jvpJaxpr: number;
  /** Always 0 in oxjax (the fork caches transposed Jaxprs; oxjax derives them without caching). */
  transposeJaxpr: number;
  /** Always 0 in oxjax (the fork caches batched Jaxprs; oxjax derives them without caching). */
  vmapJaxpr: number;
  /** Traced signatures held by live jit wrappers. */
  jitFunctions: number;
}

/**
 * Entry counts of the jit caches (diagnostics, with the fork's field names): lowered programs
 * (`jitCompile`) and traced signatures of live jit wrappers (`jitFunctions`).
 *
 * @example
 * ```ts
 * clearCaches();
 * using f = jit((x) => x.add(1));
 * using x = np.ones([2]);
 * using y = f(x);
 * getCacheSizes().jitFunctions; // 1
 * ```
 */
export function getCacheSizes(): CacheSizes {
  const stats = memoryStats();
  let traced = 0;
  for (const cache of wrappers) traced += cache.size;
  return {
    jitCompile: stats.programCache.entries,
    jvpJaxpr: 0,
    transposeJaxpr: 0,
    vmapJaxpr: 0,
    jitFunctions: traced,
  };
}

// Leak checks only need the constants gone: compiled kernels and pools are not leaks.
onLeakCheck(flushJit);
