// Benchmark harness: the same eager workloads on oxjax (../pkg) and upstream jax-js, in one
// Node process. Prints a table and a final `BENCH_JSON {...}` line.
//
//   node bench/run.mjs [filter]     only workloads whose name contains `filter`
//   BENCH_CHAIN=n                   length of the dependent-add chain (default 10000)
//
// Ownership: oxjax never consumes its inputs (we dispose what we create); jax-js consumes every
// argument of every op and `dataSync()`/`data()` consume the array, so we pass `x.ref` to keep.
import * as ox from "../pkg/index.js";
import * as jax from "@jax-js/jax";

const CHAIN = Number(process.env.BENCH_CHAIN ?? 10_000);
const INDEP = 1_000;
const BIG = 1 << 20;
const WARM_MS = 300; // warm-up: call at least once and for at least this long (V8 tiers wasm up)
const MIN_MS = 200; // each sample repeats the workload until this much time has passed
const SAMPLES = 5; // median of this many samples
const SLOW_MS = 1_000; // a warm-up call this slow is itself the (single) sample

// Inputs are chosen so every result is exact in float32: outputs must match bit for bit.
const A4 = new Float32Array([1, 2, 3, 4]);
const B4 = new Float32Array([0.5, 0.25, -1, 2]);
const XB = Float32Array.from({ length: BIG }, (_, i) => i % 7);
const YB = Float32Array.from({ length: BIG }, (_, i) => (i % 5) * 0.5);

// A workload: `oxjax(np)` / `jaxjs(np)` build inputs and return `{ run(want), free() }`.
// `run(want)` does one iteration (may return a promise); with `want` it returns the output
// data for the cross-check. `per` divides the iteration time (µs per op); `bytes` gives GB/s.
/** A chain of `n` dependent adds on 4-element arrays, read back once. */
function chainWorkload(n) {
  return {
    name: `chain of ${n} dependent adds [4] + 1 read`,
    unit: "µs/op",
    per: n,
    oxjax(np) {
      const x0 = np.array(A4),
        y = np.array(B4);
      return {
        run() {
          let x = x0.add(y);
          for (let i = 1; i < n; i++) {
            const next = x.add(y);
            x.dispose();
            x = next;
          }
          const d = x.dataSync();
          x.dispose();
          return d;
        },
        free: () => (x0.dispose(), y.dispose()),
      };
    },
    jaxjs(np) {
      const x0 = np.array(A4),
        y = np.array(B4);
      return {
        run() {
          let x = x0.ref;
          for (let i = 0; i < n; i++) x = x.add(y.ref); // consumes the old x
          return x.dataSync(); // consumes x
        },
        free: () => (x0.dispose(), y.dispose()),
      };
    },
  };
}

/** oxjax: an array of `shape` (reshape makes a view; the flat original is disposed). */
function oxMatrix(np, data, shape) {
  const flat = np.array(data);
  const m = flat.reshape(shape);
  flat.dispose();
  return m;
}

/** An n×n float32 matmul (integer inputs: exact), waited for without a read-back. */
function matmulWorkload(n) {
  const a = Float32Array.from({ length: n * n }, (_, i) => (i % 7) - 3);
  const b = Float32Array.from({ length: n * n }, (_, i) => (i % 5) - 2);
  return {
    name: `matmul [${n}x${n}] float32`,
    unit: "ms",
    per: 1,
    cpu: n <= 128,
    flops: 2 * n * n * n,
    oxjax(np) {
      const x = oxMatrix(np, a, [n, n]),
        y = oxMatrix(np, b, [n, n]);
      return {
        run(want) {
          const z = np.matmul(x, y);
          const d = want ? z.dataSync() : undefined;
          z.dispose();
          return d;
        },
        free: () => (x.dispose(), y.dispose()),
      };
    },
    jaxjs(np) {
      const x = np.array(a).reshape([n, n]),
        y = np.array(b).reshape([n, n]);
      return {
        run(want) {
          const z = np.matmul(x.ref, y.ref);
          return want ? z.dataSync() : z.blockUntilReady().then((r) => r.dispose());
        },
        free: () => (x.dispose(), y.dispose()),
      };
    },
  };
}

const M4A = Float32Array.from({ length: 16 }, (_, i) => (i % 5) - 2);
const M4B = Float32Array.from({ length: 16 }, (_, i) => (i % 3) * 0.5);

