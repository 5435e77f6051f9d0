// Functions whose math is a Rust composition behind one typed call: the window functions,
// logspace/geomspace and tri (made on the device a call names), diagflat, clip, the n-D FFTs,
// grouped-query and masked attention, broadcastShapes and resultType. Each is compared with a
// float64 JavaScript oracle written from NumPy's/JAX's definitions, at float32 tolerance; the
// leak check runs after every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DEVICES,
  np,
  ox,
  assertClose,
  checkLeaksAroundEachTest,
  errorMessage,
  scopedAsync,
} from "./helpers.mjs";

checkLeaksAroundEachTest();

const TOL = 2e-6;

const WINDOWS = {
  hamming: (n, d) => 0.54 - 0.46 * Math.cos((2 * Math.PI * n) / d),
  hann: (n, d) => 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / d),
  bartlett: (n, d) => (n <= d / 2 ? (2 * n) / d : 2 - (2 * n) / d),
  blackman: (n, d) =>
    0.42 - 0.5 * Math.cos((2 * Math.PI * n) / d) + 0.08 * Math.cos((4 * Math.PI * n) / d),
};

for (const device of DEVICES) {
  test(`windows of M points on ${device} (NumPy's formulas)`, () =>
    scopedAsync(async (k) => {
      for (const [name, f] of Object.entries(WINDOWS)) {
        for (const m of [0, 1, 2, 5, 8]) {
          const w = k(np[name](m, { device }));
          assert.equal(w.device, device, `${name}(${m}) device`);
          assert.equal(w.dtype, np.float32);
          const want = Array.from({ length: m }, (_, n) => (m === 1 ? 1 : f(n, m - 1)));
          assertClose(Array.from(await w.data()), want, TOL, `${name}(${m})`);
        }
      }
    }));

  test(`logspace, geomspace and tri on ${device}`, () =>
    scopedAsync(async (k) => {
      const l = k(np.logspace(0, 2, 5, true, 10, { device }));
      assert.equal(l.device, device);
      assertClose(
        Array.from(await l.data()),
        [0, 0.5, 1, 1.5, 2].map((e) => 10 ** e),
        TOL,
        "logspace",
      );
      const l2 = k(np.logspace(0, 3, 3, false, 2, { device }));
      assertClose(Array.from(await l2.data()), [1, 2, 4], TOL, "logspace base 2");
      const g = k(np.geomspace(-1, -1000, 4, true, { device }));
      assertClose(Array.from(await g.data()), [-1, -10, -100, -1000], TOL, "geomspace");
      const t = k(np.tri(3, 4, 1, { dtype: np.int32, device }));
      assert.equal(t.dtype, np.int32);
      assert.equal(t.device, device);
      const want = [0, 1, 2].map((i) => [0, 1, 2, 3].map((j) => (j - i <= 1 ? 1 : 0)));
      assert.deepEqual(await t.jsAsync(), want);
      const b = k(np.tri(2, undefined, -1, { dtype: np.bool, device }));
      assert.deepEqual(await b.jsAsync(), [
        [false, false],
        [true, false],
      ]);
    }));
}

test("creation formulas: default placement is uncommitted, bad arguments name the function", () =>
  scopedAsync(async (k) => {
    const w = k(np.hann(4));
    assert.equal(w.device, ox.defaultDevice());
    assert.match(errorMessage(() => np.geomspace(0, 1)).message, /^geomspace: start and stop/);
    assert.match(errorMessage(() => np.geomspace(-1, 1)).message, /^geomspace: start and stop/);
    assert.match(errorMessage(() => np.hamming(3, { device: "webgl" })).message, /^hamming: /);
    assert.match(errorMessage(() => np.tri(2, 2, 0, { dtype: "complex64" })).message, /^tri: /);
    assert.match(errorMessage(() => np.tri(-1)).message, /^tri: /);
  }));

test("diagflat puts the flattened input on diagonal k", () =>
  scopedAsync(async (k) => {
    const v = k(
      np.array([
        [1, 2],
        [3, 4],
      ]),
    );
    assert.deepEqual(await k(np.diagflat(v, 1)).jsAsync(), [
      [0, 1, 0, 0, 0],
      [0, 0, 2, 0, 0],
      [0, 0, 0, 3, 0],
      [0, 0, 0, 0, 4],
      [0, 0, 0, 0, 0],
    ]);
    assert.deepEqual(k(np.diagflat(v, -1)).shape, [5, 5]);
  }));

test("clip with one, both or no bounds; JS-number bounds stay exact in float64", () =>
  scopedAsync(async (k) => {
    const x = k(np.array([-2, 0.1, 0.5, 3], { dtype: np.float64, device: "cpu" }));
    assert.deepEqual(Array.from(await k(np.clip(x, 0.1, 1)).data()), [0.1, 0.1, 0.5, 1]);
    assert.deepEqual(Array.from(await k(np.clip(x, null, 0)).data()), [-2, 0, 0, 0]);
    assert.deepEqual(Array.from(await k(np.clip(x, 0.5)).data()), [0.5, 0.5, 0.5, 3]);
    assert.deepEqual(Array.from(await k(np.clip(x)).data()), [-2, 0.1, 0.5, 3]);
    const lo = k(np.array([0, 1, 0, 1], { dtype: np.float64, device: "cpu" }));
    assert.deepEqual(Array.from(await k(np.clip(x, lo, 2)).data()), [0, 1, 0.5, 2]);
  }));

