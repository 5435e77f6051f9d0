// Reverse-mode autodiff: gradients against JAX (tests/data/jax_grad_expected.json, made by
// scripts/gen_jax_expected.py from twin Python functions), against central finite differences
// in float64 on the cpu device, compositions (grad of grad, argnums, hasAux), ownership
// (`using`-style disposal inside the function, no leaks) and errors.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  DEVICES,
  EXACT,
  EXACT_TOL,
  item,
  np,
  ox,
  assertExact,
  assertGradMatchesFd,
  checkLeaksAroundEachTest,
  errorMessage,
  webgpuSkip,
} from "./helpers.mjs";
import { gradFns, scoped } from "../shared/grad_fns.mjs";

checkLeaksAroundEachTest();

const fns = gradFns(ox);

const { cases } = JSON.parse(
  readFileSync(new URL("../data/jax_grad_expected.json", import.meta.url), "utf8"),
);

const decode = (v) => (v === "nan" ? NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : v);

describe("grad matches jax.grad", () => {
  for (const c of cases.filter((c) => c.grad)) {
    for (const device of DEVICES) {
      test(`${c.grad} on ${device}`, async () => {
        const [a] = c.args;
        const x = np.array(a.data.map(decode), { shape: a.shape, device });
        const g = ox.grad(fns[c.grad])(x);
        const got = await g.data();
        c.out.data.forEach((w, i) => {
          const want = decode(w);
          assert.ok(
            Math.abs(got[i] - want) <= c.atol + c.rtol * Math.abs(want),
            `element ${i}: got ${got[i]}, want ${want}`,
          );
        });
        g.dispose();
        x.dispose();
      });
    }
  }
});

test(
  "grad matches central finite differences in float64 for every rule",
  { skip: webgpuSkip("float64") },
  () => {
    const x0 = [0.31, -0.57, 0.83, 0.12];
    for (const [name, f] of Object.entries(fns)) {
      if (["matmul", "movement", "softmax_logsumexp", "broadcast_reshape"].includes(name)) continue;
      const x = np.array(x0, { dtype: "float64", device: "cpu" });
      const g = ox.grad(f)(x);
      const got = g.dataSync();
      const make = (v) => np.array(v, { dtype: "float64", device: "cpu" });
      assertGradMatchesFd(name, f, x0, make, got);
      g.dispose();
      x.dispose();
    }
  },
);

test("compositions: grad of grad, argnums tuples, hasAux, valueAndGrad", async () => {
  const x = np.array([0.5, 1, 2], EXACT);
  const f = (t) => scoped((k) => np.sum(k(np.sin(t)).mul(t)));
  const g2 = ox.grad((t) => scoped((k) => np.sum(k(ox.grad(f)(t)))));
  const second = await g2(x).consumeData();
  [0.5, 1, 2].forEach((v, i) => {
    const want = 2 * Math.cos(v) - v * Math.sin(v);
    assert.ok(Math.abs(second[i] - want) < EXACT_TOL, `${second[i]} vs ${want}`);
  });
  const y = np.array([3, 4], EXACT);
  const h = (a, b) => scoped((k) => np.sum(k(a.mul(a))).mul(k(np.sum(b))));
  const [ga, gb] = ox.grad(h, { argnums: [0, 1] })(x, y);
  assert.deepEqual(
    await ga.jsAsync(),
    [0.5, 1, 2].map((v) => 2 * v * 7),
  );
  assert.deepEqual(await gb.jsAsync(), [5.25, 5.25]);
  const [[value, aux], gx] = ox.valueAndGrad(
    (t) => {
      const s = np.sum(t.mul(t));
      return [s, t.mul(10)];
    },
    { hasAux: true },
  )(x);
  assert.equal(await item(value), 5.25);
  assert.deepEqual(await aux.jsAsync(), [5, 10, 20]);
  assert.deepEqual(await gx.jsAsync(), [1, 2, 4]);
  for (const t of [ga, gb, value, aux, gx, x, y]) t.dispose();
});

test("using and eager disposal inside the differentiated function cannot break the backward pass", async () => {
  const x = np.array([0.5, -1.5], EXACT);
  // Every intermediate disposed as soon as it is used, inputs' copies too.
  const f = (t) => {
    const copy = t.ref;
    const a = np.exp(copy);
    copy.dispose();
    const b = a.mul(t);
    a.dispose();
    const s = np.sum(b);
    b[Symbol.dispose]();
    return s;
  };
  const g = ox.grad(f)(x);
  assertExact(
    Array.from(await g.data()).map((v) => +v.toFixed(12)),
    [0.5, -1.5].map((v) => +(Math.exp(v) * (1 + v)).toFixed(12)),
  );
  g.dispose();
  x.dispose();
});

test("bad functions and arguments give clear errors", async () => {
  const x = np.array([1, 2]);
  const i = np.array([1, 2], { dtype: np.int32 });
  assert.match(
    errorMessage(() => ox.grad((t) => t.mul(2))(x)).message,
    /^grad: the function must return a float scalar, got Array:float32\[2\]/,
  );
  assert.match(
    errorMessage(() => ox.grad((t) => np.sum(t))(i)).message,
    /^grad: argument 0 must be a float array/,
  );
  assert.match(
    errorMessage(() => ox.grad(() => 3)(x)).message,
    /^grad: the output must be an Array/,
  );
  assert.match(
    errorMessage(() => ox.grad((t) => [t])(x, x)).message,
    /^grad: the output must be an Array/,
  );
  assert.match(
    errorMessage(() => ox.grad((t) => np.sum(t), { argnums: 3 })(x)).message,
    /^grad: argnums 3 is out of range/,
  );
  assert.match(
    errorMessage(() => ox.grad((t) => np.sum(t), { colour: 1 })(x)).message,
    /^grad: unknown option\(s\) colour/,
  );
  assert.match(
    errorMessage(() => ox.grad((t) => np.sum(t).astype(np.int32))(x)).message,
    /^grad: the function must return a float scalar, got Array:int32\[\]/,
  );
  // The failed traces left nothing behind: eager work goes on.
  const y = x.add(1);
  assert.deepEqual(await y.jsAsync(), [2, 3]);
  for (const t of [x, i, y]) t.dispose();
});

