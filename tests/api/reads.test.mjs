// Reads through `data()`, `jsAsync()`, `tree.data` and `consumeData`, several at once, of mixed
// dtypes and views (slices, transposes, broadcasts: materialised before the read). On webgpu
// (Deno, Chromium) reads requested in the same tick share ONE map
// (`memoryStats().devices.webgpu.readbackMaps`); on cpu and wasm (Node) reads are direct and
// map nothing. Values are checked against JS oracles; a read of a disposed array rejects with
// an Error naming `data` without failing the reads beside it. tests/deno/reads.test.ts covers
// float16, split groups, failed maps and the staging pool.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEVICES, np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";

checkLeaksAroundEachTest();

const maps = (device) => ox.memoryStats().devices[device].readbackMaps;

for (const device of DEVICES) {
  test(`Promise.all of reads of mixed dtypes and views on ${device}`, async () => {
    const m = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], { device });
    const x = m.reshape([3, 4]);
    const ints = np.array([5, -3, 7], { dtype: "int32", device });
    const row = np.array([1, 2], { device });
    const arrays = [
      x.ref,
      ints.ref,
      ints.greater(0),
      x.T,
      x.slice([], [1, 3]),
      np.broadcastTo(row, [2, 2]),
      np.zeros([0], { device }),
      np.array(2.5, { device }),
    ];
    const before = maps(device);
    const data = await Promise.all(arrays.map((a) => a.data()));
    assert.equal(maps(device) - before, device === "webgpu" ? 1 : 0, "maps");
    assert.deepEqual(data, [
      new Float32Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
      new Int32Array([5, -3, 7]),
      new Int32Array([1, 0, 1]),
      new Float32Array([0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]),
      new Float32Array([1, 2, 5, 6, 9, 10]),
      new Float32Array([1, 2, 1, 2]),
      new Float32Array([]),
      new Float32Array([2.5]),
    ]);
    const before2 = maps(device);
    const tree = await ox.tree.data({ a: arrays[2], b: [arrays[4], 3] });
    const nested = await Promise.all(arrays.slice(2, 5).map((a) => a.jsAsync()));
    assert.equal(maps(device) - before2, device === "webgpu" ? 2 : 0, "one map per tick");
    assert.deepEqual(tree, { a: new Int32Array([1, 0, 1]), b: [data[4], 3] });
    assert.deepEqual(nested[0], [true, false, true]);
    assert.deepEqual(nested[2], [
      [1, 2],
      [5, 6],
      [9, 10],
    ]);
    const consumed = await Promise.all(arrays.map((a) => a.consumeData()));
    assert.deepEqual(consumed, data);
    for (const a of [m, x, ints, row]) a.dispose();
  });

  test(`a read of a disposed array rejects alone, naming data, on ${device}`, async () => {
    const a = np.array([1, 2], { device });
    const gone = np.array([3], { device });
    gone.dispose();
    const [ok, bad] = await Promise.allSettled([a.data(), gone.data()]);
    assert.deepEqual(ok, { status: "fulfilled", value: new Float32Array([1, 2]) });
    assert.equal(bad.status, "rejected");
    assert.ok(bad.reason instanceof Error);
    assert.match(bad.reason.message, /^data: .*disposed/);
    // Disposing right after data() is safe: the read owns what it reads.
    const p = a.data();
    a.dispose();
    assert.deepEqual(await p, new Float32Array([1, 2]));
  });
}
