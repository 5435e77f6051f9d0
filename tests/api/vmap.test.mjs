// vmap, jacfwd, jacrev, hessian, linearize and jvp/vjp/valueAndGrad compositions: vmap against
// a loop of eager calls (inAxes forms, pytrees, nesting), compositions against JAX
// (tests/data/jax_transforms_expected.json, twins of scripts/gen_jax_expected.py) and float64
// finite differences, ownership (no leaks, disposable linear functions) and errors.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  DEVICES,
  item,
  np,
  ox,
  checkLeaksAroundEachTest,
  errorMessage,
  scoped,
  scopedAsync,
  webgpuSkip,
} from "./helpers.mjs";

checkLeaksAroundEachTest();

const { cases } = JSON.parse(
  readFileSync(new URL("../data/jax_transforms_expected.json", import.meta.url), "utf8"),
);
const comp = Object.fromEntries(cases.filter((c) => c.comp).map((c) => [c.comp, c]));

function close(got, want, tol = 2e-5, what = "") {
  const g = Array.from(got.flat?.(Infinity) ?? got);
  const w = Array.from(want);
  assert.equal(g.length, w.length, `${what}: ${g.length} values for ${w.length}`);
  g.forEach((v, i) =>
    assert.ok(Math.abs(v - w[i]) <= tol * (1 + Math.abs(w[i])), `${what}[${i}]: ${v} vs ${w[i]}`),
  );
}

/** Member `i` of `x` along `axis`. */
const member = (x, axis, i) => x.slice(...Array.from({ length: axis }, () => []), i);

describe("vmap matches a loop", () => {
  for (const device of DEVICES) {
    test(`inAxes forms, unbatched arguments and outputs, on ${device}`, async () => {
      const a = np.array(
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
        { device },
      );
      const b = np.array([0.5, -1, 2], { device });
      const f = (x, y) => scoped((k) => np.sum(k(k(np.sin(x)).mul(y))));
      // Default: axis 0 of every argument (b is batched too: sizes must agree → use [0, null]).
      for (const [axes, n, pick] of [
        [[0, null], 2, (i) => [member(a, 0, i), b]],
        [[1, 0], 3, (i) => [member(a, 1, i), member(b, 0, i)]],
        [[-1, 0], 3, (i) => [member(a, 1, i), member(b, 0, i)]],
      ]) {
        const g = (x, y) => f(x, y);
        const out = ox.vmap(g, axes)(a, axes[1] === null ? b : b);
        assert.deepEqual(out.shape, [n]);
        const got = await out.jsAsync();
        for (let i = 0; i < n; i++) {
          const args = pick(i);
          const want = f(...args);
          close([got[i]], [await item(want)], 1e-6, `axes ${axes} member ${i}`);
          want.dispose();
          for (const t of args) if (t !== b) t.dispose();
        }
        out.dispose();
      }
      // Default axes 0, a JS number argument, an output that does not depend on the batch.
      const [s, c] = ox.vmap((x, t) => [np.sum(x).mul(t), np.sum(b)], [0, null])(a, 2);
      assert.deepEqual(await s.jsAsync(), [12, 30]);
      assert.deepEqual(await c.jsAsync(), [1.5, 1.5]);
      // A JS number is weakly typed: it keeps an int32 argument int32.
      const ints = np.array([1, 2, 3], { dtype: np.int32, device });
      const scaled = ox.vmap((x, t) => x.mul(t), [0, null])(ints, 2);
      assert.equal(scaled.dtype, "int32");
      assert.deepEqual(await scaled.jsAsync(), [2, 4, 6]);
      for (const t of [s, c, a, b, ints, scaled]) t.dispose();
    });
  }

  test("pytree arguments with prefix inAxes, pytree outputs, nested vmap", async () => {
    const p = {
      w: np.array([
        [1, 2],
        [3, 4],
        [5, 6],
      ]),
      b: [np.array(10)],
    };
    const xs = np.array([
      [1, -1],
      [2, 0],
    ]);
    const f = (params, x) => ({
      y: np.matmul(params.w, x).add(params.b[0]),
      n: np.sum(x.mul(x)),
    });
    // params unbatched (null prefix), x batched on axis 0.
    const out = ox.vmap(f, [null, 0])(p, xs);
    assert.deepEqual(await out.y.jsAsync(), [
      [9, 9, 9],
      [12, 16, 20],
    ]);
    assert.deepEqual(await out.n.jsAsync(), [2, 4]);
    // A pytree inAxes entry: w batched on its axis 1, b not batched.
    const out2 = ox.vmap((q) => np.sum(q.w).add(q.b[0]), [{ w: 1, b: [null] }])(p);
    assert.deepEqual(await out2.jsAsync(), [19, 22]);
    // vmap of vmap: outer over rows, inner over columns.
    const outer = ox.vmap((row) => ox.vmap((v) => v.mul(v).add(row.sum()))(row))(p.w);
    assert.deepEqual(await outer.jsAsync(), [
      [4, 7],
      [16, 23],
      [36, 47],
    ]);
    for (const t of [out, out2, outer, p, xs]) ox.tree.dispose(t);
  });
});

