// The seeds' workload in Chromium on WebGPU (SwiftShader, the storage-buffer limit forced to
// the spec minimum of 8): the exact parallel Kalman filter + smoother of
// tests/shared/kalman_parallel.mjs (m = 2, n = 30, float32) under jit(valueAndGrad), run as a
// staged program (routines inside stages, stage shaders sharing pipelines through parameters:
// what Tint must accept as well as naga). The loss and gradient match the float64 oracle, the
// filtered and smoothed moments match the cpu device, the second call compiles no shader, and
// nothing leaks.
import { expect, test } from "@playwright/test";

test("parallel Kalman MLE step on WebGPU in Chromium: oracle values, no recompiles, no leaks", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/tests/browser/blank.html");
  const result = await page.evaluate(async () => {
    const ox = await import("/pkg/index.js");
    const k = await import("/tests/shared/kalman_parallel.mjs");
    await ox.init({ maxStorageBuffers: 8, smallOnHost: false });
    const np = ox.numpy;
    const live = () => {
      const s = ox.memoryStats();
      return s.liveArrays + (s.devices.webgpu?.liveBuffers ?? 0);
    };
    const stats = () => ox.memoryStats().devices.webgpu!;
    const before = live();
    const model = k.dlmModel(2, 30, 2);
    const want = k.kalmanOracle(model, model.theta0);
    const pk = k.parallelKalman(ox, model, { device: "webgpu" });
    const theta = np.array(model.theta0, { device: "webgpu" });
    const vg = ox.jit(ox.valueAndGrad(pk.loss));
    const calls = [];
    let loss = 0;
    let grad: number[] = [];
    for (let call = 0; call < 2; call++) {
      const s0 = stats();
      const [v, g] = vg(theta) as any[];
      const [vd, gd] = await Promise.all([v.data(), g.data()]);
      const s1 = stats();
      calls.push({
        compiles: s1.shaderCompiles - s0.shaderCompiles,
        dispatches: s1.dispatches - s0.dispatches,
      });
      loss = vd[0];
      grad = Array.from(gd as Float32Array);
      ox.tree.dispose([v, g]);
    }
    // Moments of the filter + smoother, webgpu against cpu.
    const moments = async (device: "cpu" | "webgpu") => {
      const p = k.parallelKalman(ox, model, { device });
      const t = np.array(model.theta0, { device });
      const fs = ox.jit(p.filterSmoother);
      const out = fs(t) as any;
      const data = await Promise.all([out.m, out.P, out.ms, out.Ps].map((x: any) => x.data()));
      ox.tree.dispose([t, out]);
      fs.dispose();
      p.dispose();
      return data.map((d: any) => Array.from(d as Float32Array));
    };
    const [gpu, cpu] = [await moments("webgpu"), await moments("cpu")];
    const momentErr = Math.max(...gpu.map((g: number[], i: number) => k.normwiseError(g, cpu[i])));
    const fd = k.lossGradFd(model);
    const gradErr = Math.max(
      ...grad.map((g: number, i: number) => Math.abs(g - fd[i]) / (1 + Math.abs(fd[i]))),
    );
    theta.dispose();
    vg.dispose();
    pk.dispose();
    return {
      lossErr: Math.abs(loss + want.loglik) / (1 + Math.abs(want.loglik)),
      gradErr,
      momentErr,
      calls,
      tol: k.TOLERANCES.float32,
      leaked: live() - before,
    };
  });
  expect(result.lossErr).toBeLessThan(result.tol.loglik);
  expect(result.gradErr).toBeLessThan(result.tol.grad);
  expect(result.momentErr).toBeLessThan(result.tol.moments);
  // The first call compiles its shaders, the second none; a staged program, not a dispatch
  // per kernel (hundreds).
  expect(result.calls[0].compiles).toBeGreaterThan(0);
  expect(result.calls[1].compiles).toBe(0);
  expect(result.calls[1].dispatches).toBeLessThan(80);
  expect(result.leaked).toBe(0);
  expect(errors).toEqual([]);
});