test("grad over pytrees: dict and list arguments, aux pytrees, tree helpers", async () => {
  const params = {
    w: np.array(
      [
        [1, 2],
        [3, 4],
      ],
      EXACT,
    ),
    b: [np.array([0.5, -0.5], EXACT)],
  };
  const x = np.array([1, -1], EXACT);
  const loss = (p, v) =>
    scoped((k) => {
      const y = k(k(np.matmul(p.w, v)).add(p.b[0]));
      return [np.sum(k(y.mul(y))), { y: y.ref }];
    });
  const [[value, aux], g] = ox.valueAndGrad(loss, { hasAux: true })(params, x);
  // y = W x + b = [-0.5, -1.5]; loss = 2.5; dL/dW = 2 y xᵀ; dL/db = 2 y.
  assert.equal(await item(value), 2.5);
  assert.deepEqual(await aux.y.jsAsync(), [-0.5, -1.5]);
  assert.deepEqual(await g.w.jsAsync(), [
    [-1, 1],
    [-3, 3],
  ]);
  assert.deepEqual(await g.b[0].jsAsync(), [-1, -3]);
  const [leaves, def] = ox.tree.flatten(g);
  assert.equal(leaves.length, 2);
  assert.equal(String(def), "JsTreeDef({b: [*], w: *})");
  const doubled = ox.tree.map((a) => a.mul(2), g);
  assert.deepEqual(await doubled.w.jsAsync(), [
    [-2, 2],
    [-6, 6],
  ]);
  for (const t of [doubled, g, aux, params]) ox.tree.dispose(t);
  value.dispose();
  x.dispose();
});

test("vjp: pytree outputs, reusable vjp function that owns its residuals, hasAux", async () => {
  const x = np.array([0.5, 2], EXACT);
  const y = np.array([3, -1], EXACT);
  const f = (a, b) => ({ prod: a.mul(b), sq: np.sum(a.mul(a)) });
  const [out, vjpFn] = ox.vjp(f, [x, y]);
  assert.deepEqual(await out.prod.jsAsync(), [1.5, -2]);
  assert.equal(await item(out.sq), 4.25);
  const ct = {
    prod: np.array([1, 10], EXACT),
    sq: np.array(2, EXACT),
  };
  for (let round = 0; round < 2; round++) {
    const [ga, gb] = vjpFn(ct);
    // d/da: ct.prod * b + ct.sq * 2a; d/db: ct.prod * a.
    assert.deepEqual(await ga.jsAsync(), [3 + 2, -10 + 8]);
    assert.deepEqual(await gb.jsAsync(), [0.5, 20]);
    ga.dispose();
    gb.dispose();
  }
  assert.match(
    errorMessage(() => vjpFn(ct.prod)).message,
    /^vjp: cotangents must have the output's structure/,
  );
  vjpFn.dispose();
  assert.match(errorMessage(() => vjpFn(ct)).message, /^vjp: the vjp function has been disposed/);
  vjpFn[Symbol.dispose](); // never throws
  const [o2, fn2, aux] = ox.vjp((a) => [np.sum(np.exp(a)), a.mul(3)], [x], { hasAux: true });
  assert.deepEqual(await aux.jsAsync(), [1.5, 6]);
  const one = np.array(1, EXACT);
  const [g2] = fn2(one);
  assertExact(await g2.jsAsync(), [Math.exp(0.5), Math.exp(2)]);
  fn2.dispose();
  for (const t of [out, ct, x, y, o2, aux, g2, one]) ox.tree.dispose(t);
});

test("jvp: directional derivatives over pytrees, by transposing the vjp", async () => {
  const f64 = (v) => np.array(v, EXACT);
  const x = f64([0.5, -1]);
  const y = f64([2, 3]);
  const tx = f64([1, 0.5]);
  const ty = f64([-1, 2]);
  const f = (a, b) => ({ p: np.sin(a).mul(b), q: np.sum(a.mul(a)) });
  const [out, tan] = ox.jvp(f, [x, y], [tx, ty]);
  const xs = [0.5, -1];
  const ys = [2, 3];
  assertExact(
    await out.p.jsAsync(),
    xs.map((v, i) => Math.sin(v) * ys[i]),
  );
  // d p = cos(a)·b·ta + sin(a)·tb;  d q = Σ 2a·ta
  const dp = xs.map((v, i) => Math.cos(v) * ys[i] * [1, 0.5][i] + Math.sin(v) * [-1, 2][i]);
  (await tan.p.jsAsync()).forEach((v, i) =>
    assert.ok(Math.abs(v - dp[i]) < EXACT_TOL, `${v} vs ${dp[i]}`),
  );
  assert.ok(Math.abs((await item(tan.q)) - (2 * 0.5 * 1 + 2 * -1 * 0.5)) < EXACT_TOL);
  // An output that no input reaches has a zero tangent.
  const [o2, t2] = ox.jvp(() => f64([7]), [x], [tx]);
  assert.deepEqual(await t2.jsAsync(), [0]);
  assert.match(
    errorMessage(() => ox.jvp(f, [x, y], [tx])).message,
    /^jvp: tangents must have the primals' structure/,
  );
  for (const t of [out, tan, o2, t2, x, y, tx, ty]) ox.tree.dispose(t);
});
