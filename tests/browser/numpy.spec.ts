// The NumPy-generated cases in Chromium on WebGPU (SwiftShader) and wasm: every case runs in
// the page and the failures come back.
import { expect, test } from "@playwright/test";

for (const device of ["webgpu", "wasm"]) {
  test(`NumPy cases on ${device} in Chromium`, async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto("/www/");
    await expect(page.locator("body")).toHaveAttribute("data-done", "true", { timeout: 30_000 });
    const result = await page.evaluate(async (device) => {
      const ox = await import("/pkg/index.js");
      const { caseLabel, runCase } = await import("/tests/shared/numpy_cases.mjs");
      const load = async (name: string) =>
        (await (await fetch(`/tests/data/${name}`)).json()).cases;
      const cases = [...(await load("numpy_expected.json")), ...(await load("jax_expected.json"))];
      await ox.init();
      const failures: string[] = [];
      const before = ox.memoryStats().liveArrays;
      for (const [i, c] of cases.entries()) {
        try {
          await runCase(ox, c, device);
        } catch (e) {
          failures.push(`${caseLabel(c, i)}: ${(e as Error).message}`);
        }
      }
      return { n: cases.length, failures, leaked: ox.memoryStats().liveArrays - before };
    }, device);
    expect(result.failures).toEqual([]);
    expect(result.leaked).toBe(0);
    expect(result.n).toBeGreaterThan(100);
    expect(errors).toEqual([]);
  });
}