test("vmap of library functions (compositions of many primitives) equals a loop exactly", async () => {
  const X = np.array([
    [
      [0.3, -1.2, 2.5, 0.7],
      [1.1, 0.4, -0.6, -2.0],
      [0.0, 0.9, 1.9, -0.3],
    ],
    [
      [-0.3, 1.2, -2.5, 0.1],
      [0.6, 0.5, 0.6, 2.0],
      [3.0, -0.9, 0.2, 0.8],
    ],
  ]);
  const key = ox.random.key(0);
  const keys = ox.random.split(key, 3);
  const mats = np.array([
    [
      [1, 2, 0],
      [0, 1, 3],
      [1, 0, 1],
    ],
    [
      [2, 0, 1],
      [1, 1, 0],
      [0, 3, 1],
    ],
  ]);
  const cases = {
    argmax: [(x) => np.argmax(x, 1), X],
    argsort: [(x) => np.argsort(x, 0), X],
    sort: [(x) => np.sort(x), X],
    cumsum: [(x) => np.cumsum(x, 1), X],
    softmax: [(x) => ox.nn.softmax(x), X],
    einsum: [(x) => np.einsum("ij,kj->ik", x, x), X],
    oneHot: [(x, k) => ox.nn.oneHot(k(np.argmax(x, 1)), 5), X],
    tril: [(x) => np.tril(x), X],
    diagonal: [(x) => np.diagonal(x), X],
    var: [(x) => np.var_(x, 0), X],
    take: [(x, k) => x.slice(k(np.array([2, 0], { dtype: np.int32 })), [1, 3]), X],
    clip: [(x) => np.clip(x, -0.5, 0.5), X],
    uniform: [(k) => ox.random.uniform(k, [2]), keys],
    normal: [(k) => ox.random.normal(k, [2]), keys],
    split: [(k) => ox.random.split(k, 2), keys],
    cholesky: [
      (a, k) => np.linalg.cholesky(k(k(np.matmul(a, k(a.T))).add(k(k(np.eye(3)).mul(3))))),
      mats,
    ],
    lu: [
      (a, k) => {
        const [lu, pivots, perm] = ox.lax.linalg.lu(a);
        k(lu);
        k(perm);
        return k(pivots).add(k(k(lu.sum(0)).astype(np.int32)));
      },
      mats,
    ],
    solve: [(a, k) => np.linalg.solve(k(a.add(k(k(np.eye(3)).mul(3)))), k(np.ones([3]))), mats],
    det: [(a) => np.linalg.det(a), mats],
  };
  for (const [name, [f, xs]] of Object.entries(cases)) {
    const out = ox.vmap((x) => scoped((k) => f(x, k)))(xs);
    const got = await out.jsAsync();
    out.dispose();
    const want = [];
    for (let i = 0; i < xs.shape[0]; i++) {
      want.push(await scopedAsync((k) => k(f(k(xs.slice(i)), k)).jsAsync()));
    }
    assert.deepEqual(got, want, name);
  }
  for (const t of [X, key, keys, mats]) t.dispose();
});

