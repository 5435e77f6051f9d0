// float16 matrix products, einsum, tensordot, convolution and linear algebra on cpu and wasm,
// eagerly and under jit, grad and vmap: the result is float16, computed in float32 and rounded
// once (oxjax's one rule, `library/half.rs`). Oracle: tests/data/float16_linalg_expected.json
// (scripts/gen_float16_linalg_expected.py): JAX's float16 results for products, convolution
// and gradients; where JAX rejects float16 (cholesky, LU and what composes on them) or computes
// in float16 steps (triangular solve), JAX in float32 on the same values, rounded once.
// Tolerance: one float16 ulp of max(|want|, 1/64) — the float32 sums of JAX (XLA/Eigen/LAPACK)
// and of oxjax add in different orders, so a result next to a float16 tie may round either way.
import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, SYNC, checkLeaksAroundEachTest, errorMessage } from "./helpers.mjs";

checkLeaksAroundEachTest();
const lax = ox.lax;

const data = JSON.parse(
  readFileSync(new URL("../data/float16_linalg_expected.json", import.meta.url), "utf8"),
);
const ULP = 2 ** -10;

function close(got, c, what, ulps = 1) {
  assert.equal(got.dtype, c.dtype, `${what}: dtype`);
  assert.deepEqual(got.shape, c.shape, `${what}: shape`);
  const g = Array.from(got.dataSync());
  c.data.forEach((w, i) => {
    const tol = ulps * ULP * Math.max(Math.abs(w), 2 ** -6);
    assert.ok(Math.abs(g[i] - w) <= tol, `${what}[${i}]: ${g[i]} vs ${w}`);
  });
}

for (const device of ["cpu", "wasm"]) {
  const arr = (c) => np.array(c.data, { shape: c.shape, dtype: c.dtype, device });

  test(`float16 matmul, dot, einsum and tensordot on ${device}`, () => {
    const [a, b, v, ab, bb] = ["a", "b", "v", "ab", "bb"].map((k) => arr(data[k]));
    const mm = ox.jit((x, y) => np.matmul(x, y));
    const out = [
      [np.matmul(a, b), "matmul"],
      [mm(a, b), "matmul"],
      [np.dot(a, b), "matmul"],
      [np.matmul(ab, bb), "matmul_batched"],
      [np.matmul(v, b), "vec_mat"],
      [np.matmul(a, v), "mat_vec"],
      [np.einsum("bij,jk->bik", ab, bb), "einsum_bij_jk"],
      [np.einsum("i,i->", v, v), "einsum_i_i"],
      [np.tensordot(a, b, 1), "tensordot"],
      [ox.vmap((x) => np.matmul(x, bb))(ab), "matmul_batched"],
    ];
    for (const [got, key] of out) close(got, data[key], key);
    for (const t of [a, b, v, ab, bb, mm, ...out.map(([t]) => t)]) t.dispose();
  });

  test(`float16 conv and gradients of products on ${device}`, () => {
    const [a, b, c, x, k] = ["a", "b", "c", "x", "k"].map((key) => arr(data[key]));
    const conv = (x, k) => lax.convGeneralDilated(x, k, [1, 1], "SAME");
    const loss = (a, b) => np.sum(np.matmul(a, b).mul(c));
    const [ga, gb] = ox.grad(loss, { argnums: [0, 1] })(a, b);
    const gk = ox.grad((k) => np.sum(np.square(conv(x, k))))(k);
    const jconv = ox.jit(conv);
    const out = [
      [conv(x, k), "conv"],
      [jconv(x, k), "conv"],
      [ga, "grad_matmul_a"],
      [gb, "grad_matmul_b"],
      [gk, "grad_conv_k"],
    ];
    // The conv gradient sums 49 products of sums: two ulps.
    for (const [got, key] of out) close(got, data[key], key, key === "grad_conv_k" ? 2 : 1);
    for (const t of [a, b, c, x, k, jconv, ...out.map(([t]) => t)]) t.dispose();
  });

  test(`float16 linear algebra on ${device}: computed in float32, rounded once`, () => {
    const [spd, g, low, rhs] = ["spd", "g", "low", "rhs"].map((key) => arr(data[key]));
    const [lu, piv, perm] = lax.linalg.lu(g);
    const [sign, logdet] = np.linalg.slogdet(g);
    const jsolve = ox.jit((a, b) => np.linalg.solve(a, b));
    const out = [
      [lax.linalg.triangularSolve(low, rhs, { leftSide: true, lower: true }), "trisolve"],
      [np.linalg.cholesky(spd), "cholesky"],
      [np.linalg.solve(g, rhs), "solve"],
      [jsolve(g, rhs), "solve"],
      [np.linalg.inv(g), "inv"],
      [np.linalg.det(g), "det"],
      [sign, data.slogdet[0]],
      [logdet, data.slogdet[1]],
      [lu, data.lu[0]],
      [ox.grad((a) => np.sum(np.linalg.solve(a, rhs)))(g), "grad_solve"],
    ];
    for (const [got, key] of out) {
      const c = typeof key === "string" ? data[key] : key;
      close(got, c, typeof key === "string" ? key : "slogdet/lu", 2);
    }
    assert.equal(piv.dtype, "int32");
    assert.deepEqual(Array.from(piv.dataSync()), data.lu[1].data);
    assert.deepEqual(Array.from(perm.dataSync()), data.lu[2].data);
    // JAX's own float16 triangular solve (float16 steps) is within two ulps of ours.
    close(out[0][0], data.trisolve_jax, "trisolve vs JAX float16", 2);
    for (const t of [spd, g, low, rhs, piv, perm, jsolve, ...out.map(([t]) => t)]) t.dispose();
  });
}

test("float16 mixed with float32 computes in float32 and stays float32", () => {
  const a = np.array(data.a.data, { shape: data.a.shape, dtype: "float16", ...SYNC });
  const b = np.array(data.b.data, { shape: data.b.shape, dtype: "float32", ...SYNC });
  const p = np.matmul(a, b);
  assert.equal(p.dtype, "float32");
  const want = (a32) => np.matmul(a32, b);
  const a32 = a.astype("float32");
  const q = want(a32);
  assert.deepEqual(Array.from(p.dataSync()), Array.from(q.dataSync()));
  for (const t of [a, b, p, a32, q]) t.dispose();
});

test("float16 linear algebra errors name the function", () => {
  const a = np.array([1, 2, 3, 4, 5, 6], { shape: [2, 3], dtype: "float16", ...SYNC });
  assert.match(errorMessage(() => np.linalg.cholesky(a)).message, /^cholesky: .*square/);
  assert.match(errorMessage(() => np.linalg.inv(a)).message, /^inv/);
  assert.match(errorMessage(() => np.matmul(a, a)).message, /^matmul/);
  a.dispose();
});
