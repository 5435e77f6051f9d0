// The package bundled by Vite: the wasm is found as an asset relative to the bundle, with top-
// level await, and runs in Chromium without network access; `@jax-js/onnx`, bundled with
// `@jax-js/jax` aliased to oxjax's consuming entry, runs an ONNX model as ONNX's reference
// evaluator does and leaves no live array.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

test.beforeAll(() => {
  execFileSync("node_modules/.bin/vite", ["build", "--config", "tests/vite/vite.config.mjs"], {
    stdio: "inherit",
  });
});

test("a Vite-bundled app computes on wasm and runs @jax-js/onnx on oxjax/consuming", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/artifacts/vite-dist/index.html");
  const out = page.locator("#result");
  await expect(out).toHaveText(JSON.stringify([1, 2, 3].map((v) => v * v)));
  await expect(out).toHaveAttribute("data-device", "wasm");
  const onnx = page.locator("#onnx");
  await expect(onnx).not.toHaveText("pending");
  const { values, liveArrays } = JSON.parse((await onnx.textContent()) ?? "");
  const expected = JSON.parse(
    readFileSync("tests/data/onnx/gemm_relu_softmax.expected.json", "utf8"),
  ).outputs.y.values as number[];
  expect(values.length).toBe(expected.length);
  values.forEach((v: number, i: number) => expect(Math.abs(v - expected[i])).toBeLessThan(1e-5));
  expect(liveArrays).toBe(0);
  expect(errors).toEqual([]);
});
