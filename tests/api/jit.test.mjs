// jit: results equal eager results (the grad test functions, their gradients, and every NumPy
// and JAX case of tests/data run under jit against the same oracles), fusion visible in the
// dispatch counter, compositions with grad, nested jit, staticArgnums, pytrees, the program
// cache across fresh closures, ownership of captured constants, caches and errors.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  COMPILED,
  DEVICES,
  F64,
  item,
  np,
  ox,
  caseSkip,
  checkLeaksAroundEachTest,
  errorMessage,
} from "./helpers.mjs";
import { gradFns, scoped } from "../shared/grad_fns.mjs";
import { caseLabel, runCase } from "../shared/numpy_cases.mjs";
import { linalgLabel, runLinalgCase } from "../shared/linalg_cases.mjs";

checkLeaksAroundEachTest();

const load = (name) =>
  JSON.parse(readFileSync(new URL(`../data/${name}`, import.meta.url), "utf8"));
const decode = (v) => (v === "nan" ? NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : v);
const fns = gradFns(ox);

function assertClose(got, want, rtol, atol, what) {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) {
    const [g, w] = [got[i], want[i]];
    if (Number.isNaN(w)) assert.ok(Number.isNaN(g), `${what}[${i}]: ${g} vs NaN`);
    else assert.ok(Math.abs(g - w) <= atol + rtol * Math.abs(w), `${what}[${i}]: ${g} vs ${w}`);
  }
}

const dispatches = (device = COMPILED) => ox.memoryStats().devices[device].dispatches;

describe("the grad test functions give the same values and gradients under jit", () => {
  for (const c of load("jax_grad_expected.json").cases.filter((c) => c.grad)) {
    for (const device of DEVICES) {
      test(`${c.grad} on ${device}`, async () => {
        const [a] = c.args;
        const x = np.array(a.data.map(decode), { shape: a.shape, device });
        const f = fns[c.grad];
        const eager = f(x);
        const jf = ox.jit(f);
        const jitted = jf(x);
        const again = jf(x); // the cached program
        assertClose(await jitted.data(), await eager.data(), 1e-6, 1e-6, "value");
        // The cached program computes the same bits again. (Against eager ones only within
        // the tolerance: on webgpu, which has no float64 to accumulate float32 sums in, a
        // program whose small products are written out in their consumers may take another
        // of the device's summation paths than the eager kernels.)
        assertClose(await again.data(), await jitted.data(), 0, 0, "second call");
        // jit of grad against JAX's gradient.
        const jg = ox.jit(ox.grad(f));
        const g = jg(x);
        const want = c.out.data.map(decode);
        assertClose(await g.data(), want, c.rtol, c.atol, "jit(grad)");
        // grad of jit is the same gradient.
        const g2 = ox.grad(ox.jit(f))(x);
        assertClose(await g2.data(), want, c.rtol, c.atol, "grad(jit)");
        for (const t of [x, eager, jitted, again, g, g2, jf, jg]) t.dispose();
      });
    }
  }
});

describe("NumPy and JAX cases under jit match NumPy and JAX", () => {
  const cases = [
    ...load("numpy_expected.json").cases,
    ...load("jax_expected.json").cases,
    ...load("numpy_more_expected.json").cases,
    ...load("jax_more_expected.json").cases,
  ];
  for (const device of DEVICES) {
    cases.forEach((c, i) =>
      test(`${caseLabel(c, i)} on ${device}`, () => runCase(ox, c, device, { jit: true })),
    );
  }
});

describe("linear algebra cases under jit (routines run as fallback steps) match NumPy/SciPy", () => {
  for (const device of DEVICES) {
    load("linalg_expected.json").cases.forEach((c, i) =>
      test(`${linalgLabel(c, i)} on ${device}`, { skip: caseSkip(c) }, () =>
        runLinalgCase(ox, c, device, { jit: true }),
      ),
    );
  }
});