describe("compositions match JAX", () => {
  const f32 = (c, i = 0) => np.array(c.args[i].data, { shape: c.args[i].shape });

  test("vmap(grad(f)) and grad(vmap(f)) summed", async () => {
    const m = f32(comp.vmap_grad);
    const rowLoss = (r) => np.sum(np.sin(r).mul(r).mul(r));
    const g1 = ox.vmap(ox.grad(rowLoss))(m);
    close(await g1.jsAsync(), comp.vmap_grad.out.data, 2e-5, "vmap_grad");
    const colLse = (c) => np.log(np.sum(np.exp(c)));
    const g2 = ox.grad((t) => np.sum(ox.vmap(colLse, [1])(t)))(m);
    close(await g2.jsAsync(), comp.grad_vmap.out.data, 2e-5, "grad_vmap");
    for (const t of [m, g1, g2]) t.dispose();
  });

  test("jacfwd(jacrev(f)), hessian of a 3-parameter function, non-square Jacobians", async () => {
    const x = f32(comp.jacfwd_jacrev);
    const vecF = (t) => np.sin(t).mul(np.sum(t.mul(t)));
    const t3 = ox.jacfwd(ox.jacrev(vecF))(x);
    assert.deepEqual(t3.shape, [3, 3, 3]);
    close(await t3.jsAsync(), comp.jacfwd_jacrev.out.data, 2e-5, "jacfwd_jacrev");
    const three = (p) => {
      const [a, b, c] = [p.slice(0), p.slice(1), p.slice(2)];
      return a
        .mul(a)
        .mul(b)
        .add(np.sin(c).mul(a))
        .add(np.exp(b.mul(c)));
    };
    const h = ox.hessian(three)(x);
    assert.deepEqual(h.shape, [3, 3]);
    close(await h.jsAsync(), comp.hessian3.out.data, 2e-5, "hessian");
    const wide = (t) => np.stack([t.slice(0).mul(t.slice(1)), np.sin(t.slice(2))]);
    const jf = ox.jacfwd(wide)(x);
    assert.deepEqual(jf.shape, [3, 2]); // jax-js's layout: input axis first
    close(await jf.jsAsync(), comp.jacfwd_wide.out.data, 2e-5, "jacfwd_wide");
    const jr = ox.jacobian(wide)(x);
    assert.deepEqual(jr.shape, [2, 3]);
    close(await jr.jsAsync(), comp.jacrev_wide.out.data, 2e-5, "jacrev_wide");
    for (const t of [x, t3, h, jf, jr]) t.dispose();
  });

  test("vjp with pytree inputs and outputs; valueAndGrad with hasAux", async () => {
    const x = np.array([0.5, -0.3, 0.8]);
    const p = { a: x, b: [np.array([0.8, -0.3, 0.5])] };
    const c = np.array(1.5);
    const pt = (q, s) => ({ s: np.sum(q.a.mul(q.b[0])), v: [q.a.mul(s), np.sin(q.b[0])] });
    const [out, fVjp] = ox.vjp(pt, [p, c]);
    const ct = { s: np.array(2), v: [np.array([1, 2, 3]), np.array([-1, 0.5, 0.25])] };
    const [gp, gc] = fVjp(ct);
    const want = comp.vjp_pytree.out;
    close(await gp.a.jsAsync(), want.a.data, 2e-5, "a");
    close(await gp.b[0].jsAsync(), want.b0.data, 2e-5, "b");
    close([await item(gc)], want.c.data, 2e-5, "c");
    fVjp.dispose();
    const [[v, aux], g] = ox.valueAndGrad((t) => [np.sum(np.power(t, 3)), { m: np.mean(t) }], {
      hasAux: true,
    })(x);
    const w = comp.value_and_grad_aux.out;
    close([await item(v)], w.value.data, 2e-5, "value");
    close([await item(aux.m)], w.m.data, 2e-5, "aux");
    close(await g.jsAsync(), w.grad.data, 2e-5, "grad");
    for (const t of [out, ct, gp, gc, v, aux, g, p, c]) ox.tree.dispose(t);
  });

  test("jvp with hasAux and linearize (a reusable, disposable linear function)", async () => {
    const x = np.array([0.5, -0.3, 0.8]);
    const t = np.array([1.0, 0.5, -2.0]);
    const w = comp.jvp_linearize.out;
    const f = (y) => [np.sin(y).mul(y), { n: np.sum(y) }];
    const [po, to, aux] = ox.jvp(f, [x], [t], { hasAux: true });
    close(await po.jsAsync(), w.primal.data, 2e-5, "primal");
    close(await to.jsAsync(), w.tangent.data, 2e-5, "tangent");
    close([await item(aux.n)], [1.0], 1e-6, "aux");
    const [out, fLin, aux2] = ox.linearize(f, [x], { hasAux: true });
    close(await out.jsAsync(), w.primal.data, 2e-5, "linearize primal");
    close([await item(aux2.n)], [1.0], 1e-6, "linearize aux");
    for (let round = 0; round < 2; round++) {
      const lt = fLin(t);
      close(await lt.jsAsync(), w.tangent.data, 2e-5, "linearize tangent");
      lt.dispose();
    }
    assert.match(errorMessage(() => fLin(t, t)).message, /^linearize: tangents must have/);
    fLin.dispose();
    assert.match(
      errorMessage(() => fLin(t)).message,
      /^linearize: the linearized function has been disposed/,
    );
    fLin[Symbol.dispose](); // never throws
    for (const v of [po, to, aux, out, aux2, x, t]) ox.tree.dispose(v);
  });
});

