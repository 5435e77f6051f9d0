/**
 * `lax.scan`: the body is traced once per call with the begin/end brackets (ARCHITECTURE.md,
 * decision 1) on tracers of the carry and of one row of each xs, then Rust runs (or, inside a
 * trace, stages) the loop. Pytree structure and option parsing only; the loop and its
 * derivative live in Rust. `setScanPathCallback` reports each executed scan's path.
 */
import { abortTrace, call, setAfterCall, wasm } from "../bridge.js";
import { Array, type ArrayLike } from "../array.js";
import { DType } from "../dtype.js";
import * as numpy from "../numpy/index.js";
import * as tree from "../tree.js";
import type { JsTree, MapJsTree } from "../tree.js";

/**
 * A scan's execution path: `"fused"` (the loop compiled for the device) or `"fallback"` (the host
 * loop). The fork's finer names (`"compiled-loop"`, `"preencoded-routine"`,
 * `"preencoded-multi-step"`) are accepted in `acceptPath` as aliases of `"fused"`.
 */
export type ScanPath =
  "fused" | "fallback" | "compiled-loop" | "preencoded-routine" | "preencoded-multi-step";

/** Options of `lax.scan`. */
export interface ScanOptions {
  /** The number of steps; required when `xs` is null, else xs' leading size. */
  length?: number;
  /** Run from the last row of xs to the first (ys keep the rows' order). */
  reverse?: boolean;
  /**
   * Reverse mode: `true` (the default: ⌈√N⌉-step segments, recomputed), `false` (keep every
   * carry), or a segment length.
   */
  checkpoint?: boolean | number;
  /**
   * Throw unless the chosen path is listed (an empty list always throws); the error says which
   * path was chosen and why. Default: either path.
   */
  acceptPath?: ScanPath | ScanPath[];
  /** The older spelling of `acceptPath`. */
  requirePath?: ScanPath | ScanPath[];
}

/**
 * The callback of `setScanPathCallback`: called with the path a scan took, the device that ran it
 * (`"cpu"`, `"wasm"`, `"webgpu"`), and `info`: a `detail` string (on the fallback path, why the
 * loop was not compiled) and the scan's `length`.
 */
export type ScanPathCallback = (
  path: "fused" | "fallback",
  backend: string,
  info: { detail: string; length: number },
) => void;

let pathCallback: ScanPathCallback | null = null;

/**
 * Calls `cb(path, backend, info)` for every scan that runs — eagerly, inside `jit` programs, or
 * in gradients — right after the call that ran it; `null` stops. A scan nested in another scan's
 * compiled loop reports once per run of that loop, after it, with the detail
 * `"nested in a fused loop: ran K times …"` (`memoryStats().scan` counts all K runs). Useful to
 * find scans that fell back to the host loop, and why.
 *
 * @example
 * ```ts
 * setScanPathCallback((path, backend, { detail }) => console.log(path, backend, detail));
 * // … run scans …
 * setScanPathCallback(null);
 * ```
 */
export function setScanPathCallback(cb: ScanPathCallback | null): void {
  pathCallback = cb;
  call(() => wasm.setScanPathReporting(cb !== null));
  setAfterCall(cb ? reportScanPaths : null);
}

/** Delivers the path events of the scans run since the last call. */
function reportScanPaths(): void {
  if (!pathCallback) return;
  // Flat strings (no objects built inside the wasm call): path, backend, detail, length.
  const flat = wasm.scanPathEvents();
  for (let i = 0; i + 3 < flat.length; i += 4) {
    const path = flat[i] as "fused" | "fallback";
    pathCallback(path, flat[i + 1], { detail: flat[i + 2], length: Number(flat[i + 3]) });
  }
}

const PATHS: Record<ScanPath, number> = {
  fused: 1,
  "compiled-loop": 1,
  "preencoded-routine": 1,
  "preencoded-multi-step": 1,
  fallback: 2,
};

/** The accepted paths as bits (1 fused, 2 fallback). */
function acceptMask(opts: ScanOptions): number {
  const spec = opts.acceptPath ?? opts.requirePath;
  if (spec === undefined) return 3;
  const list = globalThis.Array.isArray(spec) ? spec : [spec];
  let mask = 0;
  for (const p of list) {
    if (!(p in PATHS)) {
      throw new TypeError(
        `scan: unknown path ${JSON.stringify(p)} in acceptPath (use ${Object.keys(PATHS).join(", ")})`,
      );
    }
    mask |= PATHS[p];
  }
  return mask;
}

