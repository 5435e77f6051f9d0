// The Nile demo: maximum likelihood by Adam on valueAndGrad (jitted where this build has jit),
// then the smoothed level by associative scan and by sequential lax.scan, drawn live.
import { fail, optax, ox, params, recordTiming, setup, yieldToBrowser } from "../common.js";
import * as model from "./model.js";
import { drawNile } from "./plot.js";

const np = ox.numpy;
const $ = (id) => document.getElementById(id);
const fmt = (v, digits = 1) =>
  v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

let generation = 0;

async function main() {
  const { device } = await setup("wasm");
  const data = await (await fetch("../data/nile.json")).json();
  const ref = data.mle;
  $("reference").textContent =
    `σ²ε ${fmt(ref.sigma2_eps)} · σ²η ${fmt(ref.sigma2_eta)} · log-likelihood ${fmt(ref.loglik, 3)}`;
  drawNile($("plot"), data.years, data.flow);

  const y = np.array(data.flow);
  const assoc = ox.lax.associativeScan;
  const scan = ox.lax.scan;
  const wrap = ox.jit;
  const loss = (theta) => model.negLogLik(assoc, theta, y);
  const valueAndGrad = wrap(ox.valueAndGrad(loss));

  /** [level, lower, upper] of the 95% band, by the parallel smoother. */
  const smoothParallel = wrap((theta) => {
    const { se, sn } = model.variances(theta);
    const { m, P } = model.filterParallel(assoc, y, se, sn);
    const { ms, Ps } = model.smoothParallel(assoc, m, P, sn);
    using sd = np.sqrt(Ps);
    using half = sd.mul(1.96);
    const out = [ms, ms.sub(half), ms.add(half)];
    [se, sn, m, P, Ps].forEach((a) => a.dispose());
    return out;
  });
  // The sequential form in two calls (filter, then smoother) so the page can draw in between.
  const filterSequential = wrap((theta) => {
    const { se, sn } = model.variances(theta);
    const { m, P } = model.filterScan(scan, y, se, sn);
    [se, sn].forEach((a) => a.dispose());
    return [m, P];
  });
  const smootherSequential = wrap((theta, m, P) => {
    const { se, sn } = model.variances(theta);
    const { ms, Ps } = model.smoothScan(scan, m, P, sn);
    [se, sn, Ps].forEach((a) => a.dispose());
    return ms;
  });

  const steps = Number(params.get("steps") ?? 150);
  const lr = (t) => 0.1 * 0.01 ** (t / steps);
  const optimizer = optaxAdam();

  async function smooth(theta, final) {
    const t0 = performance.now();
    const [level, lo, hi] = smoothParallel(theta);
    const [L, LO, HI] = await Promise.all([level.data(), lo.data(), hi.data()]);
    $("ms-parallel").textContent = `${(performance.now() - t0).toFixed(1)} ms`;
    lo.dispose();
    hi.dispose();
    drawNile($("plot"), data.years, data.flow, L, LO, HI);
    window.demo.level = globalThis.Array.from(L);
    window.demo.levelVar = globalThis.Array.from(HI, (h, i) => ((h - LO[i]) / (2 * 1.96)) ** 2);
    if (final) {
      // The sequential form once, at the fitted variances, against the parallel one. Its
      // first call compiles, so the responsiveness window (runStart..runEnd) ends here.
      window.demo.runEnd = performance.now();
      await yieldToBrowser();
      const t1 = performance.now();
      const [m, P] = filterSequential(theta);
      await m.data();
      await yieldToBrowser();
      using seq = smootherSequential(theta, m, P);
      [m, P].forEach((a) => a.dispose());
      using delta = seq.sub(level);
      using diff = np.abs(delta);
      using maxDiff = diff.max();
      const d = (await maxDiff.data())[0];
      $("ms-scan").textContent = `${(performance.now() - t1).toFixed(1)} ms`;
      $("scan-diff").textContent = d.toPrecision(3);
      window.demo.scanDiff = d;
    }
    level.dispose();
  }

  async function run() {
    const gen = ++generation;
    window.demo.status = "running";
    document.body.dataset.status = "running";
    // Responsiveness is measured after the first smoother run (step 10): kernels compiled.
    window.demo.runStart = Infinity;
    $("status").textContent = `fitting on ${device}…`;
    let theta = initialTheta(y);
    let state = optimizer.init(theta);
    let total = 0;
    for (let t = 1; t <= steps; t++) {
      const t0 = performance.now();
      const [value, grad] = valueAndGrad(theta);
      const [update, next] = optimizer.update(grad, state, lr(t), theta);
      const theta2 = optax.applyUpdates(theta, update);
      [grad, update, theta].forEach((a) => a.dispose());
      theta = theta2;
      state = next;
      const [v, th] = await Promise.all([value.data(), theta.data()]);
      value.dispose();
      const ms = performance.now() - t0;
      total += ms;
      if (gen !== generation) break;
      const [se, sn] = [Math.exp(th[0]), Math.exp(th[1])];
      $("step").textContent = String(t);
      $("loglik").textContent = fmt(-v[0], 3);
      $("sigma2-eps").textContent = fmt(se);
      $("sigma2-eta").textContent = fmt(sn);
      $("ms-step").textContent = `${(total / t).toFixed(1)} ms`;
      Object.assign(window.demo, {
        step: t,
        loglik: -v[0],
        sigma2Eps: se,
        sigma2Eta: sn,
        msPerStep: total / t,
      });
      if (t % 10 === 0 || t === steps) await smooth(theta, t === steps);
      if (t === 10) window.demo.runStart = performance.now();
      // Live arrays after each step: constant from the first step on (nothing leaks per step).
      window.demo.liveArrays = ox.memoryStats().liveArrays;
      if (t === 1) window.demo.liveArraysAfterFirstStep = window.demo.liveArrays;
      await yieldToBrowser();
    }
    $("ms-devices").textContent = recordTiming("nile", device, total / steps);
    theta.dispose();
    ox.tree.dispose(state);
    if (gen === generation) {
      $("status").textContent = `done: ${steps} Adam steps on ${device}`;
      window.demo.status = "done";
      document.body.dataset.status = "done";
    }
  }

  $("restart").addEventListener("click", () => run().catch(fail));
  await run();
}

/** log σ² starting values from the differenced series: var(Δy)/2 and var(Δy)/10. */
function initialTheta(y) {
  const n = y.shape[0];
  using a = y.slice([1, n]);
  using b = y.slice([0, n - 1]);
  using d = a.sub(b);
  using v = np.var_(d);
  using v0 = v.div(2);
  using v1 = v.div(10);
  using both = np.stack([v0, v1]);
  return np.log(both);
}

/** oxjax/optax's Adam at learning rate 1, its step scaled by the schedule's rate. */
function optaxAdam() {
  const tx = optax.adam(1.0);
  return {
    init: (theta) => tx.init(theta),
    update(grad, state, lr, theta) {
      const [u, next] = tx.update(grad, state, theta);
      const step = u.mul(lr);
      u.dispose();
      ox.tree.dispose(state);
      return [step, next];
    },
  };
}

main().catch(fail);
