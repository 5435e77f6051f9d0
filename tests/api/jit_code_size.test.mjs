// The cost of compiling a jitted gradient, as counters (never timings): the associativeScan
// Kalman loss's valueAndGrad lowers to ~110 kernels whose fused index arithmetic once emitted a
// local per division per SIMD lane and re-emitted whole subtrees per lane — one kernel of
// 16,000 locals that V8's baseline compiler took 15 s and 9.5 GB to compile. memoryStats()
// counts the emitted wasm bytes and the most locals of one kernel function.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, np, ox } from "./helpers.mjs";
import { makeAssocLoss } from "../shared/assoc_kalman.mjs";

checkLeaksAroundEachTest();

test("the associativeScan loss's jitted gradient emits small kernels that match cpu", () => {
  ox.clearCaches();
  const { loss, dispose } = makeAssocLoss(ox, 50, 2, "wasm");
  const theta = np.array(0.9, { device: "wasm" });
  const vg = ox.jit(ox.valueAndGrad(loss));
  const [v, g] = vg(theta);
  const s = ox.memoryStats().devices.wasm;
  // Measured after the fix: 168 locals at most, ~370 KB in all (before: 16,284 and 1.9 MB).
  assert.ok(s.kernelMaxLocals > 0 && s.kernelMaxLocals <= 400, `${s.kernelMaxLocals} locals`);
  assert.ok(s.kernelCodeBytes > 0 && s.kernelCodeBytes <= 600_000, `${s.kernelCodeBytes} bytes`);

  // The oracle: the same loss run eagerly by the cpu interpreter.
  const cpu = makeAssocLoss(ox, 50, 2, "cpu");
  const thetaCpu = np.array(0.9, { device: "cpu" });
  const [vc, gc] = ox.valueAndGrad(cpu.loss)(thetaCpu);
  const close = (a, b) => Math.abs(a - b) <= 1e-5 * Math.abs(b);
  assert.ok(close(v.js(), vc.js()), `value ${v.js()} vs cpu ${vc.js()}`);
  assert.ok(close(g.js(), gc.js()), `grad ${g.js()} vs cpu ${gc.js()}`);

  // clearCaches() starts the counters again.
  ox.clearCaches();
  const after = ox.memoryStats().devices.wasm;
  assert.equal(after.kernelCodeBytes, 0);
  assert.equal(after.kernelMaxLocals, 0);
  ox.tree.dispose([v, g, vc, gc, theta, thetaCpu]);
  vg.dispose();
  dispose();
  cpu.dispose();
});
