// The API suite (tests/api/*.test.mjs) on webgpu in Chromium with SwiftShader: each file loads
// in tests/browser/api.html, whose import map gives it browser stand-ins for node:test,
// node:assert/strict and node:fs; tests/api/helpers.mjs sees OXJAX_TEST_DEVICE=webgpu, starts
// WebGPU with 8 storage buffers and makes it the default device. One Playwright test per file;
// every failing API test comes back with its name and error. Files and tests that cannot run
// on webgpu are listed, with reasons, in tests/api/webgpu_skips.mjs.
import { expect, test } from "@playwright/test";
import { readdirSync } from "node:fs";
import { WEBGPU_SKIP_FILES } from "../api/webgpu_skips.mjs";

// The Kalman scan cases (scan-seeds.test.mjs) take minutes per case on a software GPU: they
// run on webgpu in Deno (scripts/test.mjs), not here, to keep `npm test` short.
const CHROMIUM_SKIP = ["scan-seeds.test.mjs"];
const files = readdirSync("tests/api")
  .filter((f) => f.endsWith(".test.mjs") && !(f in WEBGPU_SKIP_FILES) && !CHROMIUM_SKIP.includes(f))
  .sort();

for (const file of files) {
  test(`API tests ${file} on webgpu in Chromium`, async ({ page }) => {
    test.setTimeout(600_000);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    // WebGPU validation errors (an invalid shader or pipeline) only reach the console.
    page.on("console", (m) => {
      if (m.type() !== "log" && /WGSL|Invalid|WebGPU/.test(m.text())) errors.push(m.text());
    });
    await page.goto("/tests/browser/api.html");
    const result = await page.evaluate(async (file) => {
      (globalThis as { OXJAX_TEST_DEVICE?: string }).OXJAX_TEST_DEVICE = "webgpu";
      await import(`/tests/api/${file}`);
      const { runRegistered } = await import("/tests/browser/node_shims/test.mjs");
      return await runRegistered();
    }, file);
    console.log(
      `${file}: ${result.passed} passed, ${result.failed.length} failed, ` +
        `${result.skipped.length} skipped`,
    );
    expect(result.failed).toEqual([]);
    expect(result.passed).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
}
