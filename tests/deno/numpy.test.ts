// The NumPy-generated cases on WebGPU in Deno (lavapipe on CPU machines), with a leak check.
import * as ox from "../../pkg/index.js";
const { init, memoryStats } = ox;
// @ts-types="../shared/numpy_cases.d.ts"
import { caseLabel, runCase } from "../shared/numpy_cases.mjs";

// The spec minimum of storage buffers, so kernels that would need more are split.
await init({ maxStorageBuffers: 8, smallOnHost: false });
const load = async (name: string) =>
  JSON.parse(await Deno.readTextFile(new URL(`../data/${name}`, import.meta.url))).cases;
const cases = [...(await load("numpy_expected.json")), ...(await load("jax_expected.json"))];

cases.forEach((c: unknown, i: number) => {
  Deno.test(`webgpu: ${caseLabel(c, i)}`, async () => {
    const before = memoryStats().liveArrays;
    await runCase(ox, c, "webgpu");
    const after = memoryStats().liveArrays;
    if (after !== before) throw new Error(`leaked ${after - before} arrays`);
  });
});
