// The wasm device on every core, in Deno (`deno run -A bench/threads.mjs [filter]`) or Node
// (`node bench/threads.mjs [filter]`: worker_threads), after `node scripts/build.mjs`: oxjax
// (../pkg) on 1 thread and on all cores (`init({ wasmThreads })`; BENCH_THREADS overrides the
// count; BENCH_ROUNDS=R alternates the two R times, for a shared machine) side by side with upstream jax-js (@jax-js/jax, path in JAXJS or ../node_modules) on
// its `wasm` device, which runs its own worker pool in Deno and one thread in Node (it has no
// global `Worker` there). One process.
// Each timing is one call followed by a wait for its result (blockUntilReady), median of
// samples that each repeat for at least 200 ms after a warm-up; the 1,000 small ops are
// timed per op. Outputs of oxjax on 1 and N threads must match bit for bit, and jax-js's
// within 1e-5 (the transcendental chain) or exactly (the rest). Prints a markdown table, the
// date, commit and machine, and `BENCH_JSON {...}`.
import * as ox from "../pkg/index.js";

const Deno = globalThis.Deno;
const env = (name) => (Deno ? Deno.env.get(name) : process.env[name]);
const jaxPath = env("JAXJS") ?? "../node_modules/@jax-js/jax/dist/index.js";
const jax = await import(new URL(jaxPath, import.meta.url).href);
const filter = (Deno ? Deno.args : process.argv.slice(2))[0] ?? "";
const cores = Number(
  env("BENCH_THREADS") ??
    globalThis.navigator?.hardwareConcurrency ??
    (await import("node:os")).availableParallelism(),
);

await jax.init("wasm");
jax.defaultDevice("wasm");
const onp = ox.numpy;
const jnp = jax.numpy;

const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const WARM_MS = 300;
const MIN_MS = 200;
const SAMPLES = 5;

/** Median ms of one `run()` (awaited), after a warm-up. */
async function time(run) {
  const t0 = now();
  do await run();
  while (now() - t0 < WARM_MS);
  const samples = [];
  for (let s = 0; s < SAMPLES; s++) {
    let n = 0;
    const t = now();
    do {
      await run();
      n++;
    } while (now() - t < MIN_MS);
    samples.push((now() - t) / n);
  }
  return median(samples);
}

const exactValues = (n, m) => Float32Array.from({ length: n }, (_, i) => (i % m) - (m >> 1));
const smooth = (n) => Float32Array.from({ length: n }, (_, i) => ((i % 1000) - 500) / 250);

/**
 * `run` (one call, waited for) and `out` (one call's values) of a workload whose call is
 * `call()`: oxjax's outputs are disposed after reading, jax-js's `data()` consumes them.
 */
function calls(lib, call) {
  return {
    run: async () => {
      const y = call();
      await y.blockUntilReady();
      y.dispose();
    },
    out: async () => {
      const y = call();
      const d = await y.data();
      if (lib === "ox") y.dispose();
      return d;
    },
  };
}

/** A workload: `make(lib)` returns `{ run, out, free }` for lib = "ox" or "jax". */
function matmul(n) {
  const data = exactValues(n * n, 7);
  return {
    name: `matmul ${n}×${n} float32`,
    unit: "ms",
    per: 1,
    exact: true,
    make(lib) {
      const np = lib === "ox" ? onp : jnp;
      const a = np.array(data).reshape([n, n]);
      const call = () => (lib === "ox" ? onp.matmul(a, a) : jnp.matmul(a.ref, a.ref));
      return { ...calls(lib, call), free: () => a.dispose() };
    },
  };
}

const N = 1 << 20;

const chain = {
  name: "jit tanh(2x+1)·exp(−x)+sin(x), 1M float32",
  unit: "ms",
  per: 1,
  exact: false,
  make(lib) {
    const np = lib === "ox" ? onp : jnp;
    const lib_ = lib === "ox" ? ox : jax;
    const x = np.array(smooth(N));
    const f =
      lib === "ox"
        ? lib_.jit((v) => {
            const t = onp.tanh(v.mul(2).add(1));
            const e = onp.exp(v.neg());
            return t.mul(e).add(onp.sin(v));
          })
        : lib_.jit((v) => jnp.tanh(v.ref.mul(2).add(1)).mul(jnp.exp(v.ref.neg())).add(jnp.sin(v)));
    const call = () => (lib === "ox" ? f(x) : f(x.ref));
    return {
      ...calls(lib, call),
      free: () => {
        x.dispose();
        f.dispose?.();
      },
    };
  },
};

const sum = {
  name: "sum of 1M float32",
  unit: "ms",
  per: 1,
  exact: true,
  make(lib) {
    const np = lib === "ox" ? onp : jnp;
    const x = np.array(exactValues(N, 5));
    const call = () => (lib === "ox" ? onp.sum(x) : jnp.sum(x.ref));
    return {
      ...calls(lib, call),
      free: () => x.dispose(),
    };
  },
};

/** `batch` symmetric positive definite n×n float32 matrices: M·Mᵀ/n + I. */
function spd(batch, n) {
  const out = new Float32Array(batch * n * n);
  const m = (b, i, k) => (((b * 7 + i * 31 + k * 17) % 23) - 11) / 11;
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = i === j ? 1 : 0;
        for (let k = 0; k < n; k++) s += (m(b, i, k) * m(b, j, k)) / n;
        out[(b * n + i) * n + j] = s;
      }
    }
  }
  return out;
}