const workloads = [
  chainWorkload(1_000),
  chainWorkload(CHAIN),
  {
    name: `${INDEP} independent adds [4], each dataSync`,
    unit: "µs/op",
    per: INDEP,
    oxjax(np) {
      const a = np.array(A4),
        b = np.array(B4);
      return {
        run() {
          let d;
          for (let i = 0; i < INDEP; i++) {
            const z = a.add(b);
            d = z.dataSync();
            z.dispose();
          }
          return d;
        },
        free: () => (a.dispose(), b.dispose()),
      };
    },
    jaxjs(np) {
      const a = np.array(A4),
        b = np.array(B4);
      return {
        run() {
          let d;
          for (let i = 0; i < INDEP; i++) d = a.ref.add(b.ref).dataSync();
          return d;
        },
        free: () => (a.dispose(), b.dispose()),
      };
    },
  },
  {
    name: `(x + y) * y on [${BIG}] float32`,
    unit: "ms",
    per: 1,
    bytes: 6 * 4 * BIG, // two ops, each reads two arrays and writes one
    oxjax(np) {
      const x = np.array(XB),
        y = np.array(YB);
      return {
        // oxjax executes eagerly on cpu/wasm: the result is complete when mul returns.
        run(want) {
          const t = x.add(y);
          const z = t.mul(y);
          t.dispose();
          const d = want ? z.dataSync() : undefined;
          z.dispose();
          return d;
        },
        free: () => (x.dispose(), y.dispose()),
      };
    },
    jaxjs(np) {
      const x = np.array(XB),
        y = np.array(YB);
      return {
        // jax-js is lazy: wait for the kernels to finish (without a read-back).
        run(want) {
          const z = x.ref.add(y.ref).mul(y.ref);
          return want ? z.dataSync() : z.blockUntilReady().then((r) => r.dispose());
        },
        free: () => (x.dispose(), y.dispose()),
      };
    },
  },
  {
    name: `${INDEP} matmuls [4x4], each dataSync`,
    unit: "µs/op",
    per: INDEP,
    oxjax(np) {
      const a = oxMatrix(np, M4A, [4, 4]),
        b = oxMatrix(np, M4B, [4, 4]);
      return {
        run() {
          let d;
          for (let i = 0; i < INDEP; i++) {
            const z = np.matmul(a, b);
            d = z.dataSync();
            z.dispose();
          }
          return d;
        },
        free: () => (a.dispose(), b.dispose()),
      };
    },
    jaxjs(np) {
      const a = np.array(M4A).reshape([4, 4]),
        b = np.array(M4B).reshape([4, 4]);
      return {
        run() {
          let d;
          for (let i = 0; i < INDEP; i++) d = np.matmul(a.ref, b.ref).dataSync();
          return d;
        },
        free: () => (a.dispose(), b.dispose()),
      };
    },
  },
  {
    name: `sum of [${BIG}] float32`,
    unit: "ms",
    per: 1,
    bytes: 4 * BIG,
    oxjax(np) {
      const x = np.array(XB);
      return {
        run() {
          const z = x.sum();
          const d = z.dataSync();
          z.dispose();
          return d;
        },
        free: () => x.dispose(),
      };
    },
    jaxjs(np) {
      const x = np.array(XB);
      return {
        run: () => x.ref.sum().dataSync(),
        free: () => x.dispose(),
      };
    },
  },
  matmulWorkload(128),
  matmulWorkload(256),
  matmulWorkload(512),
];

// Under jit: the elementwise chain tanh(2x+1)·exp(−x)+sin(x), fused by oxjax into one kernel.
// Transcendentals differ in the last bits between libraries, so outputs match within `rtol`.
const XS = Float32Array.from({ length: BIG }, (_, i) => Math.sin(i) * 3);
workloads.push({
  name: `jit chain tanh(2x+1)*exp(-x)+sin(x) on [${BIG}] float32`,
  unit: "ms",
  per: 1,
  bytes: 2 * 4 * BIG, // one read and one write when fused
  rtol: 1e-5,
  oxjax(np) {
    const x = np.array(XS);
    const f = ox.jit((v) => np.tanh(v.mul(2).add(1)).mul(np.exp(v.neg())).add(np.sin(v)));
    return {
      run(want) {
        const z = f(x);
        const d = want ? z.dataSync() : undefined;
        z.dispose();
        return d;
      },
      free: () => (x.dispose(), f.dispose()),
    };
  },
  jaxjs(np) {
    const x = np.array(XS);
    const f = jax.jit((v) => np.tanh(v.ref.mul(2).add(1)).mul(np.exp(v.ref.neg())).add(np.sin(v)));
    return {
      run(want) {
        const z = f(x.ref);
        return want ? z.dataSync() : z.blockUntilReady().then((r) => r.dispose());
      },
      free: () => (x.dispose(), f.dispose()),
    };
  },
});

