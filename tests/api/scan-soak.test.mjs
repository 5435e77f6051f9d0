// Seed case 4 (scaled down for the test suite): the Kalman associativeScan loss run many times
// in one process with fresh closures, bare and under jit. After a warm-up the live arrays,
// buffers, wasm memory, kernel cache and program cache stop growing (a plateau, not a leak).
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";
import { makeAssocLoss } from "../shared/assoc_kalman.mjs";

checkLeaksAroundEachTest();

const makeLoss = (n, m) => makeAssocLoss(ox, n, m, COMPILED);

test("repeated fresh closures of the associativeScan loss reach a steady state", () => {
  const theta = np.array(0.9, { device: COMPILED });
  const snap = () => {
    const s = ox.memoryStats();
    return {
      liveArrays: s.liveArrays,
      liveBuffers: s.devices[COMPILED].liveBuffers,
      wasmMemoryBytes: s.wasmMemoryBytes,
      kernels: s.devices[COMPILED].kernelCacheEntries,
      programs: s.programCache.entries,
    };
  };
  let warm = null;
  for (let rep = 0; rep < 40; rep++) {
    const { loss, dispose } = makeLoss(50, 2);
    const vg = ox.jit(ox.valueAndGrad(loss));
    for (const f of [vg, ox.valueAndGrad(loss)]) {
      const [v, g] = f(theta);
      ox.tree.dispose([v, g]);
    }
    vg.dispose();
    dispose();
    // The wasm memory of the webgpu run reaches its plateau after about 15 repetitions.
    if (rep === 19) warm = snap();
  }
  const end = snap();
  assert.deepEqual(end, warm, "memory and caches grew after the warm-up");
  theta.dispose();
});
