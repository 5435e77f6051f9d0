// Reads of wasm arrays that are one contiguous range of the data memory (dense arrays, leading
// slices, the parts of a split) are copied out of that memory once by TypeScript: no kernel
// runs (`memoryStats()` dispatches), one readback of exactly the array's bytes is counted, and
// the result is a fresh, unshared typed array of the array's values. Other views, float16 and
// the cpu device keep their own read path; errors are those of `data()`. A leak check after
// every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, errorMessage, np, ox, scopedAsync } from "./helpers.mjs";

checkLeaksAroundEachTest();

const isShared = (b) => typeof SharedArrayBuffer !== "undefined" && b instanceof SharedArrayBuffer;
const wasmCounts = () => {
  const d = ox.memoryStats().devices.wasm;
  return { dispatches: d.dispatches, readbacks: d.readbacks, readbackBytes: d.readbackBytes };
};

/** `read(x)` (data or dataSync) with the wasm counters it moved. */
async function counted(read, x) {
  const before = wasmCounts();
  const got = await read(x);
  const after = wasmCounts();
  return {
    got,
    dispatches: after.dispatches - before.dispatches,
    readbacks: after.readbacks - before.readbacks,
    readbackBytes: after.readbackBytes - before.readbackBytes,
  };
}

const READS = [
  ["data", (x) => x.data()],
  ["dataSync", (x) => x.dataSync()],
];

for (const [how, read] of READS) {
  test(`${how} of dense wasm arrays: one copy, no kernel, every dtype`, () =>
    scopedAsync(async (k) => {
      const cases = [
        ["float32", Float32Array, [1.5, -2.25, 3e38, -0, NaN, 7]],
        ["int32", Int32Array, [1, -2, 2147483647, -2147483648, 0, 9]],
        ["uint32", Uint32Array, [1, 2, 4294967295, 0, 5, 6]],
        ["bool", Int32Array, [1, 0, 1, 1, 0, 0]],
      ];
      for (const [dtype, Want, values] of cases) {
        const x = k(np.array(values, { dtype, device: "wasm" }));
        const r = await counted(read, x);
        assert.ok(r.got instanceof Want, `${dtype}: ${r.got.constructor.name}`);
        assert.ok(!isShared(r.got.buffer), `${dtype}: shared result`);
        assert.equal(r.got.byteOffset, 0);
        assert.equal(r.got.buffer.byteLength, values.length * 4);
        assert.deepEqual(Array.from(r.got), Array.from(Want.from(values)), dtype);
        assert.deepEqual([r.dispatches, r.readbacks, r.readbackBytes], [0, 1, values.length * 4]);
        // A fresh copy: writing to it changes neither the array nor the next read.
        r.got.fill(0);
        assert.deepEqual(Array.from(await read(x)), Array.from(Want.from(values)), dtype);
      }
    }));

  test(`${how} of a large wasm array: a fresh copy of its own`, () =>
    scopedAsync(async (k) => {
      const n = 300_007;
      const values = Float32Array.from({ length: n }, (_, i) => (i % 977) * 0.25 - 3);
      const x = k(np.array(values, { device: "wasm" }));
      const r = await counted(read, x);
      assert.ok(r.got instanceof Float32Array);
      assert.ok(!isShared(r.got.buffer));
      assert.deepEqual([r.got.byteOffset, r.got.buffer.byteLength, r.got.length], [0, 4 * n, n]);
      assert.deepEqual(r.got, values);
      assert.deepEqual([r.dispatches, r.readbacks, r.readbackBytes], [0, 1, 4 * n]);
      r.got.fill(1);
      const again = await read(x);
      assert.notEqual(again.buffer, r.got.buffer);
      assert.deepEqual(again, values);
      // The second half of a split: a range starting inside the buffer.
      const [, tail] = np.split(k(x.slice([0, 300_000])), 2).map(k);
      assert.deepEqual(await read(tail), values.subarray(150_000, 300_000));
    }));

  test(`${how} of contiguous wasm views: the parts of a split, a leading slice`, () =>
    scopedAsync(async (k) => {
      const n = 1001;
      const values = Float32Array.from({ length: n * 3 }, (_, i) => i * 0.5 - 7);
      const x = k(np.array(values, { shape: [3, n], device: "wasm" }));
      const rows = np.split(x, 3, 0).map(k);
      for (const [i, row] of rows.entries()) {
        const r = await counted(read, row);
        assert.deepEqual(Array.from(r.got), Array.from(values.subarray(i * n, (i + 1) * n)));
        assert.deepEqual([r.dispatches, r.readbacks, r.readbackBytes], [0, 1, n * 4]);
      }
      const flat = k(x.reshape([3 * n]));
      const parts = np.arraySplit(flat, [10, 2000]).map(k);
      const bounds = [0, 10, 2000, 3 * n];
      for (const [i, part] of parts.entries()) {
        const r = await counted(read, part);
        assert.deepEqual(Array.from(r.got), Array.from(values.subarray(bounds[i], bounds[i + 1])));
        assert.equal(r.dispatches, 0, `part ${i}`);
      }
    }));

  test(`${how} of other views and dtypes keeps their read path`, () =>
    scopedAsync(async (k) => {
      const x = k(np.array([1, 2, 3, 4, 5, 6], { shape: [2, 3], device: "wasm" }));
      const t = await counted(read, k(x.T));
      assert.deepEqual(Array.from(t.got), [1, 4, 2, 5, 3, 6]);
      assert.equal(t.dispatches, 1, "a transpose is copied by a kernel first");
      const half = k(np.array([0.5, -2, 65504], { dtype: "float16", device: "wasm" }));
      assert.deepEqual(Array.from(await read(half)), [0.5, -2, 65504]);
      const c = k(np.array([1, 2, 3], { device: "cpu" }));
      assert.deepEqual(Array.from(await read(c)), [1, 2, 3]);
      const empty = k(np.zeros([0], { device: "wasm" }));
      assert.equal((await read(empty)).length, 0);
    }));

  test(`${how} of a freed wasm array fails as before`, async () => {
    const x = np.array([1, 2], { device: "wasm" });
    x.dispose();
    const message =
      how === "data"
        ? await x.data().then(String, (e) => e.message)
        : errorMessage(() => x.dataSync()).message;
    assert.match(message, /disposed|freed/);
  });
}
