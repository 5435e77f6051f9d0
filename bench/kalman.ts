// The seeds' workload benchmark in Deno:
//   deno run -A --unstable-webgpu bench/kalman.ts [webgpu|wasm|all]
// The exact parallel Kalman filter + smoother and its maximum-likelihood fit, as the client
// (dlm-js) runs them, from tests/shared/kalman_parallel.mjs (the code the tests check), float32,
// on oxjax's `webgpu` and `wasm` devices. Per case (state dimension m, n observations):
//   (a) the first MLE iteration, from cold caches (`clearCaches()`): trace, compile, run one
//       jit((θ, state) => valueAndGrad(loss)(θ) + Adam update) step and read the loss value;
//   (b) steady-state iterations: one step + reading the loss with `await data()`, median over
//       KALMAN_ITERS (default 10), with dispatches, submits and kernel compilations
//       per iteration from `memoryStats()` deltas (webgpu: `shaderCompiles`, every pipeline;
//       wasm: kernel-cache misses — a jitted program's own module is compiled outside that
//       cache, so it reads 0 there);
//   (c) the single filter + smoother call (the client's dlmFit; jitted): first call from cold
//       caches and warm (median of KALMAN_FIT_WARM, default 5), all outputs (filtered and
//       smoothed means and covariances, loglik) read together with Promise.all of data().
// Cases: KALMAN_CASES (default "1x100,2x100,3x100,2x1000,5x1000", each `m`x`n`). The first loss
// is checked against the float64 oracle and nothing may leak. @jax-js/jax (node_modules, or
// JAXJS) has no lax.associativeScan in 0.1.25, so its rows are "n/a". Prints a markdown table
// and a final `BENCH_JSON {...}` line.
import * as ox from "../pkg/index.js";
import * as optax from "../pkg/optax/index.js";
import { dlmModel, lossJs, mleLoop, parallelKalman } from "../tests/shared/kalman_parallel.mjs";

// deno-lint-ignore no-explicit-any
type Any = any;
type Device = "webgpu" | "wasm";

const which = Deno.args[0] ?? "all";
const CASES = (Deno.env.get("KALMAN_CASES") ?? "1x100,2x100,3x100,2x1000,5x1000")
  .split(",")
  .map((c) => c.split("x").map(Number));
const ITERS = Number(Deno.env.get("KALMAN_ITERS") ?? 10);
const FIT_WARM = Number(Deno.env.get("KALMAN_FIT_WARM") ?? 5);

const now = () => performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const have = await ox.init();
const devices = (["webgpu", "wasm"] as Device[]).filter((d) => which === "all" || which === d);
for (const d of devices) {
  if (!have.includes(d)) {
    throw new Error(`no ${d} device${d === "webgpu" ? `: ${ox.webgpuUnavailableReason()}` : ""}`);
  }
}

const jaxPath = Deno.env.get("JAXJS") ?? "../node_modules/@jax-js/jax/dist/index.js";
let jaxNote = "n/a (no associativeScan)";
try {
  const jax: Any = await import(new URL(jaxPath, import.meta.url).href);
  if (typeof jax.lax?.associativeScan === "function") jaxNote = "n/a (not written for jax-js)";
} catch (e) {
  jaxNote = `n/a (import failed: ${(e as Error).message})`;
}

/** The raw floor under every read on webgpu: copy 4 bytes and mapAsync, median of 20. */
async function mapAsyncFloor(): Promise<number> {
  const adapter = await (navigator as Any).gpu.requestAdapter();
  const device = await adapter.requestDevice();
  const U = (globalThis as Any).GPUBufferUsage;
  const src = device.createBuffer({ size: 4, usage: U.STORAGE | U.COPY_SRC });
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = now();
    const dst = device.createBuffer({ size: 4, usage: U.MAP_READ | U.COPY_DST });
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, dst, 0, 4);
    device.queue.submit([enc.finish()]);
    await dst.mapAsync((globalThis as Any).GPUMapMode.READ);
    dst.unmap();
    dst.destroy();
    times.push(now() - t0);
  }
  device.destroy();
  return median(times);
}

interface Counters {
  dispatches: number;
  submits: number;
  compiles: number;
}
function counters(device: Device): Counters {
  const d = ox.memoryStats().devices[device]!;
  // webgpu: every pipeline compiled (kernels, routines, program stages); wasm: modules of
  // the kernel cache (a jitted program's own module is compiled outside it).
  const compiles = device === "webgpu" ? d.shaderCompiles : d.kernelCacheMisses;
  return { dispatches: d.dispatches, submits: d.submits, compiles };
}
const delta = (a: Counters, b: Counters): Counters => ({
  dispatches: b.dispatches - a.dispatches,
  submits: b.submits - a.submits,
  compiles: b.compiles - a.compiles,
});
const live = () => {
  const s = ox.memoryStats();
  const buffers = Object.values(s.devices).reduce((n, d) => n + (d?.liveBuffers ?? 0), 0);
  return `${s.liveArrays} arrays, ${buffers} buffers`;
};

interface Row {
  device: Device;
  m: number;
  n: number;
  firstIterMs: number;
  firstIter: Counters;
  steadyMs: number;
  steadyMinMs: number;
  steadyIter: Counters;
  fitFirstMs: number;
  fitWarmMs: number;
  fitWarm: Counters;
  loss0: number;
  lossN: number;
}

