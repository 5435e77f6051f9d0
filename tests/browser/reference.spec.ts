// The API reference (www/reference/, built by the "API reference (TypeDoc)" layer of
// scripts/test.mjs, or `npm run docs`): the demos' index links it, the page of `lax.scan`
// shows its signature and doc comment, the guide's chapters are listed, and a screenshot of
// the `lax.scan` page is saved. Also the guide's browser page (getting started), run as
// written with its import pointed at the built package.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

test("the reference's lax.scan page renders, linked from the demos' index", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/www/");
  await page.locator("a#reference").click();
  await expect(page).toHaveURL(/\/www\/reference\/(index\.html)?$/);
  for (const chapter of ["Getting started", "Ownership", "Loops: lax.scan"]) {
    await expect(page.locator("nav").getByText(chapter).first()).toBeVisible();
  }

  await page.goto("/www/reference/functions/oxjax.lax.scan.html");
  await expect(page.locator("h1")).toContainText("scan");
  const signature = page.locator(".tsd-signature").first();
  await expect(signature).toContainText("scan");
  await expect(signature).toContainText("ScanOptions");
  await expect(page.locator(".tsd-comment").first()).toContainText("fused");
  await page.screenshot({ path: "artifacts/reference-lax-scan.png", fullPage: true });
  expect(errors).toEqual([]);
});

test("the getting-started browser page runs in Chromium", async ({ page }) => {
  const guide = readFileSync("docs/guide/getting-started.md", "utf8");
  const html = /```html\n([\s\S]*?)```/.exec(guide)?.[1];
  expect(html, "the guide has an html block").toBeTruthy();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/tests/browser/blank.html");
  await page.setContent(html!.replace("./node_modules/oxjax/index.js", "/pkg/index.js"));
  // linspace(0, 1, 5) squared, on webgpu (SwiftShader) or wasm.
  await expect(page.locator("body")).toHaveText("0, 0.0625, 0.25, 0.5625, 1", { timeout: 30_000 });
  expect(errors).toEqual([]);
});
