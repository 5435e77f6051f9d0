// float16 results that rounding through float32 first would get wrong (two roundings), against
// NumPy's one rounding (tests/data/float16_rounding_expected.json, made by
// scripts/gen_float16_rounding_expected.py): float64 → float16 casts just off a tie (and on
// it), subnormals, overflow to inf, and float16 sums whose exact value lies next to a tie, on
// cpu and wasm, eagerly and under jit.
import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";

checkLeaksAroundEachTest();

const data = JSON.parse(
  readFileSync(new URL("../data/float16_rounding_expected.json", import.meta.url), "utf8"),
);
const decode = (v) =>
  v === "nan" ? NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : v === "-0" ? -0 : v;
const values = (c) => c.data.map(decode);

/** `got` equals oracle case `c` exactly (the sign of zero included; any NaN matches NaN). */
function same(got, c, what) {
  const want = values(c);
  assert.equal(got.length, want.length, what);
  for (let i = 0; i < want.length; i++) {
    const ok = Number.isNaN(want[i]) ? Number.isNaN(got[i]) : Object.is(got[i], want[i]);
    assert.ok(ok, `${what}[${i}]: got ${got[i]}, want ${want[i]}`);
  }
}

// webgpu has neither float64 nor (yet) float16 sums in f64: cpu and wasm only.
for (const device of ["cpu", "wasm"]) {
  test(`float64 → float16 on ${device} rounds once, as NumPy`, () => {
    const x = np.array(values(data.wide), { dtype: np.float64, device });
    const h = x.astype(np.float16);
    assert.equal(h.dtype, "float16");
    same(h.dataSync(), data.wide_f16, "astype");
    const f = ox.jit((a) => a.mul(1).astype(np.float16));
    const j = f(x);
    same(j.dataSync(), data.wide_f16, "jit(astype)");
    for (const t of [x, h, j]) t.dispose();
    f.dispose();
  });

  test(`float16 sums on ${device} round the exact sum once`, () => {
    const x = np.array(values(data.rows), { dtype: np.float16, shape: data.rows.shape, device });
    const rows = x.sum(1);
    assert.equal(rows.dtype, "float16");
    same(rows.dataSync(), data.row_sums, "sum(axis=1)");
    const cols = np.sum(x, 0);
    same(cols.dataSync(), data.col_sum, "sum(axis=0)");
    const f = ox.jit((a) => a.mul(1).sum(1));
    const j = f(x);
    same(j.dataSync(), data.row_sums, "jit(sum)");
    for (const t of [x, rows, cols, j]) t.dispose();
    f.dispose();
  });
}
