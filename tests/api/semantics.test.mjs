// Behaviours where oxjax follows jax-js (@jax-js/jax 0.1.25) and JAX: integer means, a number
// as the base of power, bool add/multiply, dstack, n-D dot, einsum's traces, diagonals,
// ellipses and sublist form, exact gelu, jax-js's tree definitions, Cholesky factors that are
// NaN only from the first failing pivot (with derivatives of the valid block), and the errors
// of bad arguments and of the functions transformations return. Expected values are computed
// here in plain JS (loops in float64) or are standard constants (the normal CDF).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  DEVICES,
  EXACT,
  EXACT_TOL,
  checkLeaksAroundEachTest,
  errorMessage,
  np,
  ox,
} from "./helpers.mjs";
import * as optax from "../../pkg/optax/index.js";
import { scopedAsync } from "../shared/scoped.mjs";

checkLeaksAroundEachTest();

const close = (got, want, tol, label) => {
  const g = got.flat(Infinity);
  const w = want.flat(Infinity);
  assert.equal(g.length, w.length, label);
  g.forEach((x, i) => {
    const ok = Number.isNaN(w[i])
      ? Number.isNaN(x)
      : Math.abs(x - w[i]) <= tol * (1 + Math.abs(w[i]));
    assert.ok(ok, `${label}[${i}]: ${x} vs ${w[i]}`);
  });
};

/** A nested JS array of `shape` with small integer values (exact in float32). */
const values = (shape, seed) => {
  const size = shape.reduce((a, b) => a * b, 1);
  const flat = Array.from({ length: size }, (_, i) => ((i * 7 + seed * 13) % 11) - 5);
  const build = (s, off) =>
    s.length === 0
      ? flat[off]
      : Array.from({ length: s[0] }, (_, i) =>
          build(s.slice(1), off + i * s.slice(1).reduce((a, b) => a * b, 1)),
        );
  return build(shape, 0);
};

