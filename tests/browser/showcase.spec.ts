// The showcase: the first frame's escape counts on wasm and webgpu against NumPy's float32
// iteration (tests/data/mandelbrot_expected.json, from scripts/gen_demo_data.py). Points on the
// set's boundary may round differently (fused multiply-adds), so 99% must match exactly.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { demoState, expectResponsive, openDemo, shown, waitDone } from "./demo-helpers";

const oracle = JSON.parse(readFileSync("tests/data/mandelbrot_expected.json", "utf8"));

interface ShowcaseState {
  frame0: number[];
  liveArrays: number;
  liveArraysAfterSecondFrame: number;
}

for (const [device, frames] of [
  ["wasm", 8],
  ["webgpu", 3],
] as const) {
  test(`Mandelbrot frames on ${device} match NumPy`, async ({ page }) => {
    const demo = await openDemo(
      page,
      `/www/showcase/?device=${device}&w=${oracle.width}&frames=${frames}`,
    );
    await waitDone(page, 40_000);
    expect(await shown(page, "frame")).toBe(frames);
    expect(await shown(page, "frame-ms")).toBeGreaterThan(0);
    const state = await demoState<ShowcaseState & { device: string }>(page);
    expect(state.device).toBe(device);
    expect(state.frame0).toHaveLength(oracle.counts.length);
    const same = state.frame0.filter((c, i) => c === oracle.counts[i]).length;
    expect(same / oracle.counts.length).toBeGreaterThan(0.99);
    expect(state.liveArrays).toBe(state.liveArraysAfterSecondFrame);
    await expectResponsive(demo);
    await page.screenshot({ path: `artifacts/showcase-${device}.png`, fullPage: true });
    expect(demo.errors).toEqual([]);
  });
}
