/**
 * `lax.associativeScan`: an inclusive prefix scan with an associative `fn`, as ⌈log₂N⌉
 * Kogge–Stone rounds. Round `k` combines every element with the one `k` before it:
 * `next = concat(cur[:k], fn(cur[:N-k], cur[k:]))`. `fn` receives stacked operands (the scan
 * axis moved to the front, kept as a batch axis), as in JAX and jax-js. Only slices,
 * concatenates, flips and calls of `fn` — so it differentiates, vmaps and jits like any other
 * composition of operations. Eagerly (no trace open), the composition runs as a `jit` program
 * traced afresh per call: its structure finds the lowered Program in Rust's structural cache,
 * where devices that can (wasm) run it as one call. Inside a trace it is inlined.
 */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";
import { jit } from "../jit.js";
import * as numpy from "../numpy/index.js";
import * as tree from "../tree.js";

/** Options of `lax.associativeScan`. */
export interface AssociativeScanOptions {
  /** The scan axis (negative counts from the end). */
  axis?: number;
  /** A suffix scan: the elements are flipped, scanned, and flipped back (as JAX does). */
  reverse?: boolean;
}

type Combine = (a: any, b: any) => any;

/**
 * The inclusive scan of `elems` under an associative `fn`: element `i` of the result is
 * `fn(…fn(fn(x₀, x₁), x₂)…, xᵢ)`. `elems` is a pytree of arrays sharing the length N of axis
 * `axis` (default 0); `reverse` scans from the end (a suffix scan). `fn(a, b)` receives pytrees
 * whose leaves are *stacked* slices (the scan axis moved to the front, as a batch axis) and must
 * combine them element by element along it, returning the same structure.
 *
 * **How it runs.** ⌈log₂N⌉ Kogge–Stone rounds, each one call of `fn` on all pairs at once, built
 * from slices and concatenations, so it differentiates, vmaps and jits like any composition.
 * Called outside a trace it runs as a `jit` program traced for the call, whose lowered program
 * the structural cache finds again on later calls: on `wasm` one call of one generated module,
 * on `webgpu` one dispatch or a few. Inside a trace it is inlined. O(N log N) work in O(log N)
 * dependent rounds — suited to long sequences on webgpu (linear recurrences, Kalman filters in
 * associative form).
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
    if (opts.reverse) step((x) => numpy.flip(x, 0));
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
      const [cs, cdef] = tree.flatten(fn(tree.unflatten(def, a), tree.unflatten(def, b)));
      if (!cdef.equals(def)) {
        throw new Error(`${name}: fn must return the structure of elems ${def}, got ${cdef}`);
      }
      made.push(...cs.filter((c): c is Array => c instanceof Array));
      cs.forEach((c) => {
        if (!(c instanceof Array) || c.shape[0] !== n - k) {
          const got = c instanceof Array ? `shape [${c.shape}]` : typeof c;
          throw new Error(`${name}: fn must keep the leading (batch) axis of ${n - k}, got ${got}`);
        }
      });
      const next = cur.map((_, i) => numpy.concatenate([head[i], cs[i] as Array], 0));
      release([...made, ...cur]);
      made = [];
      cur = next;
    }
    if (opts.reverse) step((x) => numpy.flip(x, 0));
    if (axis !== 0) step((x) => numpy.moveaxis(x, 0, axis));
    return tree.unflatten(def, cur);
  } catch (e) {
    release([...made, ...cur]);
    throw e;
  }
}
