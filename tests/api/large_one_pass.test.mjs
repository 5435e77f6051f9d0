// Arrays of one pass over memory at sizes past the host-made limit (64 KiB): `eye`, `arange`
// and `linspace` computed by a kernel on their device, and reads of strided views (the halves of `dsplit`, flipped rows)
// whose row lengths are multiples of 4 but not 8, or of neither, against oracles computed
// here in JavaScript, on every device; a leak check after every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEVICES, np, checkLeaksAroundEachTest, scopedAsync } from "./helpers.mjs";

checkLeaksAroundEachTest();

const eyeOracle = (n, m, k) => {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) if (i + k >= 0 && i + k < m) out[i * m + i + k] = 1;
  return out;
};

for (const device of DEVICES) {
  test(`eye past the host limit on ${device}: every diagonal, shape and dtype`, () =>
    scopedAsync(async (k) => {
      const shapes = [
        [300, 300],
        [257, 301],
        [301, 257],
        [1000, 20],
        [20, 1000],
      ];
      for (const [n, m] of shapes) {
        for (const d of [0, 1, -1, 5, -7, m - 1, -(n - 1), m, -n, m + 3]) {
          for (const dtype of ["float32", "int32", "bool", "float64"]) {
            if (dtype === "float64" && device === "webgpu") continue; // no f64 in WGSL
            const got = await k(np.eye(n, m, { k: d, dtype, device })).data();
            const want = eyeOracle(n, m, d);
            const label = `eye(${n}, ${m}, k=${d}, ${dtype})`;
            assert.equal(got.length, want.length, label);
            for (let i = 0; i < want.length; i++)
              if (Number(got[i]) !== want[i]) assert.fail(`${label}[${i}]: ${got[i]}`);
          }
        }
      }
    }));

  test(`arange and linspace past the host limit on ${device}: NumPy's f64 values, each dtype`, () =>
    scopedAsync(async (k) => {
      // NumPy computes start + i·step in float64 and converts once; Math.fround and the
      // integer conversions below do the same here.
      const convert = {
        float32: Math.fround,
        float64: (v) => v,
        int32: (v) => Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, Math.trunc(v))),
        uint32: (v) => Math.max(0, Math.min(2 ** 32 - 1, Math.trunc(v))),
      };
      const ranges = [
        [0, 40000, 1],
        [-5, 70000, 3],
        [16777000, 16777300 + 40000, 1], // crosses 2^24: float32 rounds
        [2 ** 31 - 30000, 2 ** 31 + 30000, 1], // past int32
        [0.5, 20000, 0.25],
        [1e9, 1e9 - 60000, -2],
      ];
      for (const dtype of Object.keys(convert)) {
        if (dtype === "float64" && device === "webgpu") continue; // no f64 in WGSL
        const check = async (label, arr, want) => {
          const got = await k(arr).data();
          assert.equal(got.length, want.length, label);
          for (let i = 0; i < want.length; i++)
            if (got[i] !== convert[dtype](want[i])) assert.fail(`${label}[${i}]: ${got[i]}`);
        };
        for (const [start, stop, step] of ranges) {
          const n = Math.max(0, Math.ceil((stop - start) / step));
          const want = Array.from({ length: n }, (_, i) => start + i * step);
          await check(
            `arange(${start}, ${stop}, ${step}, ${dtype})`,
            np.arange(start, stop, step, { dtype, device }),
            want,
          );
        }
        for (const [start, stop, num, endpoint] of [
          [0, 1, 30001, true],
          [-3, 7, 40000, false],
          [0, 29999, 30000, true],
          [5, 5 + 3 * 29999, 30000, true],
        ]) {
          const div = endpoint ? num - 1 : num;
          const step = (stop - start) / div;
          const want = Array.from({ length: num }, (_, i) =>
            endpoint && i === num - 1 ? stop : start + i * step,
          );
          const label = `linspace(${start}, ${stop}, ${num}, ${endpoint}, ${dtype})`;
          await check(label, np.linspace(start, stop, num, endpoint, { dtype, device }), want);
        }
      }
    }));

  test(`strided views past the host limit read right on ${device}`, () =>
    scopedAsync(async (k) => {
      for (const [rows, cols] of [
        [200, 1000],
        [130, 1004],
        [150, 998],
        [100, 1001],
      ]) {
        const values = Float32Array.from({ length: rows * cols }, (_, i) => (i % 9973) - 17);
        const x = k(np.array(values, { shape: [1, rows, cols], device }));
        const half = Math.ceil(cols / 2);
        const parts = np.arraySplit(x, 2, 2).map(k);
        for (const [p, part] of parts.entries()) {
          const w = p === 0 ? half : cols - half;
          const got = await part.data();
          assert.equal(got.length, rows * w);
          for (let r = 0; r < rows; r++)
            for (let c = 0; c < w; c++)
              if (got[r * w + c] !== values[r * cols + p * half + c])
                assert.fail(`part ${p} of ${rows}×${cols} at ${r},${c}`);
        }
        const flipped = await k(np.flip(k(x.reshape([rows, cols])), 0)).data();
        for (let r = 0; r < rows; r++)
          for (let c = 0; c < cols; c++)
            if (flipped[r * cols + c] !== values[(rows - 1 - r) * cols + c])
              assert.fail(`flip of ${rows}×${cols} at ${r},${c}`);
      }
    }));
}