/** The n-D DFT of a complex [rows][cols] matrix over the listed axes (float64). */
function dft2(re, im, axes, inverse = false) {
  let cur = { re, im };
  for (const axis of axes) {
    const [n0, n1] = [cur.re.length, cur.re[0].length];
    const n = axis === 0 ? n0 : n1;
    const s = inverse ? 1 : -1;
    const out = { re: [], im: [] };
    for (let i = 0; i < n0; i++) {
      out.re.push([]);
      out.im.push([]);
      for (let j = 0; j < n1; j++) {
        let [a, b] = [0, 0];
        for (let t = 0; t < n; t++) {
          const [x, y] = axis === 0 ? [cur.re[t][j], cur.im[t][j]] : [cur.re[i][t], cur.im[i][t]];
          const ang = (s * 2 * Math.PI * t * (axis === 0 ? i : j)) / n;
          a += x * Math.cos(ang) - y * Math.sin(ang);
          b += x * Math.sin(ang) + y * Math.cos(ang);
        }
        out.re[i].push(inverse ? a / n : a);
        out.im[i].push(inverse ? b / n : b);
      }
    }
    cur = out;
  }
  return cur;
}

test("fftn, ifftn, rfftn and irfftn over axes match a direct DFT", () =>
  scopedAsync(async (k) => {
    const re = [
      [1, 2, 0, -1],
      [0.5, -3, 2, 1],
      [4, 0, 1, 2],
    ];
    const im = [
      [0, 1, -1, 0],
      [2, 0, 0.5, 1],
      [-1, 1, 0, 3],
    ];
    const x = { real: k(np.array(re)), imag: k(np.array(im)) };
    const zero = re.map((r) => r.map(() => 0));
    const take = async (p) => ({ re: await k(p.real).jsAsync(), im: await k(p.imag).jsAsync() });
    for (const axes of [null, [1], [0], [1, 0]]) {
      const want = dft2(re, im, axes ?? [0, 1]);
      const got = await take(np.fft.fftn(x, axes));
      assertClose(got.re, want.re, 1e-5, `fftn ${axes} re`);
      assertClose(got.im, want.im, 1e-5, `fftn ${axes} im`);
      const inv = dft2(re, im, axes ?? [0, 1], true);
      const gi = await take(np.fft.ifftn(x, axes));
      assertClose(gi.re, inv.re, 1e-5, `ifftn ${axes} re`);
      assertClose(gi.im, inv.im, 1e-5, `ifftn ${axes} im`);
    }
    // Real input: the transform over both axes keeps the non-negative frequencies of the last.
    const full = dft2(re, zero, [1, 0]);
    const r = await take(np.fft.rfftn(x.real));
    assertClose(
      r.re,
      full.re.map((row) => row.slice(0, 3)),
      1e-5,
      "rfftn re",
    );
    assertClose(
      r.im,
      full.im.map((row) => row.slice(0, 3)),
      1e-5,
      "rfftn im",
    );
    const spectrum = np.fft.rfftn(x.real);
    k(spectrum.real);
    k(spectrum.imag);
    const back = k(np.fft.irfftn(spectrum));
    assertClose(await back.jsAsync(), re, 1e-5, "irfftn(rfftn(x))");
    // No axes: copies of the inputs.
    const same = await take(np.fft.fftn(x, []));
    assert.deepEqual(same.re, re);
    assert.match(errorMessage(() => np.fft.rfftn(x.real, [])).message, /^rfftn: needs at least/);
    assert.match(errorMessage(() => np.fft.irfftn(x, [])).message, /^irfftn: needs at least/);
  }));

/** softmax(q·kᵀ·scale + bias, masked)·v for q [L, N, H], k/v [S, K, H] (float64). */
function attentionJs(q, kk, v, { scale, mask, bias, causal } = {}) {
  const [L, N, H] = [q.length, q[0].length, q[0][0].length];
  const [S, K] = [kk.length, kk[0].length];
  const g = N / K;
  const c = scale ?? 1 / Math.sqrt(H);
  return q.map((ql, l) =>
    ql.map((qh, n) => {
      const kh = Math.floor(n / g);
      const s = kk.map((ks, j) => {
        let x = qh.reduce((acc, qi, h) => acc + qi * ks[kh][h], 0) * c;
        if (bias) x += bias[n][l][j];
        const keep = (!mask || mask[n][l][j]) && (!causal || j <= l);
        return keep ? x : -1e30;
      });
      const m = Math.max(...s);
      const e = s.map((x) => Math.exp(x - m));
      const z = e.reduce((a, b) => a + b, 0);
      return Array.from({ length: H }, (_, h) =>
        e.reduce((acc, w, j) => acc + (w / z) * v[j][kh][h], 0),
      );
    }),
  );
}

