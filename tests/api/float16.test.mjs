// float16 arrays against NumPy (tests/data/float16_expected.json, made by
// scripts/gen_float16_expected.py): conversion edges (ties to even, overflow to inf,
// subnormals), arithmetic, transcendentals (computed in float32, so within one float16 ulp of
// NumPy's), reductions, casts and promotion, on each device that has float16.
import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, SYNC, checkLeaksAroundEachTest, errorMessage } from "./helpers.mjs";

checkLeaksAroundEachTest();

const data = JSON.parse(
  readFileSync(new URL("../data/float16_expected.json", import.meta.url), "utf8"),
);
const decode = (v) =>
  v === "nan" ? NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : v === "-0" ? -0 : v;
const values = (c) => c.data.map(decode);
const F16_EPS = 2 ** -10;

/** `got` (a typed array or array) equals `c` exactly, or within `ulps` float16 ulps. */
function close(got, c, what, ulps = 0) {
  const want = values(c);
  assert.equal(got.length, want.length, what);
  for (let i = 0; i < want.length; i++) {
    const [g, w] = [got[i], want[i]];
    if (Number.isNaN(w)) assert.ok(Number.isNaN(g), `${what}[${i}]: ${g} is not NaN`);
    else if (ulps === 0 || !Number.isFinite(w)) {
      assert.ok(Object.is(g, w) || (g === w && w !== 0), `${what}[${i}]: ${g} !== ${w}`);
    } else {
      const tol = ulps * F16_EPS * Math.max(Math.abs(w), 2 ** -14);
      assert.ok(Math.abs(g - w) <= tol, `${what}[${i}]: ${g} vs ${w}`);
    }
  }
}

/** A float16 array from oracle case `c` (its values are exact float16 numbers). */
const f16 = (c, device) => np.array(values(c), { shape: c.shape, dtype: np.float16, device });

for (const device of ["cpu", "wasm"]) {
  test(`float16 on ${device}: conversion from numbers rounds once, to nearest even`, () => {
    const e = data.edges;
    const a = np.array(values(e.values), { dtype: np.float16, device });
    assert.equal(a.dtype, "float16");
    close(a.dataSync(), e.f16, "array(numbers, float16)");
    const s = np.array(values(e.f32), { dtype: np.float32, device });
    const c = s.astype(np.float16);
    close(c.dataSync(), e.f32_to_f16, "float32 → float16");
    const z = np.zeros([3], { dtype: np.float16, device });
    assert.equal(z.dtype, "float16");
    assert.deepEqual(Array.from(z.dataSync()), [0, 0, 0]);
    for (const t of [a, s, c, z]) t.dispose();
  });

  test(`float16 on ${device}: elementwise math against NumPy`, () => {
    for (const [name, c] of Object.entries(data.unary)) {
      const x = f16(c.x, device);
      const y = np[name](x);
      assert.equal(y.dtype, "float16", name);
      // Exact operations are correctly rounded; transcendentals within one ulp.
      const exact = ["sqrt", "negative", "abs", "floor", "ceil", "reciprocal"].includes(name);
      close(y.dataSync(), c.out, name, exact ? 0 : 1);
      x.dispose();
      y.dispose();
    }
    const [x, y] = [f16(data.x, device), f16(data.y, device)];
    for (const [name, c] of Object.entries(data.binary)) {
      const z = np[name](x, y);
      assert.equal(z.dtype, "float16", name);
      close(z.dataSync(), c, name);
      z.dispose();
    }
    const big = f16(data.big, device);
    const twice = big.add(big);
    close(twice.dataSync(), data.big_add, "overflow to inf");
    // float16 + float32 → float32; a JS number keeps float16.
    const w = np.array(values(data.w32), { dtype: np.float32, device });
    const p = x.add(w);
    assert.equal(p.dtype, "float32");
    close(p.dataSync(), data.x_plus_w32, "float16 + float32");
    const q = x.mul(0.3);
    assert.equal(q.dtype, "float16");
    close(q.dataSync(), data.x_times_weak, "float16 * 0.3");
    for (const t of [x, y, big, twice, w, p, q]) t.dispose();
  });

  test(`float16 on ${device}: reductions accumulate wider, then round`, () => {
    const x = f16(data.x, device);
    const big = f16(data.big, device);
    const r = data.reductions;
    const cases = [
      [x.sum(), r.sum, 1],
      [x.sum(0), r.sum0, 1],
      [x.sum(1), r.sum1, 1],
      [x.max(1), r.max1, 0],
      [x.min(0), r.min0, 0],
      [x.prod(1), r.prod1, 1],
      [x.mean(1), r.mean1, 2],
      [big.sum(), r.big_sum, 0], // partial sums pass 65504; NumPy's float32 accumulator does not overflow
    ];
    for (const [got, want, ulps] of cases) {
      assert.equal(got.dtype, "float16");
      close(got.dataSync(), want, "reduction", ulps);
      got.dispose();
    }
    x.dispose();
    big.dispose();
  });

  test(`float16 on ${device}: astype to and from every dtype`, () => {
    const x = f16(data.x, device);
    const c = data.casts;
    for (const [dtype, want] of [
      ["float32", c.to_f32],
      ["int32", c.to_i32],
      ["bool", c.to_bool],
      ...(device === "webgpu" ? [] : [["float64", c.to_f64]]),
    ]) {
      const y = x.astype(dtype);
      assert.equal(y.dtype, dtype);
      // bool reads back as 0/1 (Int32Array).
      const w = dtype === "bool" ? { data: want.data.map(Number) } : want;
      close(y.dataSync(), w, `float16 → ${dtype}`);
      const back = y.astype(np.float16); // every value here is a float16 again
      close(back.dataSync(), w, `${dtype} → float16`);
      for (const t of [y, back]) t.dispose();
    }
    const i = np.array(values(c.ints), { dtype: np.int32, device });
    const h = i.astype(np.float16);
    close(h.dataSync(), c.ints_to_f16, "int32 → float16");
    const ui = np.array([0, 7, 70000], { dtype: np.uint32, device });
    const u = ui.astype(np.float16);
    assert.deepEqual(Array.from(u.dataSync()), [0, 7, Infinity]);
    for (const t of [x, i, h, ui, u]) t.dispose();
  });
}

test("float16 readback: Float16Array where the runtime has one, else Float32Array", () => {
  // On cpu where webgpu is the default (no float16 there yet, and dataSync is synchronous).
  const a = np.array([1.5, -2], { dtype: np.float16, ...SYNC });
  const d = a.dataSync();
  const native = typeof globalThis.Float16Array === "function";
  assert.equal(d.constructor.name, native ? "Float16Array" : "Float32Array");
  assert.deepEqual(Array.from(d), [1.5, -2]);
  assert.deepEqual(a.js(), [1.5, -2]);
  assert.equal(np.float16, "float16");
  a.dispose();
});

test("float16 errors name the function", () => {
  const a = np.array(
    [
      [1, 2],
      [3, 4],
    ],
    { dtype: np.float16, device: "cpu" },
  );
  // float16 linear algebra works (tests/api/float16_linalg.test.mjs); bad shapes still name
  // the function.
  const at = a.T;
  const sym = a.add(at);
  const l = np.linalg.cholesky(sym);
  assert.equal(l.dtype, "float16");
  const wide = a.reshape([1, 4]);
  assert.match(errorMessage(() => np.linalg.cholesky(wide)).message, /^cholesky: .*square/);
  for (const t of [a, at, sym, l, wide]) t.dispose();
});
