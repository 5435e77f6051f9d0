// The NumPy/SciPy linear algebra cases on WebGPU in Deno (lavapipe on CPU machines): the
// cholesky and triangular-solve routines run as WGSL shaders. float64 cases are left out (the
// webgpu device has no float64). A leak check follows every case.
import * as ox from "../../pkg/index.js";
const { init, memoryStats } = ox;
// @ts-types="../shared/linalg_cases.d.ts"
import { linalgLabel, runLinalgCase } from "../shared/linalg_cases.mjs";

await init({ smallOnHost: false });
const { cases } = JSON.parse(
  await Deno.readTextFile(new URL("../data/linalg_expected.json", import.meta.url)),
);

type Case = { args: { dtype: string }[] };
cases.forEach((c: Case, i: number) => {
  if (c.args.some((a) => a.dtype === "float64")) return;
  Deno.test(`webgpu: ${linalgLabel(c, i)}`, async () => {
    const before = memoryStats().liveArrays;
    await runLinalgCase(ox, c, "webgpu");
    const after = memoryStats().liveArrays;
    if (after !== before) throw new Error(`leaked ${after - before} arrays`);
  });
});
