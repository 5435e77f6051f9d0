// The NumPy-generated cases on WebGPU in Deno (lavapipe on CPU machines), with a leak check.
import { init, memoryStats, numpy as np } from "../../pkg/index.js";
// @ts-types="../shared/numpy_cases.d.ts"
import { caseLabel, runCase } from "../shared/numpy_cases.mjs";

await init();
const { cases } = JSON.parse(
  await Deno.readTextFile(new URL("../data/numpy_expected.json", import.meta.url)),
);

cases.forEach((c: unknown, i: number) => {
  Deno.test(`webgpu: ${caseLabel(c, i)}`, async () => {
    const before = memoryStats().liveArrays;
    await runCase(np, c, "webgpu");
    const after = memoryStats().liveArrays;
    if (after !== before) throw new Error(`leaked ${after - before} arrays`);
  });
});