const chain = (x) => np.tanh(x.mul(2).add(1)).mul(np.exp(x.neg())).add(np.sin(x));

test("the chain tanh(2x+1)·exp(−x)+sin(x) is one dispatch under jit", async () => {
  const values = Array.from({ length: 4096 }, (_, i) => Math.sin(i) * 3);
  const x = np.array(values);
  const f = ox.jit(chain);
  f(x).dispose(); // traces and compiles
  const before = dispatches();
  const y = f(x);
  assert.equal(dispatches() - before, 1);
  const got = await y.data();
  values.forEach((v, i) => {
    const want = Math.tanh(2 * v + 1) * Math.exp(-v) + Math.sin(v);
    assert.ok(Math.abs(got[i] - want) <= 1e-5 * (1 + Math.abs(want)), `${got[i]} vs ${want}`);
  });
  // Eagerly the same chain is one dispatch per operation.
  const d0 = dispatches();
  const e = scoped((k) =>
    k(k(np.tanh(k(k(x.mul(2)).add(1)))).mul(k(np.exp(k(x.neg()))))).add(k(np.sin(x))),
  );
  assert.ok(dispatches() - d0 >= 6);
  for (const t of [x, f, y, e]) t.dispose();
});

test("a long dependent chain (a sequential filter's accumulator) runs under jit", async () => {
  const f = ox.jit((x) => {
    let acc = x;
    // Each value has one use, so everything fuses unless the planner cuts the chain.
    for (let i = 0; i < 400; i++) acc = np.sin(acc.mul(0.99).add(0.5));
    return acc;
  });
  const x = np.array([0.5, -1]);
  const y = f(x);
  const want = [0.5, -1].map((v) => {
    for (let i = 0; i < 400; i++)
      v = Math.fround(Math.sin(Math.fround(Math.fround(v * 0.99) + 0.5)));
    return v;
  });
  assertClose(await y.data(), want, 1e-4, 1e-5, "chain");
  for (const t of [f, x, y]) t.dispose();
});

test("nested jit, jit of valueAndGrad, pytree arguments and outputs, JS numbers", async () => {
  const inner = ox.jit((a, b) => a.mul(b).add(1));
  const outer = ox.jit((p, s) => ({ y: inner(p.x, p.w[0]).mul(s), z: [np.sum(p.x)] }));
  const p = { x: np.array([1, 2, 3]), w: [np.array([4, 5, 6])] };
  const out = outer(p, 2);
  assert.deepEqual(await out.y.jsAsync(), [10, 22, 38]);
  assert.deepEqual(await out.z[0].jsAsync(), 6);
  // A JS number is a weak scalar: it adopts the float64 dtype of its partner.
  const p64 = {
    x: np.array([1, 2], F64),
    w: [np.array([1, 1], F64)],
  };
  const out64 = outer(p64, 0.5);
  assert.equal(out64.y.dtype, "float64");
  assert.deepEqual(await out64.y.jsAsync(), [1, 1.5]);
  const vg = ox.jit(ox.valueAndGrad((q) => np.sum(np.sin(q.x).mul(q.w[0]))));
  const [value, grads] = vg(p);
  const want = [1, 2, 3].reduce((s, v, i) => s + Math.sin(v) * [4, 5, 6][i], 0);
  assert.ok(Math.abs((await item(value)) - want) < 1e-5);
  assertClose(
    await grads.x.data(),
    [1, 2, 3].map((v, i) => Math.cos(v) * [4, 5, 6][i]),
    1e-5,
    1e-6,
    "dx",
  );
  assertClose(await grads.w[0].data(), [1, 2, 3].map(Math.sin), 1e-5, 1e-6, "dw");
  for (const t of [p, out, p64, out64, value, grads]) ox.tree.dispose(t);
  for (const fn of [inner, outer, vg]) fn.dispose();
});