test("jvp and linearize on concrete arrays run the tangent map as one compiled program", async () => {
  const device = DEVICES.at(-1);
  const x0 = Array.from({ length: 300 }, (_, i) => Math.sin(i) * 1.5);
  const t0 = Array.from({ length: 300 }, (_, i) => Math.cos(3 * i));
  const x = np.array(x0, { device });
  const t = np.array(t0, { device });
  // d/dx sin(x²) · t = cos(x²) · 2x · t (float64 in JS: the oracle).
  const want = x0.map((v, i) => Math.cos(v * v) * 2 * v * t0[i]);
  const f = (y) => np.sin(y.mul(y));
  const dispatches = () => ox.memoryStats().devices[device].dispatches;
  const [out, fLin] = ox.linearize(f, [x]);
  const applied = [];
  for (let round = 0; round < 3; round++) {
    const d = dispatches();
    const lt = fLin(t);
    applied.push(dispatches() - d);
    close(await lt.jsAsync(), want, 1e-5, "linearize tangent");
    lt.dispose();
  }
  // The map's equations (the transposed backward pass: ~27 on their own) run as a few fused
  // kernels, the same number every call.
  assert.ok(applied[0] <= 8, `linearize applied as ${applied[0]} dispatches`);
  assert.deepEqual(applied, [applied[0], applied[0], applied[0]]);
  const [po, to] = ox.jvp(f, [x], [t]);
  const lt = fLin(t);
  assert.deepEqual(Array.from(await to.data()), Array.from(await lt.data()), "jvp = linearize");
  close(await po.jsAsync(), await out.jsAsync(), 0, "jvp primal");
  for (const v of [out, po, to, lt, x, t]) v.dispose();
  fLin.dispose();
});

