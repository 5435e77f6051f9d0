// The seeds' workload on WebGPU in Deno (lavapipe on CPU machines), float32 only
// (webgpu has no float64): the exact parallel Kalman filter + smoother of
// tests/shared/kalman_parallel.mjs for m = 1, 2, 5 at n = 50, against the float64 JS oracle and
// the same program on the cpu device; its log-likelihood against the sequential `lax.scan`
// filter; the MLE loss gradient against central differences of the oracle; and the counters of
// the jitted MLE step: dispatches, submits and kernel compilations (kernel-cache misses) per
// iteration, logged, with the second call of a jitted program required to compile nothing.
// Registered by kalman-parallel.test.ts (the adapter's storage-buffer limit) and
// kalman-parallel-limit8.test.ts (forced to the spec minimum of 8, as SwiftShader).
// Tolerances: TOLERANCES.float32 of the shared module (tests/api/kalman-parallel.test.mjs says
// what they rest on). Nothing leaks (arrays and webgpu buffers).
import * as ox from "../../pkg/index.js";
import * as optax from "../../pkg/optax/index.js";
import {
  TOLERANCES,
  dlmModel,
  kalmanOracle,
  lossGradFd,
  mleLoop,
  normwiseError,
  parallelKalman,
} from "../shared/kalman_parallel.mjs";

/**
 * The switch of the zero-recompile assertions: false since 1c3fab8 sized the kernel
 * caches from the jitted program (before it, the MLE program's ~320 kernels over webgpu's
 * 256-entry cache were recompiled on every call). Setting it to true turns those assertions
 * into logs again, should a regression need to land first.
 */
export const KNOWN_RECOMPILE = false;

// deno-lint-ignore no-explicit-any
type Any = any;
const np = ox.numpy;
const TOL = TOLERANCES.float32;
const N = 50;

function check(ok: boolean, message: string) {
  if (!ok) throw new Error(message);
}
const checkRel = (label: string, got: ArrayLike<number>, want: unknown, tol: number) => {
  const err = normwiseError(got, want);
  check(err <= tol, `${label}: normwise error ${err.toExponential(2)} > ${tol}`);
  return err;
};
const checkScalar = (label: string, got: number, want: number, tol: number) =>
  check(Math.abs(got - want) <= tol * (1 + Math.abs(want)), `${label}: ${got} vs ${want}`);

/** The webgpu counters the tests report. */
function counters() {
  const d = ox.memoryStats().devices.webgpu!;
  // Every pipeline the device compiles (kernels, routines, program stages).
  return { dispatches: d.dispatches, submits: d.submits, compiles: d.shaderCompiles };
}
const delta = (a: ReturnType<typeof counters>, b: ReturnType<typeof counters>) => ({
  dispatches: b.dispatches - a.dispatches,
  submits: b.submits - a.submits,
  compiles: b.compiles - a.compiles,
});

/** Live arrays and webgpu buffers, which every test returns to. */
function live() {
  const s = ox.memoryStats();
  return `${s.liveArrays} arrays, ${s.devices.webgpu?.liveBuffers} webgpu buffers`;
}

/** Asserts zero compilations (or, while KNOWN_RECOMPILE, logs them). */
function checkNoCompiles(label: string, compiles: number) {
  if (!KNOWN_RECOMPILE) check(compiles === 0, `${label}: ${compiles} shaders compiled`);
  else if (compiles !== 0) {
    console.log(`  KNOWN_RECOMPILE: ${label} compiled ${compiles} kernels`);
  }
}

/** The filter + smoother outputs of `theta` on `device`, read together. */
async function filterSmoother(model: Any, device: "cpu" | "webgpu") {
  const pk = parallelKalman(ox, model, { device });
  const theta = np.array(model.theta0, { device });
  const fs = ox.jit(pk.filterSmoother);
  const out = fs(theta);
  const llScanFn = ox.jit(pk.loglikScan);
  const llScan = llScanFn(theta);
  const [m, P, ms, Ps, ll, lls] = await Promise.all(
    [out.m, out.P, out.ms, out.Ps, out.loglik, llScan].map((x: Any) => x.data()),
  );
  ox.tree.dispose([theta, out, llScan]);
  [fs, llScanFn].forEach((f) => f.dispose());
  pk.dispose();
  return { m, P, ms, Ps, ll: ll[0], llScan: lls[0] };
}

