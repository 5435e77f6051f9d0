// The sweep's runner, shared by bench/sweep.mjs (Node, wasm) and bench/sweep_webgpu.ts (Deno,
// webgpu): times every case of sweep_cases.mjs on oxjax and on `@jax-js/jax` in one process —
// the first call at each size (kernel compilation included) and the steady state (median of
// repeated calls, each reading its outputs with `data()`) — and prints a markdown table sorted
// by how far each row is over its target (steady ≤ 1× jax-js, first call ≤ 2×), the worst on
// the last line; then what jax-js cannot run, what oxjax failed on, and a `SWEEP_JSON` line
// (which also gives each library's median minor page faults per steady call, `steadyFaults`).
import { E, M, FFT, NOT_TIMED, cases } from "./sweep_cases.mjs";

const env = (k) => globalThis.Deno?.env.get(k) ?? globalThis.process?.env?.[k];
const STEADY_MS = Number(env("SWEEP_STEADY_MS") ?? 60);
const MAX_RUNS = 25;
const SLOW_MS = 1000; // a first call this slow: one more call is the steady sample
const TOO_SLOW_MS = 5000; // a call this slow: larger sizes are not timed
// `SWEEP_CLOCK=cpu` (Node): process CPU time (user + system, all threads) instead of wall
// time, so other load on a shared machine counts less.
const cpuClock = env("SWEEP_CLOCK") === "cpu" && globalThis.process?.cpuUsage;
// Minor page faults of the process so far (Node only): a steady call whose fresh result buffer
// gets pages the allocator returned to the system pays ~1.7 ms per 4 MB in faults, whichever
// library made it (see bench/RESULTS.md, "the allocator's phase").
const faults = globalThis.process?.resourceUsage
  ? () => process.resourceUsage().minorPageFault
  : () => NaN;
const now = cpuClock
  ? () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    }
  : () => performance.now();

/** Iterator helpers (ES2025) for runtimes without them (Node 20): jax-js calls a few. */
export function shimIteratorHelpers() {
  const proto = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
  if (proto.map) return;
  const define = (name, fn) =>
    Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true });
  define("map", function* (f) {
    let i = 0;
    for (const v of this) yield f(v, i++);
  });
  define("filter", function* (f) {
    let i = 0;
    for (const v of this) if (f(v, i++)) yield v;
  });
  define("flatMap", function* (f) {
    let i = 0;
    for (const v of this) yield* f(v, i++);
  });
  define("take", function* (n) {
    if (n <= 0) return;
    for (const v of this) {
      yield v;
      if (--n <= 0) return;
    }
  });
  define("drop", function* (n) {
    for (const v of this) if (n-- <= 0) yield v;
  });
  define("toArray", function () {
    return [...this];
  });
  define("forEach", function (f) {
    let i = 0;
    for (const v of this) f(v, i++);
  });
  define("reduce", function (f, ...init) {
    let i = 0;
    let acc = init.length ? init[0] : undefined;
    let first = !init.length;
    for (const v of this) {
      if (first) ((acc = v), (first = false));
      else acc = f(acc, v, i);
      i++;
    }
    return acc;
  });
  define("some", function (f) {
    let i = 0;
    for (const v of this) if (f(v, i++)) return true;
    return false;
  });
  define("every", function (f) {
    let i = 0;
    for (const v of this) if (!f(v, i++)) return false;
    return true;
  });
  define("find", function (f) {
    let i = 0;
    for (const v of this) if (f(v, i++)) return v;
    return undefined;
  });
}

/** Every function name under `mod` (namespaces three deep). */
function exported(mod, prefix = "", out = new Set(), depth = 0) {
  for (const k of Object.keys(mod)) {
    const v = mod[k];
    if (typeof v === "function") out.add(prefix + k);
    else if (v && typeof v === "object" && depth < 3 && !ArrayBuffer.isView(v))
      exported(v, `${prefix}${k}.`, out, depth + 1);
  }
  return out;
}

const lookup = (mod, name) => name.split(".").reduce((o, k) => o?.[k], mod);

