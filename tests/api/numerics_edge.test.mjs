// Edge cases where oxjax differed from NumPy/JAX, on every device.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  np,
  ox,
  DEVICES,
  checkLeaksAroundEachTest,
  errorMessage,
  scopedAsync,
} from "./helpers.mjs";

checkLeaksAroundEachTest();

const i32 = (device, xs) => np.array(xs, { dtype: "int32", device });

for (const device of DEVICES) {
  test(`shifts by 32 or more give 0 (or the sign) as in XLA, on ${device}`, () =>
    scopedAsync(async (k) => {
      const x = k(i32(device, [1, 1, 1, -8]));
      const y = k(i32(device, [31, 32, -1, 1]));
      assert.deepEqual(await k(np.leftShift(x, y)).jsAsync(), [-(2 ** 31), 0, 0, -16]);
      const r = k(np.rightShift(k(i32(device, [-8, 8, -8])), k(i32(device, [40, 40, 2]))));
      assert.deepEqual(await r.jsAsync(), [-1, 0, -2]);
      assert.deepEqual(await k(np.rightShift(k(i32(device, [-8, 8])), 33)).jsAsync(), [-1, 0]);
      const u = k(np.array([1, 3], { dtype: "uint32", device }));
      const s = k(np.array([32, 1], { dtype: "uint32", device }));
      assert.deepEqual(await k(np.leftShift(u, s)).jsAsync(), [0, 6]);
    }));

  test(`int32 ** int32 is int32 (JAX), on ${device}`, () =>
    scopedAsync(async (k) => {
      const x = k(i32(device, [2, -2, 3, 1, -1, -1, 2, 0]));
      const y = k(i32(device, [10, 3, -1, -5, -3, -4, 0, 0]));
      const p = k(np.power(x, y));
      assert.equal(p.dtype, "int32");
      assert.deepEqual(await p.jsAsync(), [1024, -8, 0, 1, -1, 1, 1, 1]);
    }));

  test(`round keeps the sign of zero, topK ranks NaN first, mean of empty is NaN, on ${device}`, () =>
    scopedAsync(async (k) => {
      const r = k(np.round(k(np.array([-0.5, -0.2, 0.5, 1.5, -1.5, 2.5], { device }))));
      const got = await r.jsAsync();
      assert.deepEqual(got, [-0, -0, 0, 2, -2, 2]);
      assert.ok(Object.is(got[0], -0) && Object.is(got[1], -0));
      const [v] = ox.lax.topK(k(np.array([1, NaN, 3], { device })), 1).map(k);
      assert.ok(Number.isNaN((await v.jsAsync())[0]));
      assert.ok(Number.isNaN(await k(np.mean(k(np.zeros([0], { device })))).jsAsync()));
    }));
}

test("array() converts like NumPy: NaN is true, out-of-range integers are errors", async () =>
  scopedAsync(async (k) => {
    const b = k(np.array([NaN, 0, 2], { dtype: "bool" }));
    assert.deepEqual(await b.jsAsync(), [true, false, true]);
    assert.match(
      errorMessage(() => np.array([2 ** 40], { dtype: "int32" })).message,
      /^array: 1099511627776 is out of range for int32/,
    );
    assert.match(errorMessage(() => np.array([-1], { dtype: "uint32" })).message, /^array: /);
    assert.deepEqual(await k(np.array([1.7, -1.7], { dtype: "int32" })).jsAsync(), [1, -1]);
  }));

test("a vjp cotangent must have the output's float dtype", () =>
  scopedAsync(async (k) => {
    const x = k(np.array([1, 2]));
    const [y, f] = ox.vjp((t) => t.mul(2), [x]);
    k(y);
    try {
      const ct = k(np.array([1, 1], { dtype: "float64", device: "cpu" }));
      assert.match(errorMessage(() => f(ct)).message, /float64, but the output is float32/);
      const [g] = f(k(np.array([1, 1])));
      assert.deepEqual(await k(g).jsAsync(), [2, 2]);
    } finally {
      f.dispose();
    }
  }));
