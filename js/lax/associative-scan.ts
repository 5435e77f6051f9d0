/**
 * `lax.associativeScan`: an inclusive prefix scan with an associative `fn`. Up to `TREE_MAX`
 * elements it is ⌈log₂N⌉ Kogge–Stone rounds of slices, concatenates and calls of `fn`; longer
 * scans are one `lax.scan` whose step applies `fn` to the prefix so far and the next element,
 * or, on webgpu from `CHUNKED_MIN` elements, three phases over chunks (two such scans and one
 * application of `fn` per element), fewer dependent steps for a few more dispatches.
 * `fn` receives stacked operands (the scan axis moved to the front, kept as a batch axis), as in
 * JAX and jax-js. Both forms are compositions of operations, so they differentiate, vmap and jit
 * like any other. Eagerly (no trace open), the composition runs as a `jit` program traced afresh
 * per call: its structure finds the lowered Program in Rust's structural cache. Inside a trace
 * it is inlined.
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { jit } from "../jit.js";
import * as numpy from "../numpy/index.js";
import * as tree from "../tree.js";
import { scan } from "./scan.js";

/** Options of `lax.associativeScan`. */
export interface AssociativeScanOptions {
  /** The scan axis (negative counts from the end). */
  axis?: number;
  /** A suffix scan: the elements are flipped, scanned, and flipped back (as JAX does). */
  reverse?: boolean;
}

type Combine = (a: any, b: any) => any;

/**
 * The longest scan composed as Kogge–Stone rounds; longer ones are one `lax.scan`. Measured on
 * wasm (Node, Kalman composition, m = 2): at N = 100 both forms take about the same time
 * forward, and the rounds' jitted gradient — one module call — about half the scan's; at N =
 * 1000 the scan takes half as long forward and backward, and from N = 1600 its forward is
 * 10–16× faster.
 */
const TREE_MAX = 256;

/**
 * On webgpu, scans of at least this many elements run in three phases over `LANES` chunks
 * (`chunked`): L + LANES dependent steps instead of N, for a few more dispatches.
 */
const CHUNKED_MIN = 4096;
/** The chunks of the three-phase form (the lanes its first scan runs side by side). */
const LANES = 64;

/**
 * The inclusive scan of `elems` under an associative `fn`: element `i` of the result is
 * `fn(…fn(fn(x₀, x₁), x₂)…, xᵢ)`. `elems` is a pytree of arrays sharing the length N of axis
 * `axis` (default 0); `reverse` scans from the end (a suffix scan). `fn(a, b)` receives pytrees
 * whose leaves are *stacked* slices (the scan axis moved to the front, as a batch axis) and must
 * combine them element by element along it, returning the same structure.
 *
 * **How it runs.** Up to 256 elements: ⌈log₂N⌉ Kogge–Stone rounds, each one call of `fn` on
 * all pairs at once; the jitted program runs as one module call on `wasm` and one dispatch (or a
 * few) on `webgpu`. Longer: one `lax.scan` over the elements, its carry the prefix so far, each
 * step `fn(prefix, xᵢ)` on a batch of 1 (the first step takes x₀ itself) — on `wasm` one module
 * call, on `webgpu` one dispatch whose length is a runtime parameter, so a new N with the same
 * `fn` compiles no shader. N − 1 applications of `fn`: O(N) work. On `webgpu` from 4096
 * elements: 64 chunks scanned side by side, a scan over their totals, then `fn(prefix before
 * the chunk, local prefix)` on every element at once — about N/64 + 64 dependent steps, in a
 * few dispatches whose scans compile nothing new at a new N. Called outside a trace it runs
 * as a `jit` program traced for the call, whose lowered program the structural cache finds again
 * on later calls; inside a trace it is inlined.
 *
 * **Ownership.** `elems` is not consumed; the result is a new pytree of arrays owned by the
 * caller (with N ≤ 1 along axis 0, `elems` itself is returned).
 *
 * @example
 * ```ts
 * using x = np.array([1, 2, 3, 4, 5]);
 * using sums = lax.associativeScan((a, b) => a.add(b), x); // [1, 3, 6, 10, 15]
 * // suffix maxima: [5, 5, 5, 5, 5]
 * using maxes = lax.associativeScan((a, b) => np.maximum(a, b), x, { reverse: true });
 * ```
 */
