// A jitted associativeScan in Chromium on WebGPU (SwiftShader, 8 storage buffers): case 1 of
// bench/README.md (Kalman elements (A, b, S), m = 1 and 2, n = 100: Kogge–Stone rounds), over
// the one-workgroup path's barrier cap for CPU adapters, runs as row-partitioned stages, at
// most two per round; the 3-tuple elementwise variant at n = 1000 (past 256: one lax.scan) as
// ONE dispatch per call; all match the cpu device. Nothing leaks (arrays and webgpu buffers).
import { expect, test } from "@playwright/test";

test("case 1 and the 3-tuple variant: a jitted associativeScan is one WebGPU dispatch or a few stages in Chromium", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/tests/browser/blank.html");
  const result = await page.evaluate(async () => {
    const ox = await import("/pkg/index.js");
    await ox.init({ maxStorageBuffers: 8, smallOnHost: false });
    const np = ox.numpy;
    const live = () => {
      const s = ox.memoryStats();
      return s.liveArrays + (s.devices.webgpu?.liveBuffers ?? 0);
    };
    const before = live();
    const n = 100;
    const vals = (k: number, s: number, scale: number) =>
      Array.from({ length: k }, (_, i) => scale * Math.sin(1.3 * i + s));
    // No `using` here: the page function is transpiled by Playwright.
    const compose = (a: any, b: any) => {
      const At = np.matrixTranspose(b.A);
      const A = np.matmul(b.A, a.A);
      const ab = np.matmul(b.A, a.b);
      const bb = ab.add(b.b);
      const aS = np.matmul(b.A, a.S);
      const asa = np.matmul(aS, At);
      const S = asa.add(b.S);
      [At, ab, aS, asa].forEach((x) => x.dispose());
      return { A, b: bb, S };
    };
    const run = async (device: "cpu" | "webgpu", m: number) => {
      const flat = [vals(n * m * m, 1, 0.4), vals(n * m, 2, 1), vals(n * m * m, 3, 0.1)].map((v) =>
        np.array(v, { device }),
      );
      const e = {
        A: flat[0].reshape([n, m, m]),
        b: flat[1].reshape([n, m, 1]),
        S: flat[2].reshape([n, m, m]),
      };
      const f = ox.jit((x: any) => ox.lax.associativeScan(compose, x));
      ox.tree.dispose(f(e));
      const d0 = ox.memoryStats().devices.webgpu?.dispatches ?? 0;
      const out = f(e) as any;
      const dispatches = (ox.memoryStats().devices.webgpu?.dispatches ?? 0) - d0;
      const data = [...(await out.A.data()), ...(await out.b.data()), ...(await out.S.data())];
      ox.tree.dispose([out, e, flat]);
      f.dispose();
      return { dispatches, data };
    };
    // (a, b, c) ⊕ (d, e, f) = (d·a, d·b + e, d·c + f), elementwise, n = 1000.
    const compose3 = (x: any[], y: any[]) => {
      const db = y[0].mul(x[1]);
      const dc = y[0].mul(x[2]);
      const out = [y[0].mul(x[0]), db.add(y[1]), dc.add(y[2])];
      [db, dc].forEach((t) => t.dispose());
      return out;
    };
    const run3 = async (device: "cpu" | "webgpu") => {
      const e = [0.9, 1, 0.5].map((s, k) => np.array(vals(1000, k, s), { device }));
      const f = ox.jit((x: any) => ox.lax.associativeScan(compose3, x));
      ox.tree.dispose(f(e));
      const d0 = ox.memoryStats().devices.webgpu?.dispatches ?? 0;
      const out = f(e) as any[];
      const dispatches = (ox.memoryStats().devices.webgpu?.dispatches ?? 0) - d0;
      const data = [...(await out[0].data()), ...(await out[1].data()), ...(await out[2].data())];
      ox.tree.dispose([out, e]);
      f.dispose();
      return { dispatches, data };
    };
    const worst = (a: number[], b: number[]) =>
      Math.max(...a.map((v, i) => Math.abs(v - b[i]) / (1 + Math.abs(b[i]))));
    const web = await run("webgpu", 1);
    const cpu = await run("cpu", 1);
    const web2 = await run("webgpu", 2);
    const cpu2 = await run("cpu", 2);
    const web3 = await run3("webgpu");
    const cpu3 = await run3("cpu");
    return {
      dispatches: [web.dispatches, web2.dispatches, web3.dispatches],
      worst: Math.max(
        worst(web.data, cpu.data),
        worst(web2.data, cpu2.data),
        worst(web3.data, cpu3.data),
      ),
      lengths: [web.data.length, web2.data.length, web3.data.length],
      leaked: live() - before,
    };
  });
  // SwiftShader is a CPU adapter: case 1 runs as stages (at most two per round: the body, and
  // the concatenate k rows later), the 3-tuple variant as one scan's single dispatch.
  expect(result.dispatches[0]).toBeLessThanOrEqual(14);
  expect(result.dispatches[1]).toBeLessThanOrEqual(14);
  expect(result.dispatches[2]).toBe(1);
  expect(result.lengths).toEqual([100 * 3, 100 * 10, 3 * 1000]);
  expect(result.worst).toBeLessThan(1e-4);
  expect(result.leaked).toBe(0);
  expect(errors).toEqual([]);
});