test("dotProductAttention: grouped-query heads, bias, mask, scale and the batch axis", () =>
  scopedAsync(async (k) => {
    const r = (i) => Math.sin(1.7 * i + 0.3);
    const make = (shape, off) => {
      const size = shape.reduce((a, b) => a * b, 1);
      const flat = Array.from({ length: size }, (_, i) => r(i + off));
      const nest = (s, at) =>
        s.length === 0
          ? flat[at]
          : Array.from({ length: s[0] }, (_, i) => nest(s.slice(1), at * s[0] + i));
      return nest(shape, 0);
    };
    const [L, N, H, S, K] = [3, 4, 2, 5, 2];
    const q = make([L, N, H], 0);
    const kk = make([S, K, H], 100);
    const v = make([S, K, H], 200);
    const bias = make([N, L, S], 300);
    const mask = make([N, L, S], 400).map((a) => a.map((b) => b.map((x) => x > -0.5)));
    const [qa, ka, va] = [q, kk, v].map((a) => k(np.array(a)));
    const ba = k(np.array(bias));
    const ma = k(np.array(mask));
    const cases = [
      [{}, {}],
      [{ scale: 0.3 }, { scale: 0.3 }],
      [
        { bias: ba, mask: ma },
        { bias, mask },
      ],
      [
        { isCausal: true, mask: ma },
        { causal: true, mask },
      ],
    ];
    for (const [opts, js] of cases) {
      const out = k(ox.nn.dotProductAttention(qa, ka, va, opts));
      assert.deepEqual(out.shape, [L, N, H]);
      assertClose(
        await out.jsAsync(),
        attentionJs(q, kk, v, js),
        1e-5,
        JSON.stringify(Object.keys(js)),
      );
    }
    // A batch axis of one gives the same values with the axis kept.
    const [qb, kb, vb] = [qa, ka, va].map((a) => k(np.expandDims(a, 0)));
    const batched = k(ox.nn.dotProductAttention(qb, kb, vb, { isCausal: true }));
    assert.deepEqual(batched.shape, [1, L, N, H]);
    assertClose(
      (await batched.jsAsync())[0],
      attentionJs(q, kk, v, { causal: true }),
      1e-5,
      "batched",
    );
    const k3 = k(np.ones([S, 3, H]));
    assert.match(
      errorMessage(() => ox.nn.dotProductAttention(qa, k3, k3)).message,
      /^dotProductAttention: 4 query heads, 3 key heads/,
    );
    const flat = k(np.ones([2, 2]));
    assert.match(
      errorMessage(() => ox.nn.dotProductAttention(flat, ka, va)).message,
      /^dotProductAttention: q must have rank 3 or 4, got 2/,
    );
  }));

test("broadcastShapes and resultType fold in Rust", () =>
  scopedAsync(async (k) => {
    assert.deepEqual(np.broadcastShapes([2, 1, 3], [4, 1], [1]), [2, 4, 3]);
    assert.deepEqual(np.broadcastShapes(), []);
    assert.deepEqual(np.broadcastShapes([0, 1], [3]), [0, 3]);
    assert.throws(() => np.broadcastShapes([2], [3]), TypeError);
    const i = k(np.array([1], { dtype: np.int32 }));
    assert.equal(np.resultType(i, 2.5, true), np.int32);
    assert.equal(np.resultType(2.5, true), np.float32);
    assert.equal(np.resultType(true, false), np.bool);
    assert.equal(np.resultType(np.uint32, 1.5, np.float16), np.float16);
    assert.match(errorMessage(() => np.resultType()).message, /^resultType: needs at least one/);
  }));

test("cumulativeSum and cumulativeProd with includeInitial prepend the identity", () =>
  scopedAsync(async (k) => {
    const rows = [
      [1, 2, 3],
      [4, NaN, 6],
    ];
    const x = k(np.array(rows));
    const running = (row, op, init) => {
      const out = [init];
      for (const v of row) out.push(op(out.at(-1), v));
      return out;
    };
    const sums = rows.map((r) => running(r, (a, b) => a + b, 0));
    const prods = rows.map((r) => running(r, (a, b) => a * b, 1));
    assert.deepEqual(
      await k(np.cumulativeSum(x, { axis: 1, includeInitial: true })).jsAsync(),
      sums,
    );
    assert.deepEqual(
      await k(np.cumulativeProd(x, { axis: -1, includeInitial: true })).jsAsync(),
      prods,
    );
    assert.deepEqual(
      await k(np.cumulativeProd(x, { axis: 1 })).jsAsync(),
      prods.map((r) => r.slice(1)),
    );
    const cols = k(np.cumulativeSum(x, { axis: 0, includeInitial: true }));
    assert.deepEqual(await cols.jsAsync(), [
      [0, 0, 0],
      [1, 2, 3],
      [5, NaN, 9],
    ]);
    const flat = k(np.cumulativeProd(k(np.array([2, 3])), { includeInitial: true }));
    assert.deepEqual(await flat.jsAsync(), [1, 2, 6]);
    const b = k(np.array([true, false, true]));
    assert.deepEqual(await k(np.cumulativeSum(b, 0)).jsAsync(), [1, 1, 2]);
  }));
