// lax.bitcastConvertType called eagerly: the result reads the operand's bytes as the new dtype
// (checked against JS typed arrays over the same bytes, the independent oracle), on dense
// arrays and on views (transposed, sliced, broadcast), on every device under test. The bitcast
// shares its operand's buffer: no kernel runs (`memoryStats()` dispatches) and no buffer is
// made (liveBuffers). Under jit it is an ordinary kernel with the same bits. Bad dtypes are
// clear errors. A leak check after every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEVICES, checkLeaksAroundEachTest, errorMessage, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const counts = (device) => {
  const d = ox.memoryStats().devices[device];
  return { dispatches: d.dispatches, liveBuffers: d.liveBuffers };
};

/** Bits of float32 `values` (with signed zeros, infinities and a NaN) read as `Kind`. */
const VALUES = [1, -0, 0, 0.1, -2.5, Infinity, -Infinity, NaN, 3e38, 1e-40, 7, -123.456];
const reinterpret = (values, Kind) => Array.from(new Kind(Float32Array.from(values).buffer));

for (const device of DEVICES) {
  test(`bitcastConvertType on ${device}: the operand's bytes, no kernel, no new buffer`, async () => {
    const x = np.array(VALUES, { device, shape: [3, 4] });
    for (const [dtype, Kind] of [
      ["int32", Int32Array],
      ["uint32", Uint32Array],
    ]) {
      const before = counts(device);
      const b = ox.lax.bitcastConvertType(x, dtype);
      assert.deepEqual(counts(device), before, `${dtype}: the bitcast shares x's buffer`);
      assert.equal(b.dtype, dtype);
      assert.deepEqual(b.shape, [3, 4]);
      assert.deepEqual(Array.from(await b.data()), reinterpret(VALUES, Kind), dtype);
      // Back to float32: the same bits as x, NaN included.
      const back = ox.lax.bitcastConvertType(b, "float32");
      const bits = new Uint32Array((await back.data()).buffer);
      assert.deepEqual(Array.from(bits), reinterpret(VALUES, Uint32Array), `${dtype} → float32`);
      back.dispose();
      b.dispose();
    }
    x.dispose();
  });

  test(`bitcastConvertType of views on ${device} reads the view's elements`, async () => {
    const x = np.array(VALUES, { device, shape: [3, 4] });
    const t = x.transpose(); // [4, 3]
    const s = x.slice([1, 3], [1, 3]); // rows 1–2, columns 1–2
    const row0 = x.slice(0);
    const w = np.broadcastTo(row0, [2, 4]); // row 0 twice
    row0.dispose();
    const rows = [0, 1, 2].map((i) => VALUES.slice(4 * i, 4 * i + 4));
    const cases = [
      [t, [0, 1, 2, 3].flatMap((j) => rows.map((r) => r[j]))],
      [s, [rows[1][1], rows[1][2], rows[2][1], rows[2][2]]],
      [w, [...rows[0], ...rows[0]]],
    ];
    for (const [view, want] of cases) {
      const b = ox.lax.bitcastConvertType(view, "int32");
      assert.deepEqual(b.shape, view.shape);
      assert.deepEqual(Array.from(await b.data()), reinterpret(want, Int32Array));
      b.dispose();
      view.dispose();
    }
    x.dispose();
  });
}

test("bitcastConvertType under jit has the eager bits", async () => {
  const x = np.array(VALUES);
  const f = ox.jit((a) => ox.lax.bitcastConvertType(a.mul(2), "int32"));
  const jitted = f(x);
  const doubled = x.mul(2);
  const eager = ox.lax.bitcastConvertType(doubled, "int32");
  assert.deepEqual(Array.from(await jitted.data()), Array.from(await eager.data()));
  for (const a of [jitted, eager, doubled, x]) a.dispose();
  f.dispose();
});

test("bitcastConvertType to another size or to bool is a clear error", () => {
  const x = np.array([1, 2]);
  assert.match(
    errorMessage(() => ox.lax.bitcastConvertType(x, "float16")).message,
    /cannot bitcast float32 to float16/,
  );
  assert.match(
    errorMessage(() => ox.lax.bitcastConvertType(x, "bool")).message,
    /cannot bitcast float32 to bool/,
  );
  x.dispose();
});
