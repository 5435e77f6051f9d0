// The index page runs the first slice on every device in real Chromium (SwiftShader WebGPU),
// shows the package version and the devices found, and links every demo.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

test("index page computes on cpu, wasm and webgpu", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/www/");
  await expect(page.locator("body")).toHaveAttribute("data-done", "true", { timeout: 30_000 });
  const expected = JSON.stringify([1, 2, 3].map((v, i) => (v + [10, 20, 30][i]) * 2));
  for (const device of ["cpu", "wasm", "webgpu"]) {
    const cell = page.locator(`#result-${device}`);
    await expect(cell).toHaveAttribute("data-status", "ok");
    await expect(cell).toHaveText(expected);
  }
  const version = JSON.parse(readFileSync("pkg/package.json", "utf8")).version;
  await expect(page.locator("#version")).toHaveText(`v${version}`);
  await expect(page.locator("#status")).toHaveText("Devices found: cpu, wasm, webgpu");
  for (const demo of ["nile", "mlp", "showcase", "repl"]) {
    const link = page.locator(`#demos a[href="${demo}/"]`);
    await expect(link).toHaveCount(1);
    const res = await page.request.get(`/www/${demo}/`);
    expect(res.status()).toBe(200);
  }
  await page.screenshot({ path: "artifacts/index.png", fullPage: true });
  expect(errors).toEqual([]);
});
