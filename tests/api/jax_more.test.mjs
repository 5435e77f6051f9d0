// Further nn activations, scipySpecial.logit and random distributions against JAX
// (tests/data/jax_more_expected.json, made by scripts/gen_jax_more_expected.py) on the cpu and
// wasm devices; identity returns of nn; leak-checked after every case.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DEVICES, np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";
import { caseLabel, runCase } from "../shared/numpy_cases.mjs";

checkLeaksAroundEachTest();

const { cases } = JSON.parse(
  readFileSync(new URL("../data/jax_more_expected.json", import.meta.url), "utf8"),
);

for (const device of DEVICES) {
  describe(`nn, logit and random distributions on ${device} match JAX`, () => {
    cases.forEach((c, i) => test(caseLabel(c, i), () => runCase(ox, c, device)));
  });
}

test("nn identity returns and errors", async () => {
  const x = np.array([[1, 2, 3]]);
  // Identity results are new arrays sharing x's data: disposing one leaves x alive.
  for (const same of [
    ox.nn.identity(x),
    ox.nn.logmeanexp(x, []),
    ox.nn.standardize(x, []),
    np.positive(x),
    np.clip(x),
    np.swapaxes(x, 1, 1),
    ox.lax.stopGradient(x),
  ]) {
    assert.notEqual(same, x);
    assert.deepEqual(await same.jsAsync(), [[1, 2, 3]]);
    same.dispose();
    assert.equal(x.refCount, 1);
  }
  assert.throws(() => ox.nn.glu(x), /glu: axis -1 has odd length 3/);
  const k = ox.random.key(0);
  assert.throws(
    () => ox.random.categorical(k, x, { shape: [4, 1], replace: false }),
    /categorical: 4 samples without replacement exceed the 3 categories/,
  );
  assert.throws(
    () => ox.random.ball(k, 3, { p: 1 }),
    /ball: only the Euclidean p=2 case is supported/,
  );
  for (const d of [0, -2, 1.5]) {
    assert.throws(() => ox.random.ball(k, d), /ball: dimension must be a positive integer/);
  }
  x.dispose();
  k.dispose();
});

for (const device of DEVICES) {
  test(`random.ball on ${device}: the normal and uniform draws of split(key, 2), composed`, async () => {
    // Oracle: the already-tested normal and uniform of the two split keys, composed in float64
    // JS arithmetic as jax-js composes them: z / |z| · u^(1/d).
    const [d, rows] = [3, 5];
    const key = ox.random.key(7, { device });
    const keys = ox.random.split(key, 2);
    const [k1, k2] = np.unstack(keys);
    const z = ox.random.normal(k1, [rows, d]);
    const u = ox.random.uniform(k2, [rows, 1]);
    const [zs, us] = [await z.jsAsync(), await u.jsAsync()];
    const want = zs.map((row, i) => {
      const norm = Math.sqrt(row.reduce((a, x) => a + x * x, 0));
      const radius = Math.exp(Math.log(us[i][0]) / d);
      return row.map((x) => (x / norm) * radius);
    });
    const draws = [0, 1, 2].map(() => ox.random.ball(key, d, { shape: [rows] }));
    const first = await draws[0].jsAsync();
    assert.equal(draws[0].dtype, "float32");
    assert.deepEqual(draws[0].shape, [rows, d]);
    first.forEach((row, i) =>
      row.forEach((x, j) => {
        const w = want[i][j];
        assert.ok(Math.abs(x - w) <= 4e-6 * Math.max(1, Math.abs(w)), `[${i}, ${j}]: ${x} vs ${w}`);
      }),
    );
    assert.ok(first.every((row) => Math.hypot(...row) <= 1 + 1e-6));
    // Later calls (a compiled program from the second) give the same bits.
    for (const again of draws.slice(1)) assert.deepEqual(await again.jsAsync(), first);
    const single = ox.random.ball(key, 2);
    assert.deepEqual(single.shape, [2]);
    ox.tree.dispose([key, keys, k1, k2, z, u, draws, single]);
  });
}

test("dotProductAttention matches a direct softmax(q·kᵀ/√H)·v", async () => {
  const q = np.array([[[1, 0]], [[0, 1]], [[1, 1]]]); // [L=3, N=1, H=2]
  const k = np.array([[[1, 2]], [[0, -1]]]); // [S=2, K=1, H=2]
  const v = np.array([[[1, 0]], [[0, 1]]]);
  const out = ox.nn.dotProductAttention(q, k, v);
  assert.deepEqual(out.shape, [3, 1, 2]);
  const qd = (await q.jsAsync()).map((r) => r[0]);
  const kd = (await k.jsAsync()).map((r) => r[0]);
  const vd = (await v.jsAsync()).map((r) => r[0]);
  const got = await out.jsAsync();
  qd.forEach((qi, l) => {
    const s = kd.map((kj) => (qi[0] * kj[0] + qi[1] * kj[1]) / Math.SQRT2);
    const m = Math.max(...s);
    const e = s.map((x) => Math.exp(x - m));
    const z = e[0] + e[1];
    const want = [0, 1].map((h) => (e[0] * vd[0][h] + e[1] * vd[1][h]) / z);
    want.forEach((w, h) => assert.ok(Math.abs(got[l][0][h] - w) < 1e-5));
  });
  const causal = ox.nn.dotProductAttention(q, k, v, { isCausal: true });
  // Query 0 sees only key 0.
  assert.deepEqual(
    (await causal.jsAsync())[0][0].map((x) => Math.round(x * 1e5) / 1e5),
    [1, 0],
  );
  ox.tree.dispose([q, k, v, out, causal]);
});

test("dynamic slicing with array offsets differentiates (gather rules)", async () => {
  const x = np.array([1, 2, 3, 4, 5]);
  const i = np.array(2, { dtype: np.int32 });
  const w = np.array([10, 20]);
  const f = (y) => {
    const s = ox.lax.dynamicSlice(y, [i], [2]);
    const p = s.mul(w);
    try {
      return np.sum(p);
    } finally {
      s.dispose();
      p.dispose();
    }
  };
  const g = ox.grad(f)(x);
  assert.deepEqual(await g.jsAsync(), [0, 0, 10, 20, 0]);
  const upd = np.array([7, 8]);
  const u = ox.lax.dynamicUpdateSlice(x, upd, i);
  assert.deepEqual(await u.jsAsync(), [1, 2, 7, 8, 5]);
  ox.tree.dispose([x, i, w, g, upd, u]);
});
