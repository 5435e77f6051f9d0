// The seeds' workload on cpu and wasm: the exact parallel Kalman filter + RTS
// smoother of Särkkä & García-Fernández (tests/shared/kalman_parallel.mjs), state dimension
// m = 1..5, float64 and float32, against the float64 JavaScript sequential filter and RTS
// smoother; its log-likelihood against a sequential `lax.scan` filter; the gradient of the MLE
// loss (jit(valueAndGrad)) against central differences of the float64 oracle; and a few Adam
// iterations of the client's jitted MLE step, with the dispatches of each iteration logged.
// Leak-checked. Webgpu runs the same workload in tests/deno/kalman-parallel.test.ts.
//
// Tolerances, normwise (|got − want| ≤ tol · max|want| over each output; tol · (1 + |want|) for
// the log-likelihood, the loss and each gradient entry), observed at n = 40 in parentheses:
// float64 moments and log-likelihood 1e-10 (≤ 5e-12: rounding, and the ε = 1e-12 regulariser of
// the compositions' inverse), gradient 1e-7 (≤ 8e-10: the central differences' own error);
// float32 moments 1e-3 (≤ 8e-5, the smoothed covariances of m = 5; the filtered ones ≤ 1e-6),
// log-likelihood 2e-5 (≤ 2e-6), gradient 1e-3 (≤ 3e-5). The float32 bounds leave ~10x room for
// other summation orders (webgpu) and the 1e-6 regulariser.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DEVICES, np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";
import * as optax from "../../pkg/optax/index.js";
import {
  TOLERANCES as TOL,
  dlmModel,
  kalmanOracle,
  lossGradFd,
  lossJs,
  mleLoop,
  normwiseError,
  parallelKalman,
} from "../shared/kalman_parallel.mjs";

checkLeaksAroundEachTest();

const N = 40;

function assertRel(label, got, want, tol) {
  const err = normwiseError(got, want);
  assert.ok(err <= tol, `${label}: normwise error ${err.toExponential(2)} > ${tol}`);
  return err;
}

const assertScalar = (label, got, want, tol) =>
  assert.ok(
    Math.abs(got - want) <= tol * (1 + Math.abs(want)),
    `${label}: ${got} vs ${want} (tol ${tol})`,
  );

for (const device of DEVICES) {
  describe(`parallel Kalman filter + smoother on ${device}`, () => {
    for (const dtype of ["float64", "float32"]) {
      for (const m of [1, 2, 3, 4, 5]) {
        test(`m = ${m}, n = ${N}, ${dtype}: moments, loglik, lax.scan, gradient`, async () => {
          const model = dlmModel(m, N, m);
          const want = kalmanOracle(model, model.theta0);
          const pk = parallelKalman(ox, model, { dtype, device });
          const tol = TOL[dtype];
          const theta = np.array(model.theta0, { dtype, device });
          const fs = ox.jit(pk.filterSmoother);
          const out = fs(theta);
          const [fm, fP, sm, sP, ll] = await Promise.all(
            [out.m, out.P, out.ms, out.Ps, out.loglik].map((x) => x.data()),
          );
          const errs = {
            m: assertRel("filtered means", fm, want.ms, tol.moments),
            P: assertRel("filtered covariances", fP, want.Ps, tol.moments),
            ms: assertRel("smoothed means", sm, want.sms, tol.moments),
            Ps: assertRel("smoothed covariances", sP, want.sPs, tol.moments),
          };
          assertScalar("loglik vs oracle", ll[0], want.loglik, tol.loglik);

          // The sequential lax.scan filter (same dtype and device) agrees with the parallel one.
          const scanFn = ox.jit(pk.loglikScan);
          const llScan = scanFn(theta);
          const [llS] = await llScan.data();
          assertScalar("loglik: lax.scan vs associativeScan", llS, ll[0], tol.loglik);

          // The gradient of the loss against central differences of the float64 oracle.
          const vg = ox.jit(ox.valueAndGrad(pk.loss));
          const [value, grad] = vg(theta);
          const [v, g] = await Promise.all([value.data(), grad.data()]);
          assertScalar("loss value", v[0], -want.loglik, tol.loglik);
          let gradErr = 0;
          lossGradFd(model).forEach((fd, i) => {
            assertScalar(`dloss/dθ[${i}]`, g[i], fd, tol.grad);
            gradErr = Math.max(gradErr, Math.abs(g[i] - fd) / (1 + Math.abs(fd)));
          });
          console.log(
            `# ${device} ${dtype} m=${m}: normwise errors`,
            Object.entries(errs)
              .map(([k, e]) => `${k} ${e.toExponential(1)}`)
              .join(", "),
            `| gradient ${gradErr.toExponential(1)} | loglik ${ll[0].toFixed(6)} (oracle ${want.loglik.toFixed(6)}, scan ${llS.toFixed(6)})`,
          );
          ox.tree.dispose([theta, out, llScan, value, grad]);
          [fs, scanFn, vg].forEach((f) => f.dispose());
          pk.dispose();
        });
      }
    }

    test(`MLE: Adam on jit(valueAndGrad(loss)) decreases the loss (m = 2, float32)`, async () => {
      const model = dlmModel(2, N, 7);
      const pk = parallelKalman(ox, model, { device });
      const fit = mleLoop(ox, optax, model, pk.loss, { device, lr: 0.05 });
      const losses = [];
      const dispatches = [];
      for (let it = 0; it < 4; it++) {
        const d0 = ox.memoryStats().devices[device].dispatches;
        losses.push(await fit.iterate());
        dispatches.push(ox.memoryStats().devices[device].dispatches - d0);
      }
      // The loss of the first step is the oracle's at θ₀; Adam then descends.
      assertScalar("first loss", losses[0], lossJs(model, model.theta0), TOL.float32.loglik);
      assert.ok(losses[3] < losses[0], `losses ${losses}`);
      console.log(`# ${device} MLE m=2 n=${N}: losses ${losses.map((l) => l.toFixed(4))}`);
      console.log(`# ${device} MLE dispatches per iteration: ${dispatches.join(", ")}`);
      fit.dispose();
      pk.dispose();
    });
  });
}
