// The Nile demo: the maximum-likelihood fit reached in the page on wasm against the float64
// fits committed by scripts/gen_demo_data.py (statsmodels and a NumPy Kalman filter, which
// agree with Durbin & Koopman's 15099 and 1469.1), and webgpu against wasm step for step.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { demoState, expectResponsive, openDemo, shown, waitDone } from "./demo-helpers";

const ref = JSON.parse(readFileSync("www/data/nile.json", "utf8")).mle;
const relErr = (a: number, b: number) => Math.abs(a / b - 1);

interface NileState {
  level: number[];
  levelVar: number[];
  scanDiff?: number;
  liveArrays: number;
  liveArraysAfterFirstStep: number;
}

test("Nile: Adam on wasm converges to the maximum-likelihood variances", async ({ page }) => {
  const demo = await openDemo(page, "/www/nile/?device=wasm&steps=150");
  await waitDone(page, 50_000);
  const [se, sn, ll] = [
    await shown(page, "sigma2-eps"),
    await shown(page, "sigma2-eta"),
    await shown(page, "loglik"),
  ];
  expect(relErr(se, ref.sigma2_eps)).toBeLessThan(0.01);
  expect(relErr(sn, ref.sigma2_eta)).toBeLessThan(0.01);
  expect(relErr(se, 15099)).toBeLessThan(0.01); // Durbin & Koopman (2012), section 2.10
  expect(relErr(sn, 1469.1)).toBeLessThan(0.01);
  expect(Math.abs(ll - ref.loglik)).toBeLessThan(0.01);
  const state = await demoState<NileState>(page);
  // The smoothed level and variance at the fitted variances against the float64 smoother at the MLE.
  state.level.forEach((v, i) => expect(relErr(v, ref.smoothed_level[i])).toBeLessThan(2e-3));
  state.levelVar.forEach((v, i) => expect(relErr(v, ref.smoothed_var[i])).toBeLessThan(0.02));
  // The sequential (lax.scan) smoother against the parallel (associative scan) one, in float32.
  expect(state.scanDiff).toBeLessThan(0.05);
  expect(await shown(page, "scan-diff")).toBeLessThan(0.05);
  expect(state.liveArrays).toBe(state.liveArraysAfterFirstStep);
  await expectResponsive(demo);
  await page.screenshot({ path: "artifacts/nile-wasm.png", fullPage: true });
  expect(demo.errors).toEqual([]);
});

test("Nile: the same Adam steps on webgpu as on wasm", async ({ page }) => {
  test.setTimeout(150_000); // SwiftShader runs every dispatch on the CPU
  const run = async (device: string) => {
    const demo = await openDemo(page, `/www/nile/?device=${device}&steps=2`);
    await waitDone(page, 100_000);
    expect(demo.errors).toEqual([]);
    await expectResponsive(demo);
    const state = await demoState<NileState & { device: string }>(page);
    expect(state.device).toBe(device);
    expect(state.scanDiff).toBeLessThan(0.05); // lax.scan against lax.associativeScan
    return [await shown(page, "sigma2-eps"), await shown(page, "sigma2-eta"), ...state.level];
  };
  const wasm = await run("wasm");
  const gpu = await run("webgpu");
  await page.screenshot({ path: "artifacts/nile-webgpu.png", fullPage: true });
  // The variances after two steps, then the smoothed level: webgpu against wasm.
  gpu.forEach((v, i) => expect(relErr(v, wasm[i])).toBeLessThan(1e-3));
});