for (const device of DEVICES) {
  describe(`jax-js semantics on ${device}`, () => {
    test("mean of an integer or bool array is float32", () =>
      scopedAsync(async (k) => {
        const m = k(np.mean(k(np.array([1, 2], { dtype: "int32", device }))));
        assert.equal(m.dtype, "float32");
        assert.equal(await m.jsAsync(), 1.5);
        const b = k(np.mean(k(np.array([true, false, false, false], { device })), 0));
        assert.equal(b.dtype, "float32");
        assert.equal(await b.jsAsync(), 0.25);
      }));

    test("power with a number base", () =>
      scopedAsync(async (k) => {
        const x = k(np.array([1, 2, 3, -1], { device }));
        assert.deepEqual(await k(np.power(2, x)).jsAsync(), [2, 4, 8, 0.5]);
        const xi = k(np.array([0, 1, 5], { dtype: "int32", device }));
        const pi = k(np.power(3, xi));
        assert.equal(pi.dtype, "int32");
        assert.deepEqual(await pi.jsAsync(), [1, 3, 243]);
        const g = k(ox.grad((v) => np.sum(np.power(2, v)))(k(np.array([0, 1], { device }))));
        close(await g.jsAsync(), [Math.LN2, 2 * Math.LN2], 1e-6, "d/dx 2^x");
      }));

    test("add and multiply of bool arrays are logical or / and", () =>
      scopedAsync(async (k) => {
        const a = k(np.array([true, true, false, false], { device }));
        const b = k(np.array([true, false, true, false], { device }));
        const s = k(np.add(a, b));
        const p = k(a.mul(b));
        assert.equal(s.dtype, "bool");
        assert.equal(p.dtype, "bool");
        assert.deepEqual(await s.jsAsync(), [true, true, true, false]);
        assert.deepEqual(await p.jsAsync(), [true, false, false, false]);
      }));

    test("dstack lifts 1-D to [1, n, 1] and 2-D to [m, n, 1]", () =>
      scopedAsync(async (k) => {
        const a = values([2, 3], 1);
        const b = values([2, 3], 2);
        const d = k(np.dstack([k(np.array(a, { device })), k(np.array(b, { device }))]));
        assert.deepEqual(d.shape, [2, 3, 2]);
        assert.deepEqual(
          await d.jsAsync(),
          a.map((row, i) => row.map((v, j) => [v, b[i][j]])),
        );
        const v = k(np.dstack([k(np.array([1, 2, 3], { device }))]));
        assert.deepEqual(v.shape, [1, 3, 1]);
      }));

    test("dot of n-D arrays sums a's last axis with b's second-to-last", () =>
      scopedAsync(async (k) => {
        const [sa, sb] = [
          [2, 3, 4],
          [5, 4, 6],
        ];
        const [a, b] = [values(sa, 3), values(sb, 4)];
        const got = k(np.dot(k(np.array(a, { device })), k(np.array(b, { device }))));
        assert.deepEqual(got.shape, [2, 3, 5, 6]);
        const want = a.map((ai) =>
          ai.map((row) =>
            b.map((bk) =>
              Array.from({ length: 6 }, (_, n) => row.reduce((s, x, m) => s + x * bk[m][n], 0)),
            ),
          ),
        );
        assert.deepEqual(await got.jsAsync(), want);
        const vec = k(np.dot(k(np.array(a, { device })), k(np.array([1, 0, 2, 1], { device }))));
        assert.deepEqual(
          await vec.jsAsync(),
          a.map((ai) => ai.map((row) => row[0] + 2 * row[2] + row[3])),
        );
      }));

    test("einsum: traces, diagonals, ellipses and the sublist form", () =>
      scopedAsync(async (k) => {
        const m = values([3, 3], 5);
        const x = k(np.array(m, { device }));
        assert.equal(await k(np.einsum("ii->", x)).jsAsync(), m[0][0] + m[1][1] + m[2][2]);
        assert.equal(await k(np.einsum("ii", x)).jsAsync(), m[0][0] + m[1][1] + m[2][2]);
        assert.deepEqual(await k(np.einsum("ii->i", x)).jsAsync(), [m[0][0], m[1][1], m[2][2]]);
        const t = values([2, 3, 3], 6);
        assert.deepEqual(
          await k(np.einsum("bii->b", k(np.array(t, { device })))).jsAsync(),
          t.map((s) => s[0][0] + s[1][1] + s[2][2]),
        );
        const [a, b] = [values([2, 3, 4], 7), values([2, 4, 5], 8)];
        const [xa, xb] = [k(np.array(a, { device })), k(np.array(b, { device }))];
        const want = a.map((ai, n) =>
          ai.map((row) =>
            Array.from({ length: 5 }, (_, j) => row.reduce((s, v, q) => s + v * b[n][q][j], 0)),
          ),
        );
        assert.deepEqual(await k(np.einsum("...ij,...jk->...ik", xa, xb)).jsAsync(), want);
        assert.deepEqual(await k(np.einsum("...ij,...jk", xa, xb)).jsAsync(), want);
        // Ellipsis axes broadcast (a unit axis against 2) and align from the right.
        const one = k(np.array([a[0]], { device }));
        assert.deepEqual(k(np.einsum("...ij,...jk->...ik", one, xb)).shape, [2, 3, 5]);
        assert.deepEqual(
          await k(np.einsum("i...->...", k(np.array(m, { device })))).jsAsync(),
          [0, 1, 2].map((j) => m[0][j] + m[1][j] + m[2][j]),
        );
        // NumPy's sublist form.
        const sub = k(np.einsum(xa, [0, 1, 2], xb, [0, 2, 3], [0, 1, 3]));
        assert.deepEqual(await sub.jsAsync(), want);
        const implicit = k(np.einsum(x, [0, 0]));
        assert.equal(await implicit.jsAsync(), m[0][0] + m[1][1] + m[2][2]);
        // The trace's gradient is the identity.
        const g = k(ox.grad((v) => np.einsum("ii->", v))(k(np.array(m, EXACT))));
        assert.deepEqual(await g.jsAsync(), [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ]);
        assert.match(
          errorMessage(() => np.einsum("ij->", k(np.ones([2, 3])), x)).message,
          /^einsum: /,
        );
        assert.match(
          errorMessage(() => np.einsum("ii->i", k(np.ones([2, 3])))).message,
          /^einsum: .*sizes/,
        );
        assert.match(errorMessage(() => np.einsum(x, [0, 99])).message, /^einsum: sublist 0/);
      }));

    test("gelu with approximate: false is x·Φ(x)", () =>
      scopedAsync(async (k) => {
        const x = k(np.array([-1, 0.5, 1, 2], { device }));
        // x·Φ(x) with Φ the standard normal CDF.
        const exact = [
          -0.15865525393145707, 0.34573123063700656, 0.8413447460685429, 1.9544997361036416,
        ];
        close(await k(ox.nn.gelu(x, { approximate: false })).jsAsync(), exact, 2e-6, "exact gelu");
        const tanh = (v) =>
          0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3)));
        close(await k(ox.nn.gelu(x)).jsAsync(), [-1, 0.5, 1, 2].map(tanh), 2e-6, "tanh gelu");
        close(
          await k(ox.nn.gelu(x, { approximate: true })).jsAsync(),
          [-1, 0.5, 1, 2].map(tanh),
          2e-6,
          "opt",
        );
      }));

    test("cholesky is NaN from the first failing pivot on", () =>
      scopedAsync(async (k) => {
        const nan = NaN;
        const l = k(
          np.linalg.cholesky(
            k(
              np.array(
                [
                  [1, 2, 0],
                  [2, 1, 0],
                  [0, 0, 1],
                ],
                { device },
              ),
            ),
          ),
        );
        close(
          await l.jsAsync(),
          [
            [1, 0, 0],
            [2, nan, 0],
            [0, nan, nan],
          ],
          0,
          "negative pivot",
        );
        const z = k(
          np.linalg.cholesky(
            k(
              np.array(
                [
                  [4, 2, 0],
                  [2, 1, 0],
                  [0, 0, 1],
                ],
                { device },
              ),
            ),
          ),
        );
        close(
          await z.jsAsync(),
          [
            [2, 0, 0],
            [1, 0, 0],
            [0, nan, nan],
          ],
          0,
          "zero pivot",
        );
      }));
  });
}

