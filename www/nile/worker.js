// The Nile demo's worker: maximum likelihood by Adam on jit(valueAndGrad) of the Kalman
// filter's log-likelihood (an associative scan), then the smoothed level by the parallel smoother
// every 10 steps (drawn on the page's canvas) and, at the end, by the sequential lax.scan. The
// page (main.js) shows the numbers.
import { breathe, loadData, optax, ox, post, publish, serve, status } from "../compute.js";
import * as model from "./model.js";
import { drawNile } from "./plot.js";

const np = ox.numpy;
let generation = 0;

serve(async ({ device, params, canvases, on }) => {
  const data = await loadData("nile.json");
  post("data", { ref: data.mle });
  drawNile(canvases.plot, data.years, data.flow);

  const y = np.array(data.flow);
  const assoc = ox.lax.associativeScan;
  const scan = ox.lax.scan;
  const loss = (theta) => model.negLogLik(assoc, theta, y);
  const valueAndGrad = ox.jit(ox.valueAndGrad(loss));

  /** [level, lower, upper] of the 95% band, by the parallel smoother. */
  const smoothParallel = ox.jit((theta) => {
    const { se, sn } = model.variances(theta);
    const { m, P } = model.filterParallel(assoc, y, se, sn);
    const { ms, Ps } = model.smoothParallel(assoc, m, P, sn);
    using sd = np.sqrt(Ps);
    using half = sd.mul(1.96);
    const out = [ms, ms.sub(half), ms.add(half)];
    [se, sn, m, P, Ps].forEach((a) => a.dispose());
    return out;
  });
  // The sequential form in two calls (filter, then smoother), each one short task.
  const filterSequential = ox.jit((theta) => {
    const { se, sn } = model.variances(theta);
    const { m, P } = model.filterScan(scan, y, se, sn);
    [se, sn].forEach((a) => a.dispose());
    return [m, P];
  });
  const smootherSequential = ox.jit((theta, m, P) => {
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
    lo.dispose();
    hi.dispose();
    publish({
      level: Array.from(L),
      levelVar: Array.from(HI, (h, i) => ((h - LO[i]) / (2 * 1.96)) ** 2),
    });
    post("smooth", { ms: performance.now() - t0 });
    drawNile(canvases.plot, data.years, data.flow, L, LO, HI);
    if (final) {
      // The sequential form once, at the fitted variances, against the parallel one.
      await breathe();
      const t1 = performance.now();
      const [m, P] = filterSequential(theta);
      await m.data();
      await breathe();
      using seq = smootherSequential(theta, m, P);
      [m, P].forEach((a) => a.dispose());
      using delta = seq.sub(level);
      using diff = np.abs(delta);
      using maxDiff = diff.max();
      const d = (await maxDiff.data())[0];
      publish({ scanDiff: d });
      post("sequential", { ms: performance.now() - t1, diff: d });
    }
    level.dispose();
  }

  async function run() {
    const gen = ++generation;
    status(`fitting on ${device}…`, "running");
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
      total += performance.now() - t0;
      if (gen !== generation) break;
      const fit = {
        step: t,
        loglik: -v[0],
        sigma2Eps: Math.exp(th[0]),
        sigma2Eta: Math.exp(th[1]),
      };
      publish({ ...fit, msPerStep: total / t });
      post("step", fit);
      if (t % 10 === 0 || t === steps) await smooth(theta, t === steps);
      // Live arrays after each step: constant from the first step on (nothing leaks per step).
      const live = ox.memoryStats().liveArrays;
      publish({ liveArrays: live, ...(t === 1 ? { liveArraysAfterFirstStep: live } : {}) });
      await breathe();
    }
    theta.dispose();
    ox.tree.dispose(state);
    if (gen === generation) {
      post("done", { msPerStep: total / steps });
      status(`done: ${steps} Adam steps on ${device}`, "done");
    }
  }

  on("restart", run);
  await run();
});

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
