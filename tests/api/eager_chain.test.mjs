// The per-op path of eager code, checked with counters (never timings): a chain of dependent
// eager ops on the compiled device (wasm in Node, webgpu in Deno) dispatches the kernel kept
// from its first op without building or looking up a kernel again, on webgpu batched into
// few submits, and leaves one live buffer per live array; the results of a jitted function kept
// across calls come back from the device's pool (no buffer made). Values are compared with a
// float32 oracle (JS arithmetic rounded with Math.fround). A leak check follows every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, ON_WEBGPU, checkLeaksAroundEachTest, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const stats = () => ox.memoryStats().devices[COMPILED];
const lookups = (s) => s.kernelCacheHits + s.kernelCacheMisses;

test("a chain of dependent eager ops dispatches its kept kernel", async () => {
  const xs = [1, 2, 3, 4];
  const ys = [0.5, 0.25, -1, 2];
  const x0 = np.array(xs, { device: COMPILED });
  const y = np.array(ys, { device: COMPILED });
  const n = 200;
  const chain = () => {
    let x = x0;
    for (let i = 0; i < n; i++) {
      const next = x.add(y);
      if (i > 0) x.dispose();
      x = next;
    }
    return x;
  };
  chain().dispose(); // the first op builds and compiles the kernel
  const before = stats();
  const x = chain();
  const after = stats();
  assert.equal(after.dispatches - before.dispatches, n);
  assert.equal(lookups(after) - lookups(before), 0, "no kernel built or looked up again");
  assert.equal(after.liveBuffers, before.liveBuffers + 1);
  if (ON_WEBGPU) assert.ok(after.submits - before.submits <= Math.ceil(n / 64));
  const want = xs.map((v, i) => {
    let s = v;
    for (let k = 0; k < n; k++) s = Math.fround(s + ys[i]);
    return s;
  });
  assert.deepEqual(Array.from(await x.data()), want);
  // A transposed operand is read through its view: that kernel is built (not kept).
  const m = np.array([1, 2, 3, 4, 5, 6], { shape: [2, 3], device: COMPILED });
  const t = m.transpose();
  const mid = stats();
  const u = t.add(t);
  assert.equal(lookups(stats()) - lookups(mid), 1);
  assert.deepEqual(Array.from(await u.data()), [2, 8, 4, 10, 6, 12]);
  for (const a of [x, x0, y, m, t, u]) a.dispose();
});

test("results kept across calls of a jitted function come back from the pool", async () => {
  const n = 4096;
  const xs = Float32Array.from({ length: n }, (_, i) => (i % 97) / 16 - 3);
  const x = np.array(xs, { device: COMPILED });
  const f = ox.jit((t) => t.mul(1.5).add(0.5).mul(t).sub(2));
  const round = () => Array.from({ length: 8 }, () => f(x));
  const first = round();
  await first[7].blockUntilReady();
  for (const y of first) y.dispose();
  const before = stats();
  const kept = round();
  const after = stats();
  assert.equal(after.poolMisses - before.poolMisses, 0, "no buffer made for a kept result");
  assert.ok(after.poolHits - before.poolHits >= 8, JSON.stringify(after));
  assert.equal(after.liveBuffers, before.liveBuffers + 8);
  const f32 = Math.fround;
  const want = Array.from(xs, (v) => f32(f32(f32(f32(v * 1.5) + 0.5) * v) - 2));
  assert.deepEqual(Array.from(await kept[5].data()), want);
  for (const y of kept) y.dispose();
  f.dispose();
  x.dispose();
});