/** The checkpoint segment: 0 for ⌈√N⌉, else the number of steps per segment. */
function segment(opts: ScanOptions): number {
  const c = opts.checkpoint ?? true;
  if (c === true) return 0;
  if (c === false) return 1;
  if (typeof c !== "number" || !Number.isInteger(c) || c < 1) {
    throw new TypeError(`scan: checkpoint must be true, false or a positive integer, got ${c}`);
  }
  return c;
}

function leavesOf(name: string, t: unknown, temps: Array[]): [Array[], tree.JsTreeDef] {
  const [ls, def] = tree.flatten(t as tree.JsTree<unknown>);
  const arrays = ls.map((l) => {
    if (l instanceof Array) return l;
    if (typeof l === "number") {
      const a = numpy.array(l, { dtype: DType.Float32 });
      temps.push(a);
      return a;
    }
    throw new TypeError(`scan: every ${name} leaf must be an Array or a number, got ${typeof l}`);
  });
  return [arrays, def];
}

/** The carry as the body sees it and scan returns it: number leaves of `init` become Arrays. */
export type Carried<C> = MapJsTree<C, number | boolean, Array>;

const OPTIONS = ["length", "reverse", "checkpoint", "acceptPath", "requirePath"];

/**
 * `lax.scan(f, init, xs, opts)`: runs `f(carry, x) → [newCarry, y]` over the rows of `xs` (axis
 * 0 of every leaf; `xs` may be `null` with `opts.length`) and returns `[finalCarry, ys]`, where
 * `ys` stacks every step's `y` along a new axis 0 (`null` when the body returns a null `y`).
 * `init`, `xs` and `y` are pytrees of arrays (JS numbers allowed, as float32); the carry must
 * keep its structure, shapes and dtypes. Options: `length`, `reverse`, `checkpoint`,
 * `acceptPath` (see `ScanOptions`).
 *
 * **How it runs.** The body is traced once per call into a `scan` primitive; then the device runs
 * the loop on the `"fused"` path where it can: on `wasm` one generated module runs every step (any
 * body: kernels, routines, nested scans); on `webgpu` a small body runs as one dispatch of a
 * looping shader and a larger one as every step pre-encoded into one submission. Otherwise —
 * always on `cpu` — the `"fallback"` path runs a host loop that evaluates the body step by step.
 * Both paths give the same values; `acceptPath`, `setScanPathCallback` and `memoryStats().scan`
 * tell or enforce which ran. Inside `jit`, `grad` or `vmap` the scan is staged into the outer
 * program.
 *
 * **Ownership.** `init`, `xs` and arrays the body captures are not consumed; `finalCarry` and
 * `ys` are new arrays owned by the caller (with length 0, `finalCarry` is `init` itself). The
 * body runs on tracers: what it creates belongs to the trace, and `using` inside it is a no-op.
 *
 * **Differentiation.** Reverse mode stores the carry every ⌈√N⌉ steps and recomputes the
 * segments (`checkpoint: true`, the default); the gradient is itself made of scans.
 *
 * @example
 * ```ts
 * using xs = np.array([1, 2, 3, 4]);
 * using zero = np.array(0);
 * const [total, running] = lax.scan((c, x) => {
 *   const s = c.add(x);
 *   return [s, s];
 * }, zero, xs);
 * // total = 10, running = [1, 3, 6, 10]
 * total.dispose();
 * running.dispose();
 * ```
 */
export function scan<
  C extends JsTree<ArrayLike>,
  X extends JsTree<Array> | null | undefined,
  Y extends JsTree<Array> | null | undefined,