// Sorting: float32 values with ties (so argsort's stability shows), read back. Both libraries
// must give the same bits (argsort: the same int32 permutation, read back as float32 bits).
// No -0.0: jax-js orders it before 0.0, oxjax (as JAX) keeps equal zeros in input order.
function sortWorkload(n, fn) {
  const data = Float32Array.from(
    { length: n },
    (_, i) => Math.round(Math.sin(i * 12.9898) * 4e4) / 8 + 0,
  );
  const read = (z) => (fn === "argsort" ? new Float32Array(z.dataSync().buffer) : z.dataSync());
  return {
    name: `${fn} of [${n}] float32`,
    unit: "ms",
    per: 1,
    cpu: n <= 100_000,
    oxjax(np) {
      const x = np.array(data);
      return {
        run(want) {
          const z = np[fn](x);
          const d = want ? read(z) : (z.dataSync(), undefined);
          z.dispose();
          return d;
        },
        free: () => x.dispose(),
      };
    },
    jaxjs(np) {
      const x = np.array(data);
      return {
        run: (want) => {
          const z = np[fn](x.ref);
          if (want) return read(z);
          z.dataSync();
        },
        free: () => x.dispose(),
      };
    },
  };
}
for (const n of [10_000, 100_000, 1_000_000]) workloads.push(sortWorkload(n, "sort"));
workloads.push(sortWorkload(100_000, "argsort"));

// np.fft.fft of complex float32 { real, imag } rows, read back (real then imag parts).
// Libraries round differently: outputs agree within 1e-5 of the largest magnitude.
function fftWorkload(n) {
  const re = Float32Array.from({ length: n }, (_, i) => ((i * 7919) % 1009) / 64 - 8);
  const im = Float32Array.from({ length: n }, (_, i) => ((i * 104729) % 1013) / 64 - 8);
  const both = (a, b) => {
    const out = new Float32Array(2 * n);
    out.set(a);
    out.set(b, n);
    return out;
  };
  return {
    name: `fft of [${n}] complex float32`,
    unit: "ms",
    per: 1,
    cpu: n <= 4096,
    tolOfMax: 1e-5,
    oxjax(np) {
      const x = { real: np.array(re), imag: np.array(im) };
      return {
        run(want) {
          const z = np.fft.fft(x);
          const out = both(z.real.dataSync(), z.imag.dataSync());
          z.real.dispose();
          z.imag.dispose();
          return want ? out : undefined;
        },
        free: () => (x.real.dispose(), x.imag.dispose()),
      };
    },
    jaxjs(np) {
      const x = { real: np.array(re), imag: np.array(im) };
      return {
        run(want) {
          const z = np.fft.fft({ real: x.real.ref, imag: x.imag.ref });
          const out = both(z.real.dataSync(), z.imag.dataSync());
          return want ? out : undefined;
        },
        free: () => (x.real.dispose(), x.imag.dispose()),
      };
    },
  };
}
for (const n of [1024, 4096, 1 << 20]) workloads.push(fftWorkload(n));

// The libraries × devices measured; `ratio` columns are relative to `base`.
const base = "jax-js wasm";
const targets = [
  { label: "oxjax wasm", make: (w) => (ox.defaultDevice("wasm"), w.oxjax(ox.numpy)) },
  { label: "oxjax cpu", make: (w) => (ox.defaultDevice("cpu"), w.oxjax(ox.numpy)) },
  { label: base, make: (w) => (jax.defaultDevice("wasm"), w.jaxjs(jax.numpy)) },
];

/** The cpu interpreter is far too slow for the large matmuls: those rows skip it. */
const skipped = (w, t) => t.label === "oxjax cpu" && w.cpu === false;

const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * Median time of one `run(false)` call in ms, over `samples` samples, plus the output of a
 * first `run(true)` call (the start of the warm-up). When that first call alone takes
 * ≥ SLOW_MS it is the only sample: warm-up effects are negligible at that scale.
 */
async function measure(run) {
  const w0 = now();
  const out = await run(true);
  const first = now() - w0;
  if (first >= SLOW_MS) return { ms: first, samples: 1, out };
  while (now() - w0 < WARM_MS) await run(false);
  const per = [];
  for (let s = 0; s < SAMPLES; s++) {
    let k = 0;
    const t = now();
    do {
      const r = run(false);
      if (r?.then) await r; // only async workloads pay for an await
      k++;
    } while (now() - t < MIN_MS);
    per.push((now() - t) / k);
  }
  return { ms: median(per), samples: SAMPLES, out };
}

function sameData(a, b, what, rtol = 0, tolOfMax = 0) {
  const fail = (msg) => {
    throw new Error(`MISMATCH in ${what}: ${msg}`);
  };
  if (!(a instanceof Float32Array) || !(b instanceof Float32Array)) {
    fail(`expected two Float32Arrays, got ${a?.constructor?.name} and ${b?.constructor?.name}`);
  }
  if (a.length !== b.length) fail(`lengths ${a.length} vs ${b.length}`);
  const atol = tolOfMax * b.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  for (let i = 0; i < a.length; i++) {
    const near =
      (rtol > 0 && Math.abs(a[i] - b[i]) <= rtol * Math.max(1, Math.abs(b[i]))) ||
      Math.abs(a[i] - b[i]) <= atol;
    if (!Object.is(a[i], b[i]) && !near) fail(`element ${i}: ${a[i]} vs ${b[i]}`);
  }
}