export function associativeScan(
  fn: Combine,
  elems: unknown,
  opts: AssociativeScanOptions = {},
): unknown {
  const name = "associativeScan";
  const unknown = Object.keys(opts).filter((k) => !["axis", "reverse"].includes(k));
  if (unknown.length) throw new TypeError(`${name}: unknown option(s) ${unknown.join(", ")}`);
  if (typeof fn !== "function") throw new TypeError(`${name}: fn must be a function`);
  const [leaves, def] = tree.flatten(elems as tree.JsTree<unknown>);
  if (leaves.length === 0) throw new Error(`${name}: elems has no array leaves`);
  leaves.forEach((l) => {
    if (!(l instanceof Array)) throw new TypeError(`${name}: every leaf of elems must be an Array`);
  });
  const arrays = leaves as Array[];
  const rank = arrays[0].ndim;
  const axis = (opts.axis ?? 0) < 0 ? (opts.axis ?? 0) + rank : (opts.axis ?? 0);
  if (!Number.isInteger(axis) || arrays.some((a) => axis < 0 || axis >= a.ndim)) {
    throw new Error(`${name}: axis ${opts.axis} is out of range for leaves of rank ${rank}`);
  }
  const n = arrays[0].shape[axis];
  if (arrays.some((a) => a.shape[axis] !== n)) {
    const shapes = arrays.map((a) => `[${a.shape}]`).join(", ");
    throw new Error(`${name}: every leaf needs the same length along axis ${axis}: ${shapes}`);
  }
  if (n <= 1 && axis === 0) return elems;
  if (!call(() => wasm.traceActive())) {
    const run = jit((e: tree.JsTree<Array>) => associativeScan(fn, e, opts) as tree.JsTree<Array>);
    try {
      return run(elems as tree.JsTree<Array>);
    } finally {
      run.dispose();
    }
  }
  if (n <= TREE_MAX) return rounds(fn, def, arrays, axis, n, !!opts.reverse);
  const moved = axis === 0 ? arrays : arrays.map((x) => numpy.moveaxis(x, axis, 0));
  try {
    let out: Array[];
    if (moved[0].device === "webgpu" && n >= CHUNKED_MIN) {
      out = chunked(fn, def, moved, !!opts.reverse);
    } else {
      const { ys, last } = serial(fn, def, moved, !!opts.reverse);
      last.forEach((x) => x.dispose());
      out = ys;
    }
    if (axis === 0) return tree.unflatten(def, out);
    const back = out.map((y) => numpy.moveaxis(y, 0, axis));
    out.forEach((y) => y.dispose());
    return tree.unflatten(def, back);
  } finally {
    if (axis !== 0) moved.forEach((x) => x.dispose());
  }
}

/**
 * `fn(a, b)` on leaves stacked along a batch axis of `batch`, checked: the structure of elems,
 * each leaf keeping the batch axis and its operand's dtype and shape.
 */
function combine(fn: Combine, def: tree.JsTreeDef, a: Array[], b: Array[], batch: number): Array[] {
  const name = "associativeScan";
  const [cs, cdef] = tree.flatten(fn(tree.unflatten(def, a), tree.unflatten(def, b)));
  const problem = (): string | null => {
    if (!cdef.equals(def)) return `fn must return the structure of elems ${def}, got ${cdef}`;
    for (const [i, c] of cs.entries()) {
      if (!(c instanceof Array) || c.shape[0] !== batch) {
        const got = c instanceof Array ? `shape [${c.shape}]` : typeof c;
        return `fn must keep the leading (batch) axis of ${batch}, got ${got}`;
      }
      const w = b[i];
      if (c.dtype !== w.dtype || c.ndim !== w.ndim || c.shape.some((d, k) => d !== w.shape[k])) {
        return `fn must return leaves like its operands: ${w.dtype}[${w.shape}], got ${c.dtype}[${c.shape}]`;
      }
    }
    return null;
  };
  const why = problem();
  if (why !== null) {
    const inputs = new Set([...a, ...b]);
    for (const c of new Set(cs)) if (c instanceof Array && !inputs.has(c)) c.dispose();
    throw new Error(`${name}: ${why}`);
  }
  return cs as Array[];
}

