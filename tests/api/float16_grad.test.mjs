// grad / vjp / jvp of float16 functions against JAX (tests/data/float16_grad_expected.json, made
// by scripts/gen_float16_grad_expected.py from twin Python functions): as in JAX, float16
// inputs give float16 cotangents and tangents. Every intermediate is rounded to float16 and a
// rule may order its operations differently from JAX's, so results are not bit-identical to
// JAX's float16 ones. The tolerance: each result is within ULPS float16 ulps of the exact
// (float64) derivative at the same inputs, or at most twice as far from it as JAX's float16
// result is (where cancellation, e.g. 1 − tanh² near 1, costs float16 more than a few ulps).
import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const data = JSON.parse(
  readFileSync(new URL("../data/float16_grad_expected.json", import.meta.url), "utf8"),
);
const ULPS = 4;

function close(arr, c, what) {
  assert.equal(arr.dtype, "float16", `${what}: dtype`);
  assert.deepEqual(arr.shape, c.shape, `${what}: shape`);
  const got = arr.dataSync();
  c.f64.forEach((exact, i) => {
    const jax = c.data[i];
    const tol = Math.max(ULPS * 2 ** -10 * Math.abs(exact), 2 * Math.abs(jax - exact));
    assert.ok(
      Math.abs(got[i] - exact) <= tol,
      `${what}[${i}]: got ${got[i]}, exact ${exact}, jax float16 ${jax}`,
    );
  });
}

for (const device of ["cpu", "wasm"]) {
  const f16 = (c) => np.array(c.data, { shape: c.shape, dtype: np.float16, device });

  test(`float16 grad on ${device} matches jax.grad`, () => {
    const [x, w] = [f16(data.x), f16(data.w)];
    const fns = {
      sum_sin_x_times_x: (x) => np.sum(np.sin(x).mul(x)),
      mean_exp: (x) => np.mean(np.exp(x)),
      sum_tanh_xw_sq: (x) => np.sum(np.square(np.tanh(x.mul(w)))),
      sum_sq_over_1px2: (x) => {
        const x2 = x.mul(x);
        return np.sum(x2.div(x2.add(1)));
      },
    };
    for (const [name, f] of Object.entries(fns)) {
      const g = ox.grad(f)(x);
      close(g, data.grads[name], name);
      g.dispose();
    }
    const [gx, gw] = ox.grad((x, w) => np.sum(np.sin(x.mul(w)).add(x)), { argnums: [0, 1] })(x, w);
    close(gx, data.grad2.x, "d/dx");
    close(gw, data.grad2.w, "d/dw");
    for (const t of [x, w, gx, gw]) t.dispose();
  });

  test(`float16 vjp and jvp on ${device} match JAX`, () => {
    const [x, ct] = [f16(data.x), f16(data.ct)];
    const f = (x) => np.exp(x).mul(x);
    const [y, back] = ox.vjp(f, [x]);
    const [g] = back(ct);
    close(g, data.vjp_exp_x_times_x, "vjp");
    const [p, t] = ox.jvp(f, [x], [ct]);
    close(p, data.jvp_exp_x_times_x.primal, "jvp primal");
    close(t, data.jvp_exp_x_times_x.tangent, "jvp tangent");
    for (const a of [x, ct, y, g, p, t]) a.dispose();
    back.dispose?.();
  });
}