/** Registers the suite; `label` names the storage-buffer limit in the test names. */
export function kalmanSuite(label: string) {
  for (const m of [1, 2, 5]) {
    Deno.test(`[${label}] parallel Kalman m = ${m}, n = ${N}, float32 on webgpu`, async () => {
      const before = live();
      const model = dlmModel(m, N, m);
      const want = kalmanOracle(model, model.theta0);
      const gpu = await filterSmoother(model, "webgpu");
      const cpu = await filterSmoother(model, "cpu");
      const errs: Record<string, string> = {};
      for (const [k, w] of [
        ["m", want.ms],
        ["P", want.Ps],
        ["ms", want.sms],
        ["Ps", want.sPs],
      ] as const) {
        errs[k] = checkRel(`${k} vs oracle`, gpu[k], w, TOL.moments).toExponential(1);
        checkRel(`${k} vs cpu`, gpu[k], Array.from(cpu[k]), TOL.moments);
      }
      checkScalar("loglik vs oracle", gpu.ll, want.loglik, TOL.loglik);
      checkScalar("loglik vs cpu", gpu.ll, cpu.ll, TOL.loglik);
      checkScalar("loglik: lax.scan vs associativeScan", gpu.llScan, gpu.ll, TOL.loglik);

      // jit(valueAndGrad(loss)): the gradient vs the oracle's central differences; a second
      // call compiles nothing.
      const pk = parallelKalman(ox, model, { device: "webgpu" });
      const theta = np.array(model.theta0, { device: "webgpu" });
      const vg = ox.jit(ox.valueAndGrad(pk.loss));
      const calls = [];
      let grad: Float32Array = new Float32Array();
      for (let call = 0; call < 2; call++) {
        const c0 = counters();
        const [v, g] = vg(theta);
        const [vd, gd] = await Promise.all([v.data(), g.data()]);
        calls.push(delta(c0, counters()));
        checkScalar("loss", vd[0], -want.loglik, TOL.loglik);
        grad = gd as Float32Array;
        ox.tree.dispose([v, g]);
      }
      lossGradFd(model).forEach((fd: number, i: number) =>
        checkScalar(`dloss/dθ[${i}]`, grad[i], fd, TOL.grad),
      );
      console.log(
        `  m=${m}: errors vs oracle ${JSON.stringify(errs)}; jit(valueAndGrad) calls:`,
        JSON.stringify(calls),
      );
      // The counter sees compilations: the first call of a new shape compiles its shaders.
      check(calls[0].compiles > 0, `the first call (m = ${m}) compiled no shader`);
      checkNoCompiles(`the second jit(valueAndGrad(loss)) call (m = ${m})`, calls[1].compiles);
      theta.dispose();
      vg.dispose();
      pk.dispose();
      check(live() === before, `leaked: ${live()} vs ${before}`);
    });
  }

  Deno.test(
    `[${label}] MLE (m = 2, n = ${N}): Adam on webgpu, counters per iteration`,
    async () => {
      const before = live();
      // As the client: webgpu is the default device, where optax's `init` puts its step count
      // (it ignores the parameters' device; with the count on wasm, the jitted update fails on
      // webgpu with "float64 is not supported": the bias correction widens the count to
      // float64 unless the count's own device is webgpu).
      const defaultBefore = ox.defaultDevice();
      ox.defaultDevice("webgpu");
      const model = dlmModel(2, N, 7);
      const pk = parallelKalman(ox, model, { device: "webgpu" });
      const fit = mleLoop(ox, optax, model, pk.loss, { device: "webgpu", lr: 0.05 });
      const losses: number[] = [];
      const iters = [];
      for (let it = 0; it < 3; it++) {
        const c0 = counters();
        losses.push(await fit.iterate());
        iters.push(delta(c0, counters()));
      }
      console.log(`  MLE losses ${losses.map((l) => l.toFixed(4))}`);
      console.log(`  MLE per iteration (dispatches, submits, compiles): ${JSON.stringify(iters)}`);
      checkScalar("first loss", losses[0], -kalmanOracle(model, model.theta0).loglik, TOL.loglik);
      check(losses[2] < losses[0], `losses ${losses}`);
      for (const [i, c] of iters.entries()) {
        if (i > 0) checkNoCompiles(`MLE iteration ${i + 1}`, c.compiles);
      }
      fit.dispose();
      pk.dispose();
      ox.defaultDevice(defaultBefore);
      check(live() === before, `leaked: ${live()} vs ${before}`);
    },
  );
}
