// Memory soak (see bench/README.md): `ITERS` iterations, each creating a
// fresh `jit(valueAndGrad(loss))` closure over the same code — a 200-step Kalman-filter
// negative log-likelihood — running 10 optimizer steps and disposing everything. Prints RSS,
// wasm memory and cache entries every 50 iterations, and the growth of RSS and wasm memory
// from iteration 50 to the end (target: < 5% in total; cache entries bounded).
//
//   node --expose-gc bench/soak.mjs          (uses the built package in ../pkg)
//   SOAK_ITERS=100 SOAK_T=50 node --expose-gc bench/soak.mjs
import * as ox from "../pkg/index.js";
import { kalmanObservations, makeKalmanLoss } from "../tests/shared/kalman.mjs";

const np = ox.numpy;
const ITERS = Number(process.env.SOAK_ITERS ?? 400);
const T = Number(process.env.SOAK_T ?? 200);
const STEPS = 10;
const ys = kalmanObservations(T);
const makeLoss = (y) => makeKalmanLoss(np, y, T);

function sample(iter) {
  globalThis.gc?.();
  const s = ox.memoryStats();
  const w = s.devices.wasm;
  return {
    iter,
    rssMB: process.memoryUsage().rss / 2 ** 20,
    wasmMB: s.wasmMemoryBytes / 2 ** 20,
    liveArrays: s.liveArrays,
    liveBuffers: w.liveBuffers,
    poolMB: w.poolBytes / 2 ** 20,
    programs: s.programCache.entries,
    kernels: w.kernelCacheEntries,
    jitFunctions: s.jitFunctions,
  };
}

const fmt = (r) =>
  `iter ${String(r.iter).padStart(4)}: rss ${r.rssMB.toFixed(1)} MB, wasm ${r.wasmMB.toFixed(1)} MB, ` +
  `pool ${r.poolMB.toFixed(2)} MB, live arrays ${r.liveArrays}, buffers ${r.liveBuffers}, ` +
  `programs ${r.programs}, kernels ${r.kernels}, jit functions ${r.jitFunctions}`;

if (!globalThis.gc) console.log("(run with --expose-gc for steadier RSS readings)");
console.log(
  `soak: ${ITERS} iterations × ${STEPS} steps of jit(valueAndGrad) over a ${T}-step filter`,
);
const y = np.array(ys);
let theta = np.array([-1, -1]);
const start = performance.now();
let at50 = null;
let first = null;
const rows = [];
for (let iter = 1; iter <= ITERS; iter++) {
  const step = ox.jit(ox.valueAndGrad(makeLoss(y)));
  for (let k = 0; k < STEPS; k++) {
    const [value, g] = step(theta);
    if (first === null) first = value.item();
    const delta = g.mul(0.01);
    const next = theta.sub(delta);
    for (const t of [theta, value, g, delta]) t.dispose();
    theta = next;
  }
  step.dispose();
  if (iter === 1 || iter % 50 === 0 || iter === ITERS) {
    const r = sample(iter);
    rows.push(r);
    if (iter === 50) at50 = r;
    console.log(fmt(r));
  }
}
const end = rows[rows.length - 1];
const seconds = (performance.now() - start) / 1000;
const pct = (a, b) => (((b - a) / a) * 100).toFixed(2);
console.log(`loss ${first.toFixed(4)} → ${Array.from(theta.dataSync()).join(", ")} (θ)`);
if (at50) {
  console.log(
    `growth after iteration 50: rss ${pct(at50.rssMB, end.rssMB)}%, wasm memory ` +
      `${pct(at50.wasmMB, end.wasmMB)}%; ${seconds.toFixed(1)} s in total`,
  );
}
theta.dispose();
y.dispose();
console.log(`SOAK_JSON ${JSON.stringify({ iters: ITERS, T, seconds, rows })}`);