test("the derivative of a factor with a failing pivot is the valid block's", () =>
  scopedAsync(async (k) => {
    // Pivot 2 fails; L[:2, :2] is the factor of A[:2, :2].
    const a = [
      [4, 2, 1],
      [2, 5, 3],
      [1, 3, -7],
    ];
    const weights = [
      [1, 0, 0],
      [2, -1, 0],
      [0, 0, 0],
    ];
    const w = k(np.array(weights, EXACT));
    const lead = (m) => m.slice(0, 2).map((r) => r.slice(0, 2));
    const f = (x) => np.sum(np.multiply(np.linalg.cholesky(x, { symmetrizeInput: false }), w));
    const g = await k(ox.grad(f)(k(np.array(a, EXACT)))).jsAsync();
    const w2 = k(np.array(lead(weights), EXACT));
    const f2 = (x) => np.sum(np.multiply(np.linalg.cholesky(x, { symmetrizeInput: false }), w2));
    const g2 = await k(ox.grad(f2)(k(np.array(lead(a), EXACT)))).jsAsync();
    const want = [
      [g2[0][0], g2[0][1], 0],
      [g2[1][0], g2[1][1], 0],
      [0, 0, 0],
    ];
    close(g, want, 1e3 * EXACT_TOL, "gradient");
    assert.ok(g2.flat().some((v) => v !== 0));
  }));

test("vjpFn takes a JS number as a cotangent, as jax-js's types allow", () =>
  scopedAsync(async (k) => {
    const x = k(np.array([1, 2, 3]));
    const [y, vjpFn] = ox.vjp((v) => np.sum(v.mul(v)), [x]);
    k(y);
    try {
      const [g] = vjpFn(2);
      assert.deepEqual(await k(g).jsAsync(), [4, 8, 12]);
      assert.match(errorMessage(() => vjpFn("2")).message, /^vjp: .*an Array or a number/);
    } finally {
      vjpFn.dispose();
    }
  }));

