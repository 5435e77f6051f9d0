// Against JAX (tests/data/api_extra_expected.json, scripts/gen_api_extra_expected.py):
// lax.convTranspose in convGeneralDilated's axis order, values and the gradients of a weighted
// sum in both operands (float64 on the cpu device); random.categorical without replacement
// (bit-exact indices). Also getBackend's descriptor. A leak check follows every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkLeaksAroundEachTest, errorMessage, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const { cases, categorical, windows } = JSON.parse(
  readFileSync(new URL("../data/api_extra_expected.json", import.meta.url), "utf8"),
);

const f64 = (e) => np.array(e.data, { shape: e.shape, dtype: "float64", device: "cpu" });

async function close(x, want, tol, label) {
  assert.deepEqual(x.shape, want.shape, `${label}: shape`);
  const got = await x.data();
  x.dispose();
  want.data.forEach((w, i) => {
    assert.ok(Math.abs(got[i] - w) <= tol * (1 + Math.abs(w)), `${label}[${i}]: ${got[i]} vs ${w}`);
  });
}

test("convTranspose matches JAX (SAME, VALID, pairs, rhsDilation, transposeKernel)", async () => {
  for (const [i, c] of cases.entries()) {
    const opts = { transposeKernel: c.transposeKernel };
    if (c.rhsDilation) opts.rhsDilation = c.rhsDilation;
    const [lhs, rhs, w] = [f64(c.lhs), f64(c.rhs), f64(c.w)];
    const f = (l, r) => ox.lax.convTranspose(l, r, c.strides, c.padding, opts);
    await close(f(lhs, rhs), c.out, 1e-12, `case ${i}`);
    const loss = (l, r) => {
      const y = f(l, r);
      const p = y.mul(w);
      y.dispose();
      const s = np.sum(p);
      p.dispose();
      return s;
    };
    const [gl, gr] = ox.grad(loss, { argnums: [0, 1] })(lhs, rhs);
    await close(gl, c.gradLhs, 1e-12, `case ${i} grad lhs`);
    await close(gr, c.gradRhs, 1e-12, `case ${i} grad rhs`);
    for (const x of [lhs, rhs, w]) x.dispose();
  }
});

test("convTranspose checks its arguments", async () => {
  const l = np.zeros([1, 1, 4]);
  const r = np.zeros([1, 1, 2]);
  assert.match(
    errorMessage(() => ox.lax.convTranspose(l, r, [1, 1], "SAME")).message,
    /^convTranspose: /,
  );
  assert.match(
    errorMessage(() => ox.lax.convTranspose(l, r, [1], "FULL")).message,
    /^convTranspose: padding/,
  );
  assert.match(
    errorMessage(() => ox.lax.convTranspose(l, r, [1], "SAME", { x: 1 })).message,
    /unknown option/,
  );
  l.dispose();
  r.dispose();
});

test("categorical with replace=false matches JAX (Gumbel-top-k)", async () => {
  for (const c of categorical) {
    const key = ox.random.key(c.seed);
    const logits = np.array(c.logits.data, { shape: c.logits.shape });
    const opts = { axis: c.axis, replace: false };
    if (c.shape) opts.shape = c.shape;
    const out = ox.random.categorical(key, logits, opts);
    assert.equal(out.dtype, "int32");
    assert.deepEqual(out.shape, c.out.shape);
    assert.deepEqual(Array.from(await out.data()), c.out.data, `seed ${c.seed}`);
    out.dispose();
    const tooMany = { axis: -1, shape: [7, 3], replace: false };
    assert.match(
      errorMessage(() => ox.random.categorical(key, logits, tooMany)).message,
      /^categorical: 7 samples without replacement exceed the 6 categories/,
    );
    key.dispose();
    logits.dispose();
  }
});

test("getBackend describes a device: its type and live buffer count", async () => {
  const b = ox.getBackend();
  assert.equal(b.type, ox.defaultDevice());
  const before = b.slotCount();
  const x = np.zeros([3]);
  assert.equal(b.slotCount(), before + 1);
  x.dispose();
  assert.equal(b.slotCount(), before);
  assert.equal(ox.getBackend("cpu").type, "cpu");
  assert.match(errorMessage(() => ox.getBackend("tpu")).message, /^getBackend: unknown device/);
  assert.match(errorMessage(() => ox.getBackend("webgl")).message, /^getBackend: device webgl/);
});

test("reduceWindow matches JAX's reduce_window (max and sum pooling, strides)", async () => {
  for (const c of windows) {
    const x = np.array(c.x.data, { shape: c.x.shape });
    const fn = c.op === "max" ? (w) => np.max(w) : (w) => np.sum(w);
    const args = c.strides ? [c.window, c.strides] : [c.window];
    const out = ox.lax.reduceWindow(x, fn, ...args);
    assert.deepEqual(out.shape, c.out.shape);
    const got = await out.data();
    c.out.data.forEach((w, i) => assert.ok(Math.abs(got[i] - w) < 1e-5, `${c.op}[${i}]`));
    out.dispose();
    assert.match(
      errorMessage(() => ox.lax.reduceWindow(x, fn, [9, 9, 9, 9])).message,
      /^reduceWindow: /,
    );
    x.dispose();
  }
});
