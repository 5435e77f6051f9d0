// Running reductions along long axes (cut into blocks by rules::lax::running): cumsum,
// cumprod, nancumsum and cumulativeSum of 1 to 5,000 elements, along either axis of a matrix,
// against sequential sums and products computed here in float64; under jit and vmap; and the
// gradient of Σ w·cumsum(x), which is the reversed running sum of w. Tolerance: 1e-5 of the
// largest magnitude in float32 (blocked and sequential sums round differently), exact for int32.
// Leak-checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEVICES, checkLeaksAroundEachTest, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const values = (n, seed = 1) =>
  Array.from({ length: n }, (_, i) => ((((i + seed) * 7919) % 1009) - 504) / 256);

/** Running `op` of `xs` in float64. */
const running = (xs, op) => {
  let acc = op === "sum" ? 0 : 1;
  return xs.map((x) => (acc = op === "sum" ? acc + x : acc * x));
};

function close(got, want, tol, label) {
  const scale = Math.max(1, ...want.map(Math.abs));
  want.forEach((w, i) => {
    assert.ok(Math.abs(got[i] - w) <= tol * scale, `${label}[${i}]: ${got[i]} vs ${w}`);
  });
}

for (const device of DEVICES) {
  test(`cumsum and cumprod of long axes on ${device} match sequential float64`, async () => {
    for (const n of [1, 31, 32, 33, 64, 1000, 5000]) {
      const xs = values(n);
      const x = np.array(xs, { device });
      const sum = np.cumsum(x);
      close(Array.from(await sum.data()), running(xs, "sum"), 1e-5, `cumsum ${n}`);
      // Factors near 1, so the product stays finite over 5,000 elements.
      const fs = xs.map((v) => 1 + v / 4096);
      const f = np.array(fs, { device });
      const prod = np.cumprod(f);
      close(Array.from(await prod.data()), running(fs, "prod"), 1e-5, `cumprod ${n}`);
      const ints = np.array(
        xs.map((v) => Math.round(v * 256)),
        { device, dtype: "int32" },
      );
      const isum = np.cumulativeSum(ints);
      assert.deepEqual(
        Array.from(await isum.data()),
        running(
          xs.map((v) => Math.round(v * 256)),
          "sum",
        ),
        `int32 cumsum ${n}`,
      );
      ox.tree.dispose([x, sum, f, prod, ints, isum]);
    }
  });

  test(`running sums along each axis, nancumsum, jit and vmap on ${device}`, async () => {
    const [r, c] = [70, 45];
    const xs = values(r * c, 3);
    const flat = np.array(xs, { device });
    const m = flat.reshape([r, c]);
    const rows = Array.from({ length: r }, (_, i) => xs.slice(i * c, (i + 1) * c));
    const cols = Array.from({ length: c }, (_, j) => rows.map((row) => row[j]));
    const along1 = np.cumsum(m, 1);
    close(
      Array.from(await along1.data()),
      rows.flatMap((row) => running(row, "sum")),
      1e-5,
      "axis 1",
    );
    const along0 = np.cumsum(m, 0);
    const want0 = cols.map((col) => running(col, "sum"));
    const got0 = Array.from(await along0.data());
    close(
      got0,
      rows.flatMap((_, i) => want0.map((col) => col[i])),
      1e-5,
      "axis 0",
    );
    const big = m.greater(1.9);
    const withNan = np.where(big, NaN, m);
    const nan = np.nancumsum(withNan, 0);
    const skipped = cols.map((col) =>
      running(
        col.map((v) => (v > 1.9 ? 0 : v)),
        "sum",
      ),
    );
    close(
      Array.from(await nan.data()),
      rows.flatMap((_, i) => skipped.map((col) => col[i])),
      1e-5,
      "nancumsum",
    );
    const jitted = ox.jit((a) => np.cumsum(a, 0));
    const j = jitted(m);
    close(Array.from(await j.data()), got0, 1e-6, "jit");
    // Columns mapped over (axis 1 in, stacked along axis 0 out): the transpose of axis 0.
    const mapped = ox.vmap((col) => np.cumsum(col), 1)(m);
    const byColumn = want0.flat();
    close(Array.from(await mapped.data()), byColumn, 1e-5, "vmap");
    ox.tree.dispose([flat, m, along1, along0, big, withNan, nan, j, mapped]);
    jitted.dispose();
  });

  test(`the gradient of a long cumsum on ${device} is the reversed running sum`, async () => {
    const n = 3000;
    const ws = values(n, 5);
    const w = np.array(ws, { device });
    const x = np.array(values(n, 9), { device });
    const g = ox.grad((a) => np.sum(np.cumsum(a).mul(w)))(x);
    const want = running([...ws].reverse(), "sum").reverse();
    close(Array.from(await g.data()), want, 1e-5, "grad");
    ox.tree.dispose([w, x, g]);
  });
}
