// The MLP demo: a network trained in the page on wasm classifies the held-out digits (labels
// from scikit-learn's data set, committed by scripts/gen_demo_data.py) with > 90% accuracy, and
// the same training steps on webgpu give the same losses as on wasm.
import { expect, test } from "@playwright/test";
import { demoState, expectResponsive, openDemo, shown, waitDone } from "./demo-helpers";

interface MlpState {
  losses: number[];
  accs: number[];
  accuracy: number;
  liveArrays: number;
  liveArraysAfterFirstEpoch: number;
}

test("MLP: 6 epochs on wasm reach > 90% held-out accuracy", async ({ page }) => {
  const demo = await openDemo(page, "/www/mlp/?device=wasm&epochs=6");
  await waitDone(page, 50_000);
  expect(await shown(page, "epoch")).toBe(6);
  expect(await shown(page, "accuracy")).toBeGreaterThan(90);
  const state = await demoState<MlpState>(page);
  expect(state.accuracy).toBeGreaterThan(0.9);
  expect(state.losses).toHaveLength(90);
  expect(state.losses[0]).toBeGreaterThan(1.5); // about ln 10 before training
  expect(Math.max(...state.losses.slice(-15))).toBeLessThan(0.5);
  expect(state.liveArrays).toBe(state.liveArraysAfterFirstEpoch);
  await expectResponsive(demo);
  await page.screenshot({ path: "artifacts/mlp-wasm.png", fullPage: true });
  expect(demo.errors).toEqual([]);
});

test("MLP: the first steps on webgpu give wasm's losses and accuracy", async ({ page }) => {
  test.setTimeout(120_000); // SwiftShader runs every dispatch on the CPU
  const run = async (device: string) => {
    const demo = await openDemo(page, `/www/mlp/?device=${device}&epochs=1&steps=6`);
    await waitDone(page, 80_000);
    expect(demo.errors).toEqual([]);
    await expectResponsive(demo);
    expect(await demoState(page)).toMatchObject({ device });
    return demoState<MlpState>(page);
  };
  const wasm = await run("wasm");
  const gpu = await run("webgpu");
  await page.screenshot({ path: "artifacts/mlp-webgpu.png", fullPage: true });
  expect(gpu.losses).toHaveLength(wasm.losses.length);
  gpu.losses.forEach((v, i) =>
    expect(Math.abs(v - wasm.losses[i])).toBeLessThan(1e-3 * wasm.losses[i]),
  );
  expect(Math.abs(gpu.accuracy - wasm.accuracy)).toBeLessThanOrEqual(2 / 297);
});
