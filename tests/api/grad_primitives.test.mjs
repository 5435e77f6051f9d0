// Gradients of every primitive (and the numpy/nn functions built on them) with a VJP rule:
// each function below is the twin of one in scripts/gen_jax_expected.py (`prim_fns`), checked
// against jax.grad (tests/data/jax_transforms_expected.json) on cpu and wasm, and against
// central finite differences in float64 on the cpu device. The loss weights output element k
// by (k + 1) / 4 so every rule sees a non-uniform cotangent.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  DEVICES,
  assertGradMatchesFd,
  item,
  np,
  ox,
  checkLeaksAroundEachTest,
  scoped,
  webgpuSkip,
} from "./helpers.mjs";

checkLeaksAroundEachTest();

const { cases } = JSON.parse(
  readFileSync(new URL("../data/jax_transforms_expected.json", import.meta.url), "utf8"),
);

/** Σ y · (k + 1) / 4, the loss of every case. */
const wsum = (y, k) => {
  const w = k(
    k(k(k(np.arange(0, y.size, 1, { dtype: "float32" })).reshape(y.shape)).add(1)).mul(0.25),
  );
  return np.sum(k(y.mul(w)));
};

// name → (x, k, ...consts) => y (the loss applies wsum).
const fns = {
  neg: (x, k) => k(k(np.negative(x)).mul(x)),
  abs: (x, k) => k(np.abs(x)),
  reciprocal: (x, k) => k(np.reciprocal(k(x.add(2)))),
  sqrt: (x, k) => k(np.sqrt(k(k(x.mul(x)).add(0.5)))),
  exp: (x, k) => k(np.exp(x)),
  log: (x, k) => k(np.log(k(x.add(1)))),
  sin: (x, k) => k(np.sin(x)),
  cos: (x, k) => k(np.cos(x)),
  tanh: (x, k) => k(np.tanh(x)),
  arcsin: (x, k) => k(np.arcsin(x)),
  arctan: (x, k) => k(np.arctan(x)),
  erf: (x, k) => k(ox.scipySpecial.erf(x)),
  erfc: (x, k) => k(ox.scipySpecial.erfc(x)),
  floor: (x, k) => k(k(np.floor(k(x.mul(3)))).mul(x)),
  ceil: (x, k) => k(k(np.ceil(k(x.mul(3)))).mul(x)),
  add: (x, k) => k(x.add(k(np.flip(x)))),
  subtract: (x, k) => k(x.sub(k(x.mul(x)))),
  multiply: (x, k) => k(x.mul(k(np.flip(x)))),
  divide: (x, k) => k(x.div(k(k(x.mul(x)).add(1)))),
  maximum: (x, k) => k(np.maximum(x, k(k(np.flip(x)).mul(0.5)))),
  minimum: (x, k) => k(np.minimum(x, k(k(np.flip(x)).mul(0.5)))),
  fmod: (x, k) => k(np.fmod(k(x.mul(3)), k(k(x.mul(x)).add(0.7)))),
  where: (x, k) => k(np.where(k(x.greater(0)), k(x.mul(x)), k(np.sin(x)))),
  stop_gradient: (x, k) => k(k(ox.lax.stopGradient(x)).mul(x)),
  power: (x, k) => k(np.power(x, 3)),
  clip: (x, k) => k(k(np.clip(x, -0.4, 0.5)).mul(x)),
  sum: (x, k) => k(np.sum(k(x.mul(x)), 1)),
  prod: (x, k) => k(np.prod(x, 0)),
  max: (x, k) => k(np.max(x, 1)),
  min: (x, k) => k(np.min(x, 0)),
  mean: (x, k) => k(np.mean(k(np.sin(x)), 0)),
  var: (x, k) => k(np.var_(x, 1)),
  cumsum: (x, k) => k(np.cumsum(k(x.mul(x)), 1)),
  cumprod: (x, k) => k(np.cumprod(x, 1)),
  reshape: (x, k) => k(np.sin(k(x.reshape([3, 2])))),
  transpose: (x, k) => k(np.sin(k(x.T))),
  broadcast_to: (x, k) => k(np.sin(k(np.broadcastTo(x, [2, 6])))),
  slice: (x, k) => k(np.sin(k(x.slice([], [1, 3])))),
  flip: (x, k) => k(np.sin(k(np.flip(x, 1)))),
  concatenate: (x, k) => k(np.concatenate([x, k(np.sin(x))], 0)),
  matmul: (x, k) => k(np.matmul(x, k(x.T))),
  gather: (x, k) => {
    const idx = k(np.array([4, 0, 4, -1], { dtype: np.int32 }));
    return k(np.sin(k(x.slice(idx))));
  },
  conv: (x, k, w) =>
    k(
      ox.lax.convGeneralDilated(
        x,
        w,
        [1, 2],
        [
          [1, 0],
          [0, 1],
        ],
        { featureGroupCount: 2 },
      ),
    ),
  sort: (x, k) => k(np.sort(x)),
  softmax: (x, k) => k(ox.nn.softmax(x)),
  logsumexp: (x, k) => k(ox.nn.logsumexp(x, 0)),
  relu: (x, k) => k(k(ox.nn.relu(x)).mul(x)),
  sigmoid: (x, k) => k(ox.nn.sigmoid(x)),
};

const gradCases = cases.filter((c) => c.grad);
const loss = (name, consts) => (x) => scoped((k) => wsum(fns[name](x, k, ...consts), k));
const make = (a, opts) => np.array(a.data, { shape: a.shape, ...opts });

test("the cases cover at least 40 functions, each with a twin", () => {
  assert.ok(gradCases.length >= 40, `${gradCases.length} cases`);
  assert.deepEqual(gradCases.map((c) => c.grad).sort(), Object.keys(fns).sort());
});

describe("gradients match jax.grad", () => {
  for (const c of gradCases) {
    for (const device of DEVICES) {
      test(`${c.grad} on ${device}`, async () => {
        const [x, ...consts] = c.args.map((a) => make(a, { device }));
        const g = ox.grad(loss(c.grad, consts))(x);
        assert.deepEqual(g.shape, c.out.shape);
        const got = await g.data();
        c.out.data.forEach((want, i) => {
          assert.ok(
            Math.abs(got[i] - want) <= c.atol + c.rtol * Math.abs(want),
            `element ${i}: got ${got[i]}, want ${want}`,
          );
        });
        for (const t of [g, x, ...consts]) t.dispose();
      });
    }
  }
});

describe("gradients match central finite differences in float64", () => {
  // stop_gradient changes the derivative on purpose: finite differences see through it.
  for (const c of gradCases.filter((c) => c.grad !== "stop_gradient")) {
    test(c.grad, { skip: webgpuSkip("float64") }, () => {
      const opts = { dtype: "float64", device: "cpu" };
      const consts = c.args.slice(1).map((a) => make(a, opts));
      const f = loss(c.grad, consts);
      const x0 = c.args[0].data;
      const x = make(c.args[0], opts);
      const g = ox.grad(f)(x);
      const got = g.dataSync();
      const at = (v) => np.array(v, { shape: c.args[0].shape, ...opts });
      assertGradMatchesFd(c.grad, f, x0, at, got);
      for (const t of [g, x, ...consts]) t.dispose();
    });
  }
});