test(
  "hessian and jacobians match central finite differences in float64",
  { skip: webgpuSkip("float64") },
  () => {
    const opts = { dtype: "float64", device: "cpu" };
    const x0 = [0.5, -0.3, 0.8];
    const three = (p) =>
      scoped((k) => {
        const [a, b, c] = [k(p.slice(0)), k(p.slice(1)), k(p.slice(2))];
        return k(k(k(k(a.mul(a)).mul(b)).add(k(k(np.sin(c)).mul(a))))).add(k(np.exp(k(b.mul(c)))));
      });
    const x = np.array(x0, opts);
    const [ha, ja] = [
      ox.hessian(three)(x),
      ox.jacrev((t) => scoped((k) => np.sin(t).mul(k(np.sum(k(t.mul(t)))))))(x),
    ];
    const [h, jr] = [ha.js(), ja.js()];
    ha.dispose();
    ja.dispose();
    const h6 = 1e-4;
    const f = (v) => {
      const xs = np.array(v, opts);
      const y = three(xs);
      const r = y.item();
      y.dispose();
      xs.dispose();
      return r;
    };
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const at = (di, dj) => f(x0.map((v, k) => v + (k === i ? di : 0) + (k === j ? dj : 0)));
        const fd = (at(h6, h6) - at(h6, -h6) - at(-h6, h6) + at(-h6, -h6)) / (4 * h6 * h6);
        assert.ok(Math.abs(h[i][j] - fd) < 1e-6, `H[${i}][${j}]: ${h[i][j]} vs ${fd}`);
        const vf = (v) => Math.sin(v[i]) * v.reduce((s, q) => s + q * q, 0);
        const d = 1e-6;
        const fdj =
          (vf(x0.map((v, k) => v + (k === j ? d : 0))) -
            vf(x0.map((v, k) => v - (k === j ? d : 0)))) /
          (2 * d);
        assert.ok(Math.abs(jr[i][j] - fdj) < 1e-8, `J[${i}][${j}]: ${jr[i][j]} vs ${fdj}`);
      }
    }
    x.dispose();
  },
);

test("bad inAxes, bad outputs and non-vector Jacobian inputs give clear errors", async () => {
  const a = np.array([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const b = np.array([1, 2, 3]);
  const m = (re) => (fn) => assert.match(errorMessage(fn).message, re);
  m(/^vmap: inAxes has 1 entries for 2 argument\(s\)/)(() => ox.vmap((x, y) => x, [0])(a, b));
  m(/^vmap: batched axes have different sizes: argument 0 has 2 along axis 0, argument 1 has 3/)(
    () => ox.vmap((x, y) => x.mul(y))(a, b),
  );
  m(/^vmap: inAxes 2 is out of range for argument 0 of shape \[2, 3\]/)(() =>
    ox.vmap((x) => x, 2)(a),
  );
  m(/^vmap: inAxes -3 is out of range for argument 0 of rank 2/)(() => ox.vmap((x) => x, -3)(a));
  m(/^vmap: at least one argument must be batched/)(() => ox.vmap((x) => x, [null])(a));
  m(
    /^vmap: inAxes\[0\] JsTreeDef\(\{x: \*\}\) does not match the argument's structure JsTreeDef\(\*\)/,
  )(() => ox.vmap((x) => x, [{ x: 0 }])(a));
  m(/^vmap: every output leaf must be an Array, got number/)(() => ox.vmap(() => 3)(a));
  m(/^jacfwd only supports 1D inputs, got shape \[2, 3\]/)(() => ox.jacfwd((x) => x)(a));
  m(/^jacrev only supports 1D inputs/)(() => ox.jacrev((x) => x)(a));
  m(/^hessian|^jacfwd only supports 1D inputs/)(() => ox.hessian((x) => np.sum(x))(a));
  const i = np.array([1, 2], { dtype: np.int32 });
  m(/^jacfwd: the argument must be a float array, got int32/)(() => ox.jacfwd((x) => x)(i));
  m(/^jacfwd: outputs must be float arrays, got Array:int32\[3\]/)(() =>
    ox.jacfwd((x) => x.astype(np.int32))(b),
  );
  // Failed traces leave nothing behind: eager work goes on.
  const y = b.add(1);
  assert.deepEqual(await y.jsAsync(), [2, 3, 4]);
  for (const t of [a, b, i, y]) t.dispose();
});
