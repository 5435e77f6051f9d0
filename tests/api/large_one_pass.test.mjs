// Arrays of one pass over memory at sizes past the host-made limit (64 KiB): `eye` computed by
// a kernel on its device, and reads of strided views (the halves of `dsplit`, flipped rows)
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
