// The package bundled by Vite: the wasm is found as an asset relative to the bundle, with top-
// level await, and runs in Chromium without network access.
import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";

test.beforeAll(() => {
  execFileSync("node_modules/.bin/vite", ["build", "--config", "tests/vite/vite.config.mjs"], {
    stdio: "inherit",
  });
});

test("a Vite-bundled app computes with the default wasm device", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/artifacts/vite-dist/index.html");
  const out = page.locator("#result");
  await expect(out).toHaveText(JSON.stringify([1, 2, 3].map((v) => v * v)));
  await expect(out).toHaveAttribute("data-device", "wasm");
  expect(errors).toEqual([]);
});