test("staticArgnums: one trace per static value, traced values never concrete", async () => {
  let traces = 0;
  const f = ox.jit(
    (x, n, opts) => {
      traces++;
      let y = x;
      for (let i = 0; i < n; i++) y = y.mul(opts.scale);
      return y;
    },
    { staticArgnums: [1, 2] },
  );
  const x = np.array([1, 2]);
  const a = f(x, 2, { scale: 3 });
  const b = f(x, 3, { scale: 3 });
  const c = f(x, 2, { scale: 3 });
  const d = f(x, 2, { scale: 2 });
  assert.deepEqual(
    [await a.jsAsync(), await b.jsAsync(), await c.jsAsync(), await d.jsAsync()],
    [
      [9, 18],
      [27, 54],
      [9, 18],
      [4, 8],
    ],
  );
  assert.equal(traces, 3);
  assert.equal(ox.getCacheSizes().jitFunctions >= 3, true);
  // A new shape or dtype traces again.
  const x3 = np.array([1, 2, 3]);
  f(x3, 2, { scale: 3 }).dispose();
  assert.equal(traces, 4);
  assert.match(errorMessage(() => f(x)).message, /^jit: staticArgnums 1 is out of range/);
  for (const t of [f, x, a, b, c, d, x3]) t.dispose();
});

test("a fresh closure of the same code hits the program cache", async () => {
  ox.clearCaches();
  const make = (k) => ox.jit((x) => np.exp(x.mul(k)).add(np.ones([3])));
  const x = np.array([0, 1, 2]);
  const s0 = ox.memoryStats().programCache;
  const f1 = make(0.5);
  const y1 = f1(x);
  const s1 = ox.memoryStats().programCache;
  assert.equal(s1.misses - s0.misses, 1);
  const f2 = make(0.5);
  const y2 = f2(x);
  const s2 = ox.memoryStats().programCache;
  assert.equal(s2.hits - s1.hits, 1);
  assert.equal(s2.entries, 1);
  assert.equal(ox.getCacheSizes().jitCompile, 1);
  assertClose(
    await y2.data(),
    [0, 0.5, 1].map((v) => Math.exp(v) + 1),
    1e-6,
    0,
    "y2",
  );
  // A different literal is a different program.
  const f3 = make(0.25);
  f3(x).dispose();
  assert.equal(ox.memoryStats().programCache.entries, 2);
  ox.clearCaches();
  assert.equal(ox.getCacheSizes().jitCompile, 0);
  assert.equal(ox.getCacheSizes().jitFunctions, 0);
  // Wrappers stay usable after clearCaches (they trace again).
  const y3 = f1(x);
  assert.deepEqual(await y3.data(), await y1.data());
  for (const t of [x, f1, f2, f3, y1, y2, y3]) t.dispose();
});

test("disposing a jitted function frees the constants its traces captured", async () => {
  const stats = () => {
    const s = ox.memoryStats();
    return [
      s.liveArrays,
      s.devices[COMPILED].liveBuffers,
      s.devices[COMPILED].liveBytes,
      s.liveJaxprs,
    ];
  };
  const base = stats();
  const outer = np.ones([1000]); // captured by closure: owned by the caller
  const f = ox.jit((x) => x.add(np.full([1000], 2)).mul(outer)); // the full() is a constant
  const x = np.zeros([1000]);
  const y = f(x);
  assert.equal((await y.jsAsync())[999], 2);
  y.dispose();
  x.dispose();
  outer.dispose();
  const held = stats();
  // No handles, but buffers and a compiled program: the captured 1000-element arrays.
  assert.equal(held[0], base[0]);
  assert.ok(held[2] >= base[2] + 8000, `bytes ${held[2]} vs ${base[2]}`);
  assert.equal(held[3], base[3] + 1);
  f[Symbol.dispose](); // what `using` calls
  assert.deepEqual(stats(), base);
  f[Symbol.dispose](); // never throws
  assert.match(errorMessage(() => f.dispose()).message, /^jit: the jitted function has already/);
  assert.match(errorMessage(() => f(x)).message, /^jit: the jitted function has been disposed/);
});

