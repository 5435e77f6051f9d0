// The wasm device reuses freed buffers (size-class pool): a loop that allocates and frees the
// same shapes reaches a steady state — wasm memory stops growing, freed bytes are pooled (not
// live), and every allocation after the first round is served from the pool.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const wasmStats = () => ox.memoryStats().devices.wasm;

function round(data) {
  const x = np.array(data, { device: "wasm" });
  const t = x.mul(2);
  const y = t.add(1);
  const s = y.sum();
  const value = s.item();
  for (const a of [x, t, y, s]) a.dispose();
  return value;
}

/** Σ (2x + 1), exact (small integers). */
const expected = (data) => data.reduce((acc, x) => acc + 2 * x + 1, 0);

test("allocating and freeing in a loop reaches a steady state on wasm", () => {
  const sizes = [3, 1000, 4096, 50_000, 300_000];
  const inputs = sizes.map((n) => Float32Array.from({ length: n }, (_, i) => i % 5));
  const live0 = wasmStats().liveBytes;
  for (let i = 0; i < 5; i++) inputs.forEach(round); // warm up: kernels, pools
  const memory = ox.memoryStats().wasmMemoryBytes;
  const { poolBytes } = wasmStats();
  assert.ok(poolBytes >= 4 * 300_000, `pool holds the freed buffers: ${poolBytes}`);
  for (let i = 0; i < 40; i++) {
    inputs.forEach((data) => assert.equal(round(data), expected(data)));
  }
  assert.equal(ox.memoryStats().wasmMemoryBytes, memory, "wasm memory grew in steady state");
  assert.equal(wasmStats().poolBytes, poolBytes, "the pool grew in steady state");
  assert.equal(wasmStats().liveBytes, live0, "pooled bytes are not live");
});

test("pooled buffers are reused: contents are overwritten, not leaked into results", () => {
  const a = np.array([1, 2, 3, 4, 5, 6, 7, 8], { device: "wasm" });
  const b = a.mul(-1);
  b.dispose();
  // Same size class as b's freed buffer: the new result must not see b's values.
  const c = a.add(0.5);
  assert.deepEqual(Array.from(c.dataSync()), [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5]);
  a.dispose();
  c.dispose();
});

test("clearCaches() empties the wasm buffer pool and the compiled-kernel caches", () => {
  const data = Float32Array.from({ length: 10_000 }, (_, i) => i % 7);
  round(data);
  const jf = ox.jit((x) => x.mul(3).sub(1));
  const x = np.array([1, 2, 3], { device: "wasm" });
  jf(x).dispose();
  const before = wasmStats();
  assert.ok(before.poolBytes > 0 && before.kernelCacheEntries > 0, JSON.stringify(before));
  ox.clearCaches();
  const after = wasmStats();
  assert.equal(after.poolBytes, 0);
  assert.equal(after.poolBuffers, 0);
  assert.equal(after.kernelCacheEntries, 0);
  assert.equal(ox.memoryStats().devices.cpu.kernelCacheEntries, 0);
  // Everything still runs, compiling again.
  assert.equal(round(data), expected(data));
  const y = jf(x);
  assert.deepEqual(Array.from(y.dataSync()), [2, 5, 8]);
  for (const t of [x, y, jf]) t.dispose();
});