/**
 * The inclusive scan of `xs` (leaves stacked along axis 0) as one `lax.scan`: the carry is the
 * prefix so far and a flag that turns true after the first step, which takes its element itself
 * — so `fn` only ever sees elements and prefixes, never a placeholder. With `lanes`, each row
 * is already a batch of `lanes` independent elements (scanned side by side); without, each row
 * is one element, given to `fn` as a batch of 1. Returns the stacked prefixes and the last one.
 */
function serial(
  fn: Combine,
  def: tree.JsTreeDef,
  xs: Array[],
  reverse: boolean,
  lanes?: number,
): { ys: Array[]; last: Array[] } {
  const batch = lanes ?? 1;
  const rest = (x: Array) => x.shape.slice(lanes === undefined ? 1 : 2);
  // Placeholders (zeros for the first prefix, never passed to fn; the flag), uncommitted on the
  // default device: small enough to keep their bytes on the host, so a program on another
  // device takes them without a device read.
  const zeros = xs.map((x) => numpy.zeros([batch, ...rest(x)], { dtype: x.dtype }));
  const started = numpy.array(false);
  try {
    const [carry, ys] = scan(
      (c: { acc: Array[]; started: Array }, row: Array[]) => {
        const x = lanes === undefined ? row.map((r) => r.reshape([1, ...r.shape])) : row;
        const a = c.acc.map((p, i) => numpy.where(c.started, p, x[i]));
        const s = combine(fn, def, a, x, batch).map((v, i) => numpy.where(c.started, v, x[i]));
        const next = { acc: s, started: c.started.equal(c.started) };
        return [next, lanes === undefined ? s.map((v) => v.reshape(v.shape.slice(1))) : s];
      },
      { acc: zeros, started },
      xs,
      { reverse },
    );
    carry.started.dispose();
    return { ys: ys as Array[], last: carry.acc };
  } finally {
    zeros.forEach((z) => z.dispose());
    started.dispose();
  }
}

/**
 * The inclusive scan of `xs` (leaves stacked along axis 0, N of them) in three phases over
 * `LANES` chunks of L = ⌈N / LANES⌉ consecutive elements (the last element repeated to fill
 * them: padding after the end changes no prefix before it): one scan over L rows of the chunks
 * side by side (each chunk's own prefixes), one over the chunks' totals (the prefix before each
 * chunk), then `fn(prefix before chunk c, local prefix)` on every element of chunks 1… at once.
 * Both scans' bodies have shapes independent of N; 2N applications of `fn` in L + LANES steps.
 */
