// Reverse-mode autodiff: gradients against JAX (tests/data/jax_grad_expected.json, made by
// scripts/gen_jax_expected.py from twin Python functions), against central finite differences
// in float64 on the cpu device, compositions (grad of grad, argnums, hasAux), ownership
// (`using`-style disposal inside the function, no leaks) and errors.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkLeaksAroundEachTest, errorMessage, np, ox } from "./helpers.mjs";
import { gradFns, scoped } from "../shared/grad_fns.mjs";

checkLeaksAroundEachTest();

const fns = gradFns(ox);

const { cases } = JSON.parse(
  readFileSync(new URL("../data/jax_grad_expected.json", import.meta.url), "utf8"),
);

const decode = (v) => (v === "nan" ? NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : v);

describe("grad matches jax.grad", () => {
  for (const c of cases.filter((c) => c.grad)) {
    for (const device of ["cpu", "wasm"]) {
      test(`${c.grad} on ${device}`, () => {
        const [a] = c.args;
        const x = np.array(a.data.map(decode), { shape: a.shape, device });
        const g = ox.grad(fns[c.grad])(x);
        const got = g.dataSync();
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

test("grad matches central finite differences in float64 for every rule", () => {
  const x0 = [0.31, -0.57, 0.83, 0.12];
  for (const [name, f] of Object.entries(fns)) {
    if (["matmul", "movement", "softmax_logsumexp", "broadcast_reshape"].includes(name)) continue;
    const x = np.array(x0, { dtype: "float64", device: "cpu" });
    const g = ox.grad(f)(x);
    const got = g.dataSync();
    const h = 1e-6;
    x0.forEach((_, i) => {
      const at = (d) => {
        const xs = np.array(
          x0.map((v, j) => (j === i ? v + d : v)),
          { dtype: "float64", device: "cpu" },
        );
        const y = f(xs);
        const v = y.item();
        y.dispose();
        xs.dispose();
        return v;
      };
      const fd = (at(h) - at(-h)) / (2 * h);
      assert.ok(
        Math.abs(got[i] - fd) <= 1e-6 * (1 + Math.abs(fd)),
        `${name}[${i}]: ${got[i]} vs ${fd}`,
      );
    });
    g.dispose();
    x.dispose();
  }
});

test("compositions: grad of grad, argnums tuples, hasAux, valueAndGrad", () => {
  const x = np.array([0.5, 1, 2], { dtype: "float64", device: "cpu" });
  const f = (t) => scoped((k) => np.sum(k(np.sin(t)).mul(t)));
  const g2 = ox.grad((t) => scoped((k) => np.sum(k(ox.grad(f)(t)))));
  const second = g2(x).consumeDataSync();
  [0.5, 1, 2].forEach((v, i) => {
    const want = 2 * Math.cos(v) - v * Math.sin(v);
    assert.ok(Math.abs(second[i] - want) < 1e-12, `${second[i]} vs ${want}`);
  });
  const y = np.array([3, 4], { dtype: "float64", device: "cpu" });
  const h = (a, b) => scoped((k) => np.sum(k(a.mul(a))).mul(k(np.sum(b))));
  const [ga, gb] = ox.grad(h, { argnums: [0, 1] })(x, y);
  assert.deepEqual(
    ga.js(),
    [0.5, 1, 2].map((v) => 2 * v * 7),
  );
  assert.deepEqual(gb.js(), [5.25, 5.25]);
  const [[value, aux], gx] = ox.valueAndGrad(
    (t) => {
      const s = np.sum(t.mul(t));
      return [s, t.mul(10)];
    },
    { hasAux: true },
  )(x);
  assert.equal(value.item(), 5.25);
  assert.deepEqual(aux.js(), [5, 10, 20]);
  assert.deepEqual(gx.js(), [1, 2, 4]);
  for (const t of [ga, gb, value, aux, gx, x, y]) t.dispose();
});

test("using and eager disposal inside the differentiated function cannot break the backward pass", () => {
  const x = np.array([0.5, -1.5], { dtype: "float64", device: "cpu" });
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
  assert.deepEqual(
    Array.from(g.dataSync()).map((v) => +v.toFixed(12)),
    [0.5, -1.5].map((v) => +(Math.exp(v) * (1 + v)).toFixed(12)),
  );
  g.dispose();
  x.dispose();
});

test("bad functions and arguments give clear errors", () => {
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
  assert.deepEqual(y.js(), [2, 3]);
  for (const t of [x, i, y]) t.dispose();
});

test("grad over pytrees: dict and list arguments, aux pytrees, tree helpers", () => {
  const params = {
    w: np.array(
      [
        [1, 2],
        [3, 4],
      ],
      { dtype: "float64", device: "cpu" },
    ),
    b: [np.array([0.5, -0.5], { dtype: "float64", device: "cpu" })],
  };
  const x = np.array([1, -1], { dtype: "float64", device: "cpu" });
  const loss = (p, v) =>
    scoped((k) => {
      const y = k(k(np.matmul(p.w, v)).add(p.b[0]));
      return [np.sum(k(y.mul(y))), { y: y.ref }];
    });
  const [[value, aux], g] = ox.valueAndGrad(loss, { hasAux: true })(params, x);
  // y = W x + b = [-0.5, -1.5]; loss = 2.5; dL/dW = 2 y xᵀ; dL/db = 2 y.
  assert.equal(value.item(), 2.5);
  assert.deepEqual(aux.y.js(), [-0.5, -1.5]);
  assert.deepEqual(g.w.js(), [
    [-1, 1],
    [-3, 3],
  ]);
  assert.deepEqual(g.b[0].js(), [-1, -3]);
  const [leaves, def] = ox.tree.flatten(g);
  assert.equal(leaves.length, 2);
  assert.equal(String(def), "{b: [*], w: *}");
  const doubled = ox.tree.map((a) => a.mul(2), g);
  assert.deepEqual(doubled.w.js(), [
    [-2, 2],
    [-6, 6],
  ]);
  for (const t of [doubled, g, aux, params]) ox.tree.dispose(t);
  value.dispose();
  x.dispose();
});

test("vjp: pytree outputs, reusable vjp function that owns its residuals, hasAux", () => {
  const x = np.array([0.5, 2], { dtype: "float64", device: "cpu" });
  const y = np.array([3, -1], { dtype: "float64", device: "cpu" });
  const f = (a, b) => ({ prod: a.mul(b), sq: np.sum(a.mul(a)) });
  const [out, vjpFn] = ox.vjp(f, [x, y]);
  assert.deepEqual(out.prod.js(), [1.5, -2]);
  assert.equal(out.sq.item(), 4.25);
  const ct = {
    prod: np.array([1, 10], { dtype: "float64", device: "cpu" }),
    sq: np.array(2, { dtype: "float64", device: "cpu" }),
  };
  for (let round = 0; round < 2; round++) {
    const [ga, gb] = vjpFn(ct);
    // d/da: ct.prod * b + ct.sq * 2a; d/db: ct.prod * a.
    assert.deepEqual(ga.js(), [3 + 2, -10 + 8]);
    assert.deepEqual(gb.js(), [0.5, 20]);
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
  assert.deepEqual(aux.js(), [1.5, 6]);
  const one = np.array(1, { dtype: "float64", device: "cpu" });
  const [g2] = fn2(one);
  assert.deepEqual(g2.js(), [Math.exp(0.5), Math.exp(2)]);
  fn2.dispose();
  for (const t of [out, ct, x, y, o2, aux, g2, one]) ox.tree.dispose(t);
});

test("jvp: directional derivatives over pytrees, by transposing the vjp", () => {
  const f64 = (v) => np.array(v, { dtype: "float64", device: "cpu" });
  const x = f64([0.5, -1]);
  const y = f64([2, 3]);
  const tx = f64([1, 0.5]);
  const ty = f64([-1, 2]);
  const f = (a, b) => ({ p: np.sin(a).mul(b), q: np.sum(a.mul(a)) });
  const [out, tan] = ox.jvp(f, [x, y], [tx, ty]);
  const xs = [0.5, -1];
  const ys = [2, 3];
  assert.deepEqual(
    out.p.js(),
    xs.map((v, i) => Math.sin(v) * ys[i]),
  );
  // d p = cos(a)·b·ta + sin(a)·tb;  d q = Σ 2a·ta
  const dp = xs.map((v, i) => Math.cos(v) * ys[i] * [1, 0.5][i] + Math.sin(v) * [-1, 2][i]);
  tan.p.js().forEach((v, i) => assert.ok(Math.abs(v - dp[i]) < 1e-12, `${v} vs ${dp[i]}`));
  assert.ok(Math.abs(tan.q.item() - (2 * 0.5 * 1 + 2 * -1 * 0.5)) < 1e-12);
  // An output that no input reaches has a zero tangent.
  const [o2, t2] = ox.jvp(() => f64([7]), [x], [tx]);
  assert.deepEqual(t2.js(), [0]);
  assert.match(
    errorMessage(() => ox.jvp(f, [x, y], [tx])).message,
    /^jvp: tangents must have the primals' structure/,
  );
  for (const t of [out, tan, o2, t2, x, y, tx, ty]) ox.tree.dispose(t);
});