function liveCounts() {
  const s = ox.memoryStats();
  const out = { liveArrays: s.liveArrays };
  for (const [dev, d] of Object.entries(s.devices)) out[`${dev}.liveBuffers`] = d.liveBuffers;
  return out;
}

await jax.init("wasm");
const filter = process.argv[2] ?? "";
const results = [];
for (const w of workloads.filter((w) => w.name.includes(filter))) {
  const before = liveCounts();
  const row = { name: w.name, unit: w.unit, times: {}, samples: {} };
  const outputs = {};
  for (const t of targets) {
    if (skipped(w, t)) continue;
    const inst = t.make(w);
    try {
      const m = await measure((want) => inst.run(want));
      outputs[t.label] = m.out;
      row.times[t.label] = m.ms;
      row.samples[t.label] = m.samples;
    } finally {
      inst.free();
    }
  }
  for (const t of targets) {
    if (t.label !== base && !skipped(w, t))
      sameData(
        outputs[t.label],
        outputs[base],
        `"${w.name}" (${t.label} vs ${base})`,
        w.rtol,
        w.tolOfMax,
      );
  }
  const after = liveCounts();
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    throw new Error(
      `LEAK in oxjax after "${w.name}": ${JSON.stringify(before)} -> ${JSON.stringify(after)}`,
    );
  }
  results.push(row);
  console.log(`# done: ${w.name}`);
}

// Report: value per workload unit, ratio = oxjax / jax-js (< 1 means oxjax is faster).
const scale = (w, ms) => (w.unit === "µs/op" ? (ms * 1e3) / w.per : ms / w.per);
const fmt = (x) =>
  x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toPrecision(3);
const header = ["workload", "unit", ...targets.map((t) => t.label)];
for (const t of targets) if (t.label !== base) header.push(`${t.label} / ${base}`);
const rows = [header];
const json = { node: process.version, chain: CHAIN, base, workloads: [] };
for (const r of results) {
  const w = workloads.find((x) => x.name === r.name);
  const entry = { name: r.name, unit: w.unit, samples: r.samples, value: {}, ratio: {} };
  const cells = [r.name, w.unit];
  for (const t of targets) {
    if (skipped(w, t)) {
      cells.push("-");
      continue;
    }
    const v = scale(w, r.times[t.label]);
    entry.value[t.label] = v;
    let cell = fmt(v);
    if (w.bytes) {
      const gbps = w.bytes / (r.times[t.label] * 1e6);
      (entry.gbps ??= {})[t.label] = gbps;
      cell += ` (${gbps.toFixed(1)} GB/s)`;
    }
    if (w.flops) {
      const gflops = w.flops / (r.times[t.label] * 1e6);
      (entry.gflops ??= {})[t.label] = gflops;
      cell += ` (${gflops.toFixed(1)} GFLOP/s)`;
    }
    if (r.samples[t.label] === 1) cell += " [1 run]";
    cells.push(cell);
  }
  for (const t of targets) {
    if (t.label === base) continue;
    if (skipped(w, t)) {
      cells.push("-");
      continue;
    }
    entry.ratio[t.label] = r.times[t.label] / r.times[base];
    cells.push(`${fmt(entry.ratio[t.label])}x`);
  }
  rows.push(cells);
  json.workloads.push(entry);
}
const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const [i, r] of rows.entries()) {
  console.log(r.map((c, j) => (j < 2 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join("  "));
  if (i === 0) console.log(widths.map((n) => "-".repeat(n)).join("  "));
}
console.log(
  "ratio = oxjax time / jax-js time: below 1 means oxjax is faster. Outputs matched; no oxjax leaks.",
);
// Linearity of eager overhead: a chain of CHAIN ops against a chain of 1,000 (want ≤ CHAIN/1000).
const chainRow = (n) => results.find((r) => r.name === chainWorkload(n).name);
if (CHAIN !== 1_000 && chainRow(1_000) && chainRow(CHAIN)) {
  json.chainScaling = {};
  const parts = [];
  for (const t of targets) {
    const k = chainRow(CHAIN).times[t.label] / chainRow(1_000).times[t.label];
    json.chainScaling[t.label] = k;
    parts.push(`${t.label} ${k.toFixed(1)}x`);
  }
  console.log(`chain of ${CHAIN} / chain of 1000 (linear = ${CHAIN / 1000}x): ${parts.join(", ")}`);
}
console.log(`BENCH_JSON ${JSON.stringify(json)}`);
