// Compiled scans in Chromium on WebGPU (SwiftShader, 8 storage buffers): case 2 of bench/README.md
// (an RTS-style reverse lax.scan under jit, m = 3) is exactly one dispatch per call with path
// "fused", and matches the cpu device. Nothing leaks.
import { expect, test } from "@playwright/test";

test("case 2: a jitted reverse lax.scan is one WebGPU dispatch in Chromium", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/tests/browser/blank.html");
  const result = await page.evaluate(async () => {
    const ox = await import("/pkg/index.js");
    await ox.init({ maxStorageBuffers: 8, smallOnHost: false });
    const np = ox.numpy;
    const before = ox.memoryStats().liveArrays;
    const events: string[] = [];
    ox.setScanPathCallback((path: string, backend: string, info: { detail: string }) =>
      events.push(`${backend} ${path} ${info.detail}`),
    );
    const n = 50;
    const m = 3;
    const vals = (k: number, s: number) =>
      Array.from({ length: k }, (_, i) => 0.3 * Math.sin(1.7 * (i + s)));
    // No `using` here: the page function is transpiled by Playwright.
    const step = (c: { r: any; N: any }, e: { A: any; b: any; S: any }) => {
      const At = np.matrixTranspose(e.A);
      const atr = np.matmul(At, c.r);
      const r = atr.add(e.b);
      const atn = np.matmul(At, c.N);
      const atna = np.matmul(atn, e.A);
      const N = atna.add(e.S);
      [At, atr, atn, atna].forEach((x) => x.dispose());
      return [{ r, N }, r];
    };
    const run = async (device: "cpu" | "webgpu") => {
      const flat = [vals(n * m * m, 1), vals(n * m, 2), vals(n * m * m, 3)].map((v) =>
        np.array(v, { device }),
      );
      const A = flat[0].reshape([n, m, m]);
      const b = flat[1].reshape([n, m, 1]);
      const S = flat[2].reshape([n, m, m]);
      const r0 = np.zeros([m, 1], { device });
      const N0 = np.zeros([m, m], { device });
      const f = ox.jit((i: any, e: any) => ox.lax.scan(step, i, e, { reverse: true }));
      const d0 = ox.memoryStats().devices.webgpu?.dispatches ?? 0;
      const [c, rs] = f({ r: r0, N: N0 }, { A, b, S }) as any;
      const dispatches = (ox.memoryStats().devices.webgpu?.dispatches ?? 0) - d0;
      const data = [...(await c.N.data()), ...(await rs.data())];
      ox.tree.dispose([c, rs, A, b, S, r0, N0, flat]);
      f.dispose();
      return { dispatches, data };
    };
    const web = await run("webgpu");
    const cpu = await run("cpu");
    ox.setScanPathCallback(null);
    const worst = Math.max(
      ...web.data.map(
        (v: number, i: number) => Math.abs(v - cpu.data[i]) / (1 + Math.abs(cpu.data[i])),
      ),
    );
    return {
      dispatches: web.dispatches,
      events,
      worst,
      length: web.data.length,
      leaked: ox.memoryStats().liveArrays - before,
    };
  });
  expect(result.dispatches).toBe(1);
  expect(result.events.filter((e) => e.startsWith("webgpu"))).toEqual([
    expect.stringMatching(/^webgpu fused webgpu: one dispatch/),
  ]);
  expect(result.length).toBe(9 + 50 * 3);
  expect(result.worst).toBeLessThan(1e-4);
  expect(result.leaked).toBe(0);
  expect(errors).toEqual([]);
});
