// The NumPy-generated cases in Chromium on WebGPU (SwiftShader) and wasm: every case runs in
// the page and the failures come back. WebGPU is started with the spec minimum of 8 storage
// buffers, so kernels that would bind more are split; a concatenation of 20 arrays checks it.
import { expect, test } from "@playwright/test";

for (const device of ["webgpu", "wasm"]) {
  test(`NumPy cases on ${device} in Chromium`, async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto("/tests/browser/blank.html");
    const result = await page.evaluate(async (device) => {
      const ox = await import("/pkg/index.js");
      const { caseLabel, runCase } = await import("/tests/shared/numpy_cases.mjs");
      const load = async (name: string) =>
        (await (await fetch(`/tests/data/${name}`)).json()).cases;
      const cases = [...(await load("numpy_expected.json")), ...(await load("jax_expected.json"))];
      await ox.init({ maxStorageBuffers: 8, smallOnHost: false });
      const failures: string[] = [];
      const before = ox.memoryStats().liveArrays;
      for (const [i, c] of cases.entries()) {
        try {
          await runCase(ox, c, device);
        } catch (e) {
          failures.push(`${caseLabel(c, i)}: ${(e as Error).message}`);
        }
      }
      // 20 inputs: more than one kernel may bind with 8 storage buffers.
      const concat20 = async (on: string) => {
        const xs = Array.from({ length: 20 }, (_, j) =>
          ox.numpy.array([j, j + 0.5, -j], { device: on as "cpu" }),
        );
        const out = ox.numpy.concatenate(xs);
        const data = Array.from(await out.data());
        out.dispose();
        xs.forEach((x) => x.dispose());
        return JSON.stringify(data);
      };
      if ((await concat20(device)) !== (await concat20("cpu"))) {
        failures.push(`concatenate of 20 arrays on ${device} differs from cpu`);
      }
      return { n: cases.length, failures, leaked: ox.memoryStats().liveArrays - before };
    }, device);
    expect(result.failures).toEqual([]);
    expect(result.leaked).toBe(0);
    expect(result.n).toBeGreaterThan(100);
    expect(errors).toEqual([]);
  });
}