function chunked(fn: Combine, def: tree.JsTreeDef, xs: Array[], reverse: boolean): Array[] {
  const n = xs[0].shape[0];
  const len = Math.ceil(n / LANES);
  const made: Array[] = [];
  const keep = <T extends Array | Array[]>(x: T): T => {
    if (x instanceof Array) made.push(x);
    else made.push(...x);
    return x;
  };
  const firstLane = numpy.array(globalThis.Array.from({ length: LANES }, (_, i) => i === 0));
  let outs: Array[] = [];
  try {
    const rows = xs.map((x) => {
      const rest = x.shape.slice(1);
      let v = reverse ? keep(numpy.flip(x, 0)) : x;
      if (len * LANES > n) {
        const last = keep(v.slice([n - 1, n]));
        const fill = keep(numpy.broadcastTo(last, [len * LANES - n, ...rest]));
        v = keep(numpy.concatenate([v, fill], 0));
      }
      const chunks = keep(v.reshape([LANES, len, ...rest]));
      return keep(numpy.moveaxis(chunks, 0, 1)); // [L, LANES, ...]
    });
    const local = serial(fn, def, rows, false, LANES);
    keep(local.ys);
    keep(local.last);
    const totals = serial(fn, def, local.last, false);
    keep(totals.ys);
    keep(totals.last);
    const size = len * LANES;
    // Chunk c ≥ 1 combines with the prefix before it, totals c − 1; chunk 0's slot gets totals 0
    // (a real prefix, so fn never sees a placeholder) and keeps its own prefixes.
    const wide = xs.map((x, i) => {
      const rest = x.shape.slice(1);
      const head = keep(totals.ys[i].slice([0, 1]));
      const body = keep(totals.ys[i].slice([0, LANES - 1]));
      const before = keep(numpy.concatenate([head, body], 0));
      const lanes = keep(numpy.broadcastTo(before, [len, LANES, ...rest]));
      return keep(lanes.reshape([size, ...rest]));
    });
    const flat = local.ys.map((y, i) => keep(y.reshape([size, ...xs[i].shape.slice(1)])));
    const joined = keep(combine(fn, def, wide, flat, size));
    outs = xs.map((x, i) => {
      const rest = x.shape.slice(1);
      const all = keep(joined[i].reshape([len, LANES, ...rest]));
      const mask = keep(firstLane.reshape([1, LANES, ...rest.map(() => 1)]));
      const picked = keep(numpy.where(mask, local.ys[i], all));
      const chunks = keep(numpy.moveaxis(picked, 1, 0)); // [LANES, L, ...]
      const ordered = keep(chunks.reshape([size, ...rest]));
      const out = ordered.slice([0, n]);
      if (!reverse) return out;
      keep(out);
      return numpy.flip(out, 0);
    });
    return outs;
  } finally {
    firstLane.dispose();
    const results = new Set(outs);
    for (const x of new Set(made)) if (!results.has(x)) x.dispose();
  }
}

/**
 * The inclusive scan of `arrays` along `axis` as ⌈log₂N⌉ Kogge–Stone rounds: round `k` combines
 * every element with the one `k` before it, `next = concat(cur[:k], fn(cur[:N-k], cur[k:]))`.
 * Each round is one call of `fn` on all pairs at once; a jitted program of them runs as one
 * module call on wasm and one dispatch (or a few stages) on webgpu.
 */
function rounds(
  fn: Combine,
  def: tree.JsTreeDef,
  arrays: Array[],
  axis: number,
  n: number,
  reverse: boolean,
): unknown {
  const inputs = new Set<Array>(arrays);
  const release = (xs: Iterable<Array>) => {
    for (const x of new Set(xs)) if (!inputs.has(x)) x[Symbol.dispose]();
  };
  let cur = arrays;
  // Arrays made in the current round, released once the round's result exists (or on error).
  let made: Array[] = [];
  const step = (f: (x: Array) => Array) => {
    const next = cur.map(f);
    release(cur.filter((x, i) => x !== next[i]));
    cur = next;
  };
  try {
    if (axis !== 0) step((x) => numpy.moveaxis(x, axis, 0));
    if (reverse) step((x) => numpy.flip(x, 0));
    for (let k = 1; k < n; k *= 2) {
      made = [];
      const rows = (start: number, end: number) =>
        cur.map((x) => {
          const r = x.slice([start, end]);
          made.push(r);
          return r;
        });
      const a = rows(0, n - k);
      const b = rows(k, n);
      const head = rows(0, k);
      const cs = combine(fn, def, a, b, n - k);
      made.push(...cs);
      const next = cur.map((_, i) => numpy.concatenate([head[i], cs[i]], 0));
      release([...made, ...cur]);
      made = [];
      cur = next;
    }
    if (reverse) step((x) => numpy.flip(x, 0));
    if (axis !== 0) step((x) => numpy.moveaxis(x, 0, axis));
    return tree.unflatten(def, cur);
  } catch (e) {
    release([...made, ...cur]);
    throw e;
  }
}
