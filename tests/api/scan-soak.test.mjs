// Seed case 4 (scaled down for the test suite): the Kalman associativeScan loss run many times
// in one process with fresh closures, bare and under jit. After a warm-up the live arrays,
// buffers, wasm memory, kernel cache and program cache stop growing (a plateau, not a leak).
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();
const { lax } = ox;

function makeLoss(n, m) {
  // Fresh closures (and fresh constant arrays) every call, as dlmMLE makes them.
  const G = np.eye(m, undefined, { device: "wasm" });
  const U = np.ones([n, m, 1], { device: "wasm" });
  const compose = (a, b) => {
    const A = np.matmul(b.A, a.A);
    const ab = np.matmul(b.A, a.b);
    const bb = ab.add(b.b);
    const aS = np.matmul(b.A, a.S);
    const At = np.matrixTranspose(b.A);
    const asa = np.matmul(aS, At);
    const S = asa.add(b.S);
    for (const x of [ab, aS, At, asa]) x[Symbol.dispose]();
    return { A, b: bb, S };
  };
  const loss = (theta) => {
    const gp = G.mul(theta);
    const A = np.broadcastTo(gp, [n, m, m]);
    const b = U.mul(theta);
    const out = lax.associativeScan(compose, { A, b, S: A });
    const s1 = np.sum(out.b);
    const s2 = np.sum(out.S);
    const r = s1.add(s2);
    ox.tree.dispose([gp, A, b, out, s1, s2]);
    return r;
  };
  return { loss, dispose: () => ox.tree.dispose([G, U]) };
}

test("repeated fresh closures of the associativeScan loss reach a steady state", () => {
  const theta = np.array(0.9, { device: "wasm" });
  const snap = () => {
    const s = ox.memoryStats();
    return {
      liveArrays: s.liveArrays,
      liveBuffers: s.devices.wasm.liveBuffers,
      wasmMemoryBytes: s.wasmMemoryBytes,
      kernels: s.devices.wasm.kernelCacheEntries,
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
    if (rep === 9) warm = snap();
  }
  const end = snap();
  assert.deepEqual(end, warm, "memory and caches grew after the warm-up");
  theta.dispose();
});