function mapArrays(x, Arr, f) {
  if (x instanceof Arr) return f(x);
  if (Array.isArray(x)) return x.map((v) => mapArrays(v, Arr, f));
  if (x && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype)
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, mapArrays(v, Arr, f)]));
  return x;
}
const disposeAll = (x, Arr) => mapArrays(x, Arr, (a) => a.dispose());

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Times one case at one size on library `lib`: { first, steady } in ms, or { error }. */
async function timeOne(lib, c, n) {
  const { mod, L } = lib;
  const f = lookup(mod, c.name);
  let setup;
  try {
    setup = c.make(L, n);
  } catch (e) {
    return { error: `setup: ${String(e?.message ?? e).split("\n")[0]}` };
  }
  let shapes = "";
  const call = async () => {
    const args = mapArrays(setup.args, mod.Array, L.keep);
    const out = setup.run ? setup.run(f, args) : f(...args);
    // Every output is read: jax-js evaluates lazily, and `blockUntilReady` leaves some
    // expressions (creation, random bits) unevaluated until their data is asked for.
    const outs = new Set();
    mapArrays(out, mod.Array, (a) => outs.add(a));
    shapes = JSON.stringify([...outs].map((a) => a.shape));
    await Promise.all([...outs].map((a) => a.data())); // consumes jax-js arrays
    // An output that is an argument itself (`positive`, `stopGradient`) stays the argument's.
    const inputs = new Set();
    mapArrays(args, mod.Array, (a) => inputs.add(a));
    if (!L.isJax) outs.forEach((a) => inputs.has(a) || a.dispose());
  };
  try {
    let t = now();
    await call();
    const first = now() - t;
    const samples = [];
    const faulted = [];
    const start = now();
    const runs = first > SLOW_MS ? 1 : MAX_RUNS;
    while (samples.length < runs && (samples.length < 3 || now() - start < STEADY_MS)) {
      t = now();
      const f = faults();
      await call();
      samples.push(now() - t);
      faulted.push(faults() - f);
    }
    const steadyFaults = median(faulted);
    return { first, steady: median(samples), runs: samples.length, shapes, steadyFaults };
  } catch (e) {
    return {
      error: String(e?.message ?? e)
        .split("\n")[0]
        .slice(0, 160),
    };
  } finally {
    try {
      disposeAll(setup.args, mod.Array);
      setup.free?.();
    } catch {
      /* a failed call may have consumed its arguments already */
    }
  }
}

const fmt = (ms) =>
  ms === undefined
    ? "—"
    : ms >= 1000
      ? `${(ms / 1000).toFixed(2)} s`
      : ms >= 1
        ? `${ms.toFixed(ms >= 100 ? 0 : 2)} ms`
        : `${(ms * 1000).toFixed(ms >= 0.1 ? 0 : 1)} µs`;
const sizeLabel = (c, n) =>
  c.sizes === M ? `${n}×${n}` : c.sizes === FFT ? `n=${n}` : n.toExponential(0).replace("+", "");

/** The run in progress (its rows so far), for [`reportSoFar`]. */
let partial = null;

/**
 * Prints the report of the rows timed so far (a run stopped by a time limit: the runners call
 * it on SIGTERM, so `timeout` still leaves a table and a `SWEEP_JSON` line).
 */
export function reportSoFar(log = console.log) {
  if (!partial) return;
  log(`\n(stopped early: ${partial.rows.length} rows timed)`);
  report(partial, log);
}

/** `SWEEP_PART=k/n` as [k, n] (part k of n, 1-based), or [1, 1] when unset. */
export function partOf(text = env("SWEEP_PART")) {
  if (!text) return [1, 1];
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m || +m[1] < 1 || +m[1] > +m[2]) throw new Error(`SWEEP_PART must be k/n, got ${text}`);
  return [+m[1], +m[2]];
}

/**
 * Runs the sweep: `ox` and `jax` are the two modules (already on the device), `filter` (a
 * regular expression) keeps the cases whose name it matches, `small` times only each case's
 * smallest size, `part` ([k, n]) keeps every n-th of those cases starting at the k-th (so the
 * heavy families spread over the parts).
 */
