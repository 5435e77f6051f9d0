// The wide form of webgpu elementwise kernels (four elements per invocation, turned on by the
// test hook `debugWideElementwise`) where the suite runs on webgpu — Deno with lavapipe and
// Chromium with SwiftShader, so both WGSL compilers (naga, Tint) take its shaders: a jitted
// chain with a where over float32 and int32, a transposed operand plus a broadcast row,
// slices at aligned and unaligned offsets, and a bool result, all on an odd size, equal the
// cpu device's values in both forms; the hook's counter shows which form ran. Node has no
// WebGPU.
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, ON_WEBGPU, checkLeaksAroundEachTest } from "./helpers.mjs";
import { wasm } from "../../pkg/bridge.js";

checkLeaksAroundEachTest();

const skip = !ON_WEBGPU && "webgpu only (Deno and Chromium run the suite there)";
const values = (n, seed) =>
  Array.from({ length: n }, (_, k) => (((k * 37 + seed * 11) % 101) - 50) * 0.25);

/** The cases' results on `device`, read back; every array made is disposed. */
async function results(device) {
  const made = [];
  const keep = (a) => (made.push(a), a);
  const x = keep(np.array(values(1001, 1), { device }));
  const k = keep(np.array(values(1001, 2).map(Math.trunc), { device, dtype: "int32" }));
  const f = ox.jit((t, j) => np.where(t.less(0), t.mul(1.5).add(0.5).mul(t).sub(2), j.mul(3)));
  const chain = keep(f(x, k));
  const rows = keep(np.array(values(40, 3), { device }));
  const m = keep(keep(x.slice([0, 1000])).reshape([40, 25]));
  const transposed = keep(keep(m.transpose()).add(rows));
  const shifted = keep(keep(x.slice([4, 1001])).sub(keep(x.slice([3, 1000]))));
  const less = keep(x.less(k));
  const data = [];
  for (const out of [chain, transposed, shifted, less]) data.push(Array.from(await out.data()));
  made.forEach((a) => a.dispose());
  f.dispose();
  return data;
}

for (const wide of [false, true]) {
  test(
    `elementwise kernels with the wide form ${wide ? "on" : "off"} match cpu`,
    { skip },
    async () => {
      wasm.debugWideElementwise(wide);
      try {
        const before = wasm.debugWideElementwise(undefined);
        const gpu = await results("webgpu");
        const ran = wasm.debugWideElementwise(undefined) - before;
        assert.ok(wide ? ran >= 4 : ran === 0, `${ran} wide dispatches`);
        assert.deepEqual(gpu, await results("cpu"));
      } finally {
        wasm.debugWideElementwise(false);
      }
    },
  );
}