const cholesky = {
  name: "cholesky of 64 × [64×64] float32",
  unit: "ms",
  per: 1,
  exact: false,
  make(lib) {
    const np = lib === "ox" ? onp : jnp;
    const a = np.array(spd(64, 64)).reshape([64, 64, 64]);
    const call = () => (lib === "ox" ? onp.linalg.cholesky(a) : jnp.linalg.cholesky(a.ref));
    return {
      ...calls(lib, call),
      free: () => a.dispose(),
    };
  },
};

const small = {
  name: "1,000 small eager ops (add [4] + dataSync)",
  // ms per 1,000 ops = µs per op
  unit: "µs/op",
  per: 1,
  exact: true,
  make(lib) {
    const np = lib === "ox" ? onp : jnp;
    const x = np.array(new Float32Array([1, 2, 3, 4]));
    const y = np.array(new Float32Array([0.5, 0.25, -1, 2]));
    const one = () => {
      const z = lib === "ox" ? x.add(y) : x.ref.add(y.ref);
      const d = z.dataSync();
      if (lib === "ox") z.dispose();
      return d;
    };
    return {
      run: () => {
        for (let i = 0; i < 1000; i++) one();
      },
      out: async () => one(),
      free: () => (x.dispose(), y.dispose()),
    };
  },
};

const workloads = [matmul(256), matmul(512), chain, sum, cholesky, small].filter((w) =>
  w.name.includes(filter),
);

function compare(a, b, exact, what) {
  if (a.length !== b.length) throw new Error(`${what}: ${a.length} vs ${b.length} elements`);
  for (let i = 0; i < a.length; i++) {
    const ok = exact
      ? Object.is(a[i], b[i])
      : Math.abs(a[i] - b[i]) <= 1e-5 * Math.max(1, Math.abs(b[i]));
    if (!ok) throw new Error(`${what}: element ${i}: ${a[i]} vs ${b[i]}`);
  }
}

async function measure(w, lib) {
  const inst = w.make(lib);
  try {
    const out = await inst.out();
    return [(await time(() => inst.run())) / w.per, out];
  } finally {
    inst.free();
  }
}

/**
 * oxjax on 1 thread and on `cores`, `rounds` times alternately (a shared machine's load
 * drifts): the medians of each, and of the per-round ratios N threads / 1 thread.
 */
async function oneAndMany(w, rounds) {
  const [ones, manys, ratios] = [[], [], []];
  let outs;
  for (let r = 0; r < rounds; r++) {
    await ox.init({ wasmThreads: 1 });
    const [one, outOne] = await measure(w, "ox");
    await ox.init({ wasmThreads: cores });
    const [many, outMany] = await measure(w, "ox");
    compare(outMany, outOne, true, `${w.name}: oxjax ${cores} threads vs 1`);
    ones.push(one);
    manys.push(many);
    ratios.push(many / one);
    outs = [outOne, outMany];
  }
  return { one: median(ones), many: median(manys), ratio: median(ratios), outs, ratios };
}

// BENCH_ROUNDS (default 1): alternate 1 and N threads this many times per workload.
const rounds = Math.max(1, Number(env("BENCH_ROUNDS") ?? 1));
const rows = [];
for (const w of workloads) {
  const { one, many, ratio, outs, ratios } = await oneAndMany(w, rounds);
  const [outOne, outMany] = outs;
  const info = ox.wasmThreadInfo();
  const [ref, outRef] = await measure(w, "jax");
  compare(outMany, outRef, w.exact, `${w.name}: oxjax vs jax-js`);
  rows.push({
    name: w.name,
    unit: w.unit,
    one,
    many,
    ratio,
    ratios,
    ref,
    threads: info.threads,
    info,
  });
  console.error(`# done: ${w.name}`);
}

const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const commit = await (async () => {
  try {
    if (Deno) {
      const r = await new Deno.Command("git", { args: ["rev-parse", "--short", "HEAD"] }).output();
      return new TextDecoder().decode(r.stdout).trim();
    }
    const { execSync } = await import("node:child_process");
    return execSync("git rev-parse --short HEAD").toString().trim();
  } catch {
    return "unknown";
  }
})();
const runtime = Deno
  ? `Deno ${Deno.version.deno}, ${Deno.build.os}/${Deno.build.arch}`
  : `Node ${process.version} (worker_threads), ${process.platform}/${process.arch}`;
console.log(
  `${new Date().toISOString().slice(0, 10)}, commit ${commit}, ${runtime}, ${cores} threads`,
);
console.log("");
console.log(
  `| workload | unit | oxjax wasm, 1 thread | oxjax wasm, ${cores} threads | jax-js wasm | ` +
    `oxjax ${cores}T / jax-js | oxjax ${cores}T / oxjax 1T |`,
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.unit} | ${fmt(r.one)} | ${fmt(r.many)} (${r.threads} threads) | ` +
      `${fmt(r.ref)} | ${(r.many / r.ref).toFixed(2)}× | ${r.ratio.toFixed(2)}× |`,
  );
}
if (rounds > 1) {
  console.log(
    `\n${rounds} rounds alternating 1 and ${cores} threads; values are medians over rounds, ` +
      `the last column the median of the rounds' ratios (each round's: ` +
      rows.map((r) => r.ratios.map((x) => x.toFixed(2)).join(" ")).join("; ") +
      ")",
  );
}
console.log(`BENCH_JSON ${JSON.stringify({ commit, runtime, cores, rows })}`);
await ox.init({ wasmThreads: 1 });