export async function sweep({
  ox,
  jax,
  device,
  filter = "",
  small = false,
  part = [1, 1],
  log = console.log,
}) {
  const libs = {
    ox: { mod: ox, L: { ...ox, keep: (x) => x } },
    jax: { mod: jax, L: { ...jax, keep: (x) => x.ref, isJax: true } },
  };
  const keep = new RegExp(filter);
  const [k, n] = part;
  const list = cases()
    .filter((c) => keep.test(c.name))
    .filter((_, i) => i % n === k - 1);
  const both = [...exported(ox)].filter((k) => exported(jax).has(k));
  const timed = new Set(cases().map((c) => c.name));
  const skipped = new Set(Object.keys(NOT_TIMED).flatMap((k) => k.split(" ")));
  const uncovered = both.filter((k) => !timed.has(k) && !skipped.has(k));
  const rows = [];
  const jaxFails = [];
  const oxFails = [];
  partial = { device, rows, jaxFails, oxFails, uncovered };
  for (const c of list) {
    if (!lookup(jax, c.name)) {
      jaxFails.push(`${c.name}: not exported by jax-js`);
      continue;
    }
    // A library that took over TOO_SLOW_MS at one size is not timed at the larger ones.
    const slow = { ox: null, jax: null };
    for (const n of small ? c.sizes.slice(0, 1) : c.sizes) {
      const time = async (k) => {
        if (slow[k]) return { error: `not timed: ${slow[k]}` };
        const t = await timeOne(libs[k], c, n);
        const worst = Math.max(t.first ?? 0, t.steady ?? 0);
        if (worst > TOO_SLOW_MS) slow[k] = `${fmt(worst)} at ${sizeLabel(c, n)}`;
        return t;
      };
      const o = await time("ox");
      const j = await time("jax");
      const label = `${c.name} ${sizeLabel(c, n)}`;
      if (o.error) oxFails.push(`${label}: ${o.error}`);
      if (!o.error && !j.error && o.shapes !== j.shapes)
        j.error = `output shapes ${j.shapes}, oxjax's ${o.shapes}: not comparable`;
      if (j.error) jaxFails.push(`${label}: ${j.error}`);
      if (o.error) continue;
      const row = { name: c.name, size: sizeLabel(c, n), ox: o, jax: j.error ? null : j };
      if (row.jax) {
        row.steadyRatio = o.steady / j.steady;
        row.firstRatio = o.first / j.first;
        row.badness = Math.max(row.steadyRatio, row.firstRatio / 2);
      } else row.badness = -1;
      rows.push(row);
      log(
        `# ${label}: ox ${fmt(o.first)} / ${fmt(o.steady)}; jax ${j.error ?? `${fmt(j.first)} / ${fmt(j.steady)}`}`,
      );
    }
  }
  const result = { device, rows, jaxFails, oxFails, uncovered };
  report(result, log);
  return result;
}

/**
 * Prints the sweep's table (rows sorted by how far they are over target, the worst last), what
 * jax-js cannot run, what oxjax failed on, the uncovered exports and the `SWEEP_JSON` line.
 */
export function report({ device, rows, jaxFails, oxFails, uncovered }, log = console.log) {
  rows.sort((a, b) => a.badness - b.badness);
  const r = (x) => (x === undefined ? "—" : `${x.toFixed(2)}×`);
  log(
    `\n## Sweep on ${device}: oxjax vs jax-js (rows sorted by max(steady ratio, first ratio / 2))\n`,
  );
  log(
    "| function | size | oxjax first | jax-js first | first ratio | oxjax steady | jax-js steady | steady ratio |",
  );
  log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const w of rows)
    log(
      `| ${w.name} | ${w.size} | ${fmt(w.ox.first)} | ${w.jax ? fmt(w.jax.first) : "n/a"} | ${r(w.firstRatio)} | ${fmt(w.ox.steady)} | ${w.jax ? fmt(w.jax.steady) : "n/a"} | ${r(w.steadyRatio)} |`,
    );
  const over = rows.filter((w) => w.steadyRatio > 1 || w.firstRatio > 2);
  log(`\n${rows.length} rows; ${over.length} over target (steady > 1× or first > 2×).`);
  log(`\n### jax-js cannot run (${jaxFails.length})\n`);
  jaxFails.forEach((s) => log(`- ${s}`));
  log(`\n### oxjax failed (${oxFails.length})\n`);
  oxFails.forEach((s) => log(`- ${s}`));
  if (uncovered.length)
    log(`\n### exported by both but not in the sweep\n\n${uncovered.join(" ")}`);
  log(`\nSWEEP_JSON ${JSON.stringify({ device, rows, jaxFails, oxFails, uncovered })}`);
}

export { E, M, FFT };