>(
  f: (carry: Carried<C>, x: X) => [Carried<C>, Y],
  init: C,
  xs: X,
  opts?: ScanOptions,
): [Carried<C>, Y];
export function scan(
  f: (carry: any, x: any) => [any, any],
  init: unknown,
  xs: unknown,
  opts: ScanOptions = {},
): [any, any] {
  const unknown = Object.keys(opts).filter((k) => !OPTIONS.includes(k));
  if (unknown.length) throw new TypeError(`scan: unknown option(s) ${unknown.join(", ")}`);
  if (typeof f !== "function") throw new TypeError("scan: the body must be a function");
  const accept = acceptMask(opts);
  const checkpoint = segment(opts);
  const temps: Array[] = [];
  try {
    const [carry, carryDef] = leavesOf("carry", init, temps);
    const noXs = xs === null || xs === undefined;
    const [xLeaves, xDef] = noXs ? [[], null] : leavesOf("xs", xs, temps);
    let length = opts.length;
    if (length === undefined) {
      if (xLeaves.length === 0) throw new Error("scan: length is required when xs has no leaves");
      length = xLeaves[0].shape[0];
    }
    if (!Number.isInteger(length) || length < 0) {
      throw new TypeError(`scan: length must be a non-negative integer, got ${length}`);
    }
    const opened = call(() =>
      wasm.scanBegin(
        new Float64Array(carry.map((a) => a._handle)),
        new Float64Array(xLeaves.map((a) => a._handle)),
        length,
      ),
    );
    const frame = opened[0];
    const tracers = globalThis.Array.from(opened.subarray(1), (h) => new Array(h));
    let result: Float64Array;
    let yDef: tree.JsTreeDef;
    try {
      const c = tree.unflatten(carryDef, tracers.slice(0, carry.length));
      const x = xDef ? tree.unflatten(xDef, tracers.slice(carry.length)) : null;
      const out = f(c, x);
      if (!globalThis.Array.isArray(out) || out.length !== 2) {
        throw new TypeError("scan: the body must return [newCarry, y]");
      }
      const [newCarry, newDef] = tree.flatten(out[0] as tree.JsTree<unknown>);
      if (!newDef.equals(carryDef)) {
        throw new Error(
          `scan: the body must return a carry with the structure of init ${carryDef}, got ${newDef}`,
        );
      }
      const ys = tree.flatten(out[1] as tree.JsTree<unknown>);
      yDef = ys[1];
      const outs = [...newCarry, ...ys[0]];
      outs.forEach((o) => {
        if (!(o instanceof Array)) {
          throw new TypeError(`scan: the body must return Arrays as leaves, got ${typeof o}`);
        }
      });
      result = call(() =>
        wasm.scanEnd(
          frame,
          new Float64Array(carry.map((a) => a._handle)),
          new Float64Array(xLeaves.map((a) => a._handle)),
          new Float64Array((outs as Array[]).map((o) => o._handle)),
          length,
          !!opts.reverse,
          checkpoint,
          accept,
        ),
      );
    } catch (e) {
      // scanEnd closes the trace itself, even when it fails; aborting twice is harmless.
      abortTrace(frame);
      throw e;
    }
    const arrays = globalThis.Array.from(result, (h) => new Array(h));
    const nk = carry.length;
    let finalCarry: unknown;
    if (length === 0 && temps.length === 0) {
      // jax-js's identity return (ARCHITECTURE.md, decision 2): the init leaves themselves.
      for (const a of arrays.slice(0, nk)) a.dispose();
      finalCarry = init;
    } else {
      finalCarry = tree.unflatten(carryDef, arrays.slice(0, nk));
    }
    const ys = yDef.kind === "none" ? null : tree.unflatten(yDef, arrays.slice(nk));
    return [finalCarry, ys];
  } finally {
    for (const t of temps) t.dispose();
  }
}

/**
 * `body(i, carry)` for `i` from `lower` to `upper - 1` (an int32 scalar array), starting from
 * `init`: returns the final carry (a new pytree of arrays, owned by the caller). A `scan` over
 * `i`, so it runs on the same paths and differentiates with respect to the carry. The carry's
 * dtype must not change: give `init` its dtype explicitly (a bare number is weak float32).
 *
 * @example
 * ```ts
 * using one = np.array(1, { dtype: np.int32 });
 * using fact = lax.foriLoop(1, 6, (i, acc) => acc.mul(i), one); // 120
 * ```
 */
export function foriLoop<C extends JsTree<ArrayLike>>(
  lower: number,
  upper: number,
  body: (i: Array, carry: Carried<C>) => Carried<C>,
  init: C,
): Carried<C>;
export function foriLoop(
  lower: number,
  upper: number,
  body: (i: Array, carry: any) => any,
  init: any,
): any {
  for (const [what, v] of [
    ["lower", lower],
    ["upper", upper],
  ] as const) {
    if (!Number.isInteger(v)) throw new TypeError(`foriLoop: ${what} must be an integer, got ${v}`);
  }
  const n = Math.max(0, upper - lower);
  const is = numpy.arange(lower, lower + n, 1, { dtype: DType.Int32 });
  try {
    const [carry] = scan((c: any, i: Array) => [body(i, c), null], init, is, { length: n });
    return carry;
  } finally {
    is.dispose();
  }
}