async function runCase(device: Device, m: number, n: number): Promise<Row> {
  ox.defaultDevice(device); // as the client: optax's state is made on the default device
  const before = live();
  const model = dlmModel(m, n, 1);
  const pk = parallelKalman(ox, model, { device });

  // (a) the first MLE iteration, from cold caches.
  ox.clearCaches();
  const mle = mleLoop(ox, optax, model, pk.loss, { device });
  const step = mle.iterate;
  let c0 = counters(device);
  let t0 = now();
  const loss0 = await step();
  const firstIterMs = now() - t0;
  const firstIter = delta(c0, counters(device));
  const want = lossJs(model, model.theta0);
  if (!(Math.abs(loss0 - want) <= 1e-4 * (1 + Math.abs(want)))) {
    throw new Error(`${device} m=${m} n=${n}: first loss ${loss0}, oracle ${want}`);
  }

  // (b) steady-state iterations.
  const times: number[] = [];
  let lossN = loss0;
  c0 = counters(device);
  for (let i = 0; i < ITERS; i++) {
    t0 = now();
    lossN = await step();
    times.push(now() - t0);
  }
  const total = delta(c0, counters(device));
  const per = (x: number) => Math.round((x / ITERS) * 10) / 10;
  const steadyIter = {
    dispatches: per(total.dispatches),
    submits: per(total.submits),
    compiles: per(total.compiles),
  };

  // (c) the filter + smoother call, cold then warm, every output read together.
  ox.clearCaches();
  const fit = ox.jit(pk.filterSmoother);
  const readFit = async () => {
    const out = fit(mle.theta);
    await Promise.all(ox.tree.leaves(out).map((x: Any) => x.data()));
    ox.tree.dispose(out);
  };
  t0 = now();
  await readFit();
  const fitFirstMs = now() - t0;
  const fitTimes: number[] = [];
  c0 = counters(device);
  for (let i = 0; i < FIT_WARM; i++) {
    t0 = now();
    await readFit();
    fitTimes.push(now() - t0);
  }
  const fitTotal = delta(c0, counters(device));
  const fitWarm = {
    dispatches: fitTotal.dispatches / FIT_WARM,
    submits: fitTotal.submits / FIT_WARM,
    compiles: fitTotal.compiles / FIT_WARM,
  };
  fit.dispose();
  mle.dispose();
  pk.dispose();
  if (live() !== before) throw new Error(`leaked: ${live()} (was ${before})`);
  return {
    device,
    m,
    n,
    firstIterMs,
    firstIter,
    steadyMs: median(times),
    steadyMinMs: Math.min(...times),
    steadyIter,
    fitFirstMs,
    fitWarmMs: median(fitTimes),
    fitWarm,
    loss0,
    lossN,
  };
}

const floorMs = devices.includes("webgpu") ? await mapAsyncFloor() : null;
const rows: Row[] = [];
for (const device of devices) {
  for (const [m, n] of CASES) {
    const r = await runCase(device, m, n);
    rows.push(r);
    console.log(
      `${device} m=${m} n=${n}: first iteration ${r.firstIterMs.toFixed(0)} ms ` +
        `(${r.firstIter.compiles} compiles, ${r.firstIter.dispatches} dispatches); ` +
        `steady ${r.steadyMs.toFixed(2)} ms/iteration (min ${r.steadyMinMs.toFixed(2)}), per ` +
        `iteration ${r.steadyIter.dispatches} dispatches, ${r.steadyIter.submits} submits, ` +
        `${r.steadyIter.compiles} compiles; filter+smoother first ${r.fitFirstMs.toFixed(0)} ms, ` +
        `warm ${r.fitWarmMs.toFixed(2)} ms (${r.fitWarm.dispatches} dispatches, ` +
        `${r.fitWarm.compiles} compiles); loss ${r.loss0.toFixed(3)} → ${r.lossN.toFixed(3)}`,
    );
  }
}

const gpuInfo = devices.includes("webgpu")
  ? (await (navigator as Any).gpu.requestAdapter())?.info
  : null;
// GPUAdapterInfo's fields are getters, which JSON.stringify does not see.
const adapter = gpuInfo
  ? {
      vendor: gpuInfo.vendor,
      architecture: gpuInfo.architecture,
      device: gpuInfo.device,
      description: gpuInfo.description,
    }
  : null;
console.log();
if (adapter) {
  console.log(`webgpu adapter: ${JSON.stringify(adapter)}`);
  console.log(`mapAsync floor (copy 4 bytes + map): ${floorMs!.toFixed(3)} ms`);
}
console.log(`float32, Adam lr 0.05 (b2 0.9), ${ITERS} steady iterations, ${FIT_WARM} warm fits`);
console.log();
console.log(
  "| library | device | m | n | MLE first iteration | MLE steady (median) | dispatches / iter | " +
    "submits / iter | compiles / iter | filter+smoother first | filter+smoother warm |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  console.log(
    `| oxjax | ${r.device} | ${r.m} | ${r.n} | ${r.firstIterMs.toFixed(0)} ms | ` +
      `${r.steadyMs.toFixed(2)} ms | ${r.steadyIter.dispatches} | ${r.steadyIter.submits} | ` +
      `${r.steadyIter.compiles} | ${r.fitFirstMs.toFixed(0)} ms | ${r.fitWarmMs.toFixed(2)} ms |`,
  );
}
for (const device of devices) {
  console.log(`| jax-js | ${device} | — | — | ${jaxNote} | | | | | | |`);
}
console.log(
  `BENCH_JSON ${JSON.stringify({
    adapter,
    floorMs,
    iters: ITERS,
    fitWarm: FIT_WARM,
    jaxjs: jaxNote,
    rows,
  })}`,
);
Deno.exit(0);