describe("jax-js's tree definitions", () => {
  test("structure: size, nodeType, nodeMetadata, childTreedefs, toString", () => {
    const s = ox.tree.structure({ a: 1, b: [2, 3], "c d": 4 });
    assert.equal(s.size, 4);
    assert.equal(s.nodeType, "Object");
    assert.deepEqual(s.nodeMetadata, ["a", "b", "c d"]);
    assert.equal(s.childTreedefs.length, 3);
    assert.equal(s.childTreedefs[1].nodeType, "Array");
    assert.equal(s.childTreedefs[1].nodeMetadata, null);
    assert.equal(s.childTreedefs[1].size, 2);
    assert.equal(s.toString(), 'JsTreeDef({a: *, b: [*, *], "c d": *})');
    assert.equal(s.toString(false), '{a: *, b: [*, *], "c d": *}');
    assert.ok(s.childTreedefs[0].equals(ox.tree.structure(7)));
    assert.equal(ox.tree.structure(7).nodeType, "Leaf");
    assert.equal(String(ox.tree.structure(7)), "JsTreeDef(*)");
  });
});

describe("bad arguments throw an Error naming the function and the argument", () => {
  test("reductions, full", () =>
    scopedAsync(async (k) => {
      const x = k(np.ones([2, 2]));
      assert.match(errorMessage(() => np.sum(x, { keepdims: true })).message, /^sum: axis/);
      assert.match(errorMessage(() => np.sum(x, "0")).message, /^sum: axis/);
      assert.match(errorMessage(() => np.mean(x, [0.5])).message, /^mean: axis/);
      assert.match(errorMessage(() => np.full(7, [2, 2])).message, /^full: /);
      assert.match(
        errorMessage(() => ox.nn.gelu(x, { approximate: "no" })).message,
        /^gelu: approximate/,
      );
    }));

  test("functions returned by grad, valueAndGrad, vjp, jit, vmap and linearize", () =>
    scopedAsync(async (k) => {
      const x = k(np.array([1, 2]));
      const f = (v) => np.sum(v.mul(v));
      assert.match(errorMessage(() => ox.grad(f)("x")).message, /^grad: /);
      assert.match(errorMessage(() => ox.valueAndGrad(f)("x")).message, /^valueAndGrad: /);
      const jf = ox.jit(f);
      try {
        assert.match(errorMessage(() => jf("x")).message, /^jit: /);
      } finally {
        jf.dispose();
      }
      assert.match(errorMessage(() => ox.vmap(f)("x")).message, /^vmap: /);
      const [y, vjpFn] = ox.vjp(f, [x]);
      k(y);
      try {
        assert.match(errorMessage(() => vjpFn("x")).message, /^vjp: /);
        assert.match(errorMessage(() => vjpFn(undefined)).message, /^vjp: /);
      } finally {
        vjpFn.dispose();
      }
      const [y2, lin] = ox.linearize(f, [x]);
      k(y2);
      try {
        assert.match(errorMessage(() => lin(5)).message, /^linearize: /);
      } finally {
        lin.dispose();
      }
    }));

  test("oxjax/optax functions and their transformations' init and update", () =>
    scopedAsync(async (k) => {
      const p = { w: k(np.ones([2])) };
      assert.match(errorMessage(() => optax.applyUpdates(p, undefined)).message, /^applyUpdates: /);
      const opt = optax.adam(0.1);
      const state = opt.init(p);
      try {
        assert.match(errorMessage(() => opt.update(undefined, state)).message, /^adam\.update: /);
        assert.match(errorMessage(() => opt.update(p, "state")).message, /^adam\.update: /);
      } finally {
        ox.tree.dispose(state);
      }
      assert.match(
        errorMessage(() => optax.chain(optax.sgd(0.1)).update(p, 3)).message,
        /^chain\.update: /,
      );
    }));

  test("errors thrown by the user's function pass through unchanged", () =>
    scopedAsync(async (k) => {
      const x = k(np.array([1, 2]));
      const boom = () => {
        throw new Error("boom");
      };
      assert.equal(errorMessage(() => ox.grad(boom)(x)).message, "boom");
      assert.equal(errorMessage(() => ox.vmap(boom)(x)).message, "boom");
      const jb = ox.jit(boom);
      try {
        assert.equal(errorMessage(() => jb(x)).message, "boom");
      } finally {
        jb.dispose();
      }
    }));
});
