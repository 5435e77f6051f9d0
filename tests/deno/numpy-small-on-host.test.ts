// The NumPy-generated cases on WebGPU in Deno with small operations computed on the host
// (`init({ smallOnHost: true })`, the default; tests/deno/numpy.test.ts runs them on the GPU's
// kernels), with a leak check: most cases' arrays are small, so this checks the host path
// against NumPy's and JAX's values for every function the cases cover.
import * as ox from "../../pkg/index.js";
const { init, memoryStats } = ox;
// @ts-types="../shared/numpy_cases.d.ts"
import { caseLabel, runCase } from "../shared/numpy_cases.mjs";

await init({ maxStorageBuffers: 8, smallOnHost: true });
const load = async (name: string) =>
  JSON.parse(await Deno.readTextFile(new URL(`../data/${name}`, import.meta.url))).cases;
const cases = [...(await load("numpy_expected.json")), ...(await load("jax_expected.json"))];

cases.forEach((c: unknown, i: number) => {
  Deno.test(`webgpu, small on host: ${caseLabel(c, i)}`, async () => {
    const before = memoryStats().liveArrays;
    await runCase(ox, c, "webgpu");
    const after = memoryStats().liveArrays;
    if (after !== before) throw new Error(`leaked ${after - before} arrays`);
  });
});