test("checkLeaks.stop() flushes jit caches before counting", () => {
  ox.checkLeaks.start();
  const f = ox.jit((x) => x.add(np.array([1, 2, 3])));
  const x = np.array([1, 1, 1]);
  f(x).dispose();
  x.dispose();
  assert.equal(ox.getCacheSizes().jitFunctions, 1);
  const report = ox.checkLeaks.stop();
  assert.equal(report.leaked, 0, report.summary);
  assert.equal(ox.getCacheSizes().jitFunctions, 0);
  f.dispose();
});

test("bad functions and arguments give clear errors", async () => {
  const x = np.array([1, 2]);
  assert.match(
    errorMessage(() => ox.jit(() => 3)(x)).message,
    /^jit: every output leaf must be an Array, got number/,
  );
  assert.match(
    errorMessage(() => ox.jit((t) => t)("a")).message,
    /^jit: argument leaf 0 is not an Array or a number/,
  );
  assert.match(errorMessage(() => ox.jit((t) => t, { colour: 1 })).message, /^jit: unknown option/);
  assert.match(errorMessage(() => ox.jit(3)).message, /^jit: expected a function/);
  assert.match(
    errorMessage(() => ox.jit((t) => t.dataSync())(x)).message,
    /cannot read a traced value/,
  );
  // An identity jit returns a new handle to the same data; the input stays usable.
  const id = ox.jit((t) => t);
  const y = id(x);
  y.dispose();
  assert.deepEqual(await x.jsAsync(), [1, 2]);
  // After the failed traces eager work goes on.
  const z = x.add(1);
  assert.deepEqual(await z.jsAsync(), [2, 3]);
  for (const t of [x, z, id]) t.dispose();
});

test("jit composes with vmap both ways", async () => {
  const rows = np.array([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const f = (v) => np.sum(np.sin(v).mul(v));
  const want = [
    [1, 2, 3],
    [4, 5, 6],
  ].map((r) => r.reduce((s, v) => s + Math.sin(v) * v, 0));
  const jf = ox.jit(f);
  const a = ox.vmap(jf)(rows); // jit inside a vmap body: inlined
  const jv = ox.jit(ox.vmap(f)); // vmap inside jit: staged into one program
  const b = jv(rows);
  const c = jv(rows);
  assertClose(await a.data(), want, 1e-6, 1e-6, "vmap(jit)");
  assertClose(await b.data(), want, 1e-6, 1e-6, "jit(vmap)");
  assertClose(await c.data(), want, 0, 1e-6, "jit(vmap) again");
  for (const t of [rows, a, b, c, jf, jv]) t.dispose();
});

test("lax.scan under jit (a fallback step) equals the eager scan, gradients included", async () => {
  const ys = np.array(Array.from({ length: 30 }, (_, t) => Math.sin(t * 0.3)));
  const loss = (theta) => {
    const q = np.exp(theta.slice(0));
    const r = np.exp(theta.slice(1));
    const step = ([m, P, nll], y) => {
      const Pp = P.add(q);
      const S = Pp.add(r);
      const K = Pp.div(S);
      const v = y.sub(m);
      const next = [
        m.add(K.mul(v)),
        np.subtract(1, K).mul(Pp),
        nll.add(np.log(S)).add(v.mul(v).div(S)),
      ];
      return [next, null];
    };
    const [[, , nll]] = ox.lax.scan(step, [np.array(0), np.array(1), np.array(0)], ys);
    return nll;
  };
  const theta = np.array([-1, 0.5]);
  const [v1, g1] = ox.valueAndGrad(loss)(theta);
  const f = ox.jit(ox.valueAndGrad(loss));
  const [v2, g2] = f(theta);
  assertClose(await v2.data(), await v1.data(), 1e-6, 1e-6, "value");
  assertClose(await g2.data(), await g1.data(), 1e-5, 1e-6, "grad");
  for (const t of [ys, theta, v1, g1, v2, g2, f]) t.dispose();
});
