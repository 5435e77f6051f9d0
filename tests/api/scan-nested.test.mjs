// Nested scans on wasm (one emitted module runs the whole loop, any body): a scan whose
// body runs another scan is ONE loop module with the inner loop inside it. The case that matters
// is dlm-js's (bench/README.md): jit(valueAndGrad) of a Kalman-filter log-likelihood written with
// lax.scan, state m = 2 (Cholesky and triangular solves in the body). Its backward pass is a
// √N-checkpointed scan: an outer scan over segments whose body re-runs the forward segment and a
// reverse scan. Asserted through setScanPathCallback and memoryStats().devices.wasm: every scan
// reports "fused", one module call per reported scan (none for the nested ones), and the module
// calls of a whole valueAndGrad do not grow with N; a training block scanned over valueAndGrad of
// the filter (loops three deep) is one module call. Oracles: the cpu device (its host loops over
// the interpreter; float64 results equal bit for bit), a float64 JS filter for the value, and
// central finite differences of it for the gradient. Leak-checked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, np, ox, scoped as scope } from "./helpers.mjs";
import { close, observe } from "./scan_observe.mjs";
import { kalman2LogLikJs } from "../shared/kalman.mjs";
import { rng } from "../shared/rng.mjs";

checkLeaksAroundEachTest();
const { lax } = ox;
const { linalg } = lax;

const observations = (n) => {
  const r = rng(7);
  return Array.from({ length: n }, (_, t) => [[Math.sin(t / 20) + 0.4 * r()], [0.4 * r()]]);
};
const THETA = [0.9, Math.log(0.02), Math.log(0.5)];
const R0 = [
  [0.6, 0.1],
  [0.1, 0.4],
];

// --- the float64 JS oracle: the same filter, −log-likelihood / n ------------------------------
function jsLoss(ys, [phi, logq, logr], reverse) {
  const F = [
    [1, 0.1],
    [0, phi],
  ];
  const Q = [
    [Math.exp(logq), 0],
    [0, 2 * Math.exp(logq)],
  ];
  const R = R0.map((row) => row.map((v) => v * Math.exp(logr)));
  return -kalman2LogLikJs(reverse ? [...ys].reverse() : ys, F, Q, R) / ys.length;
}

const fdGrad = (ys, theta, reverse) =>
  theta.map((_, i) => {
    const h = 1e-5;
    const at = (s) =>
      jsLoss(
        ys,
        theta.map((v, k) => (k === i ? v + s : v)),
        reverse,
      );
    return (at(h) - at(-h)) / (2 * h);
  });

// --- the same filter in oxjax -----------------------------------------------------------------
function makeLoss(ysJs, device, opts) {
  const dtype = "float64";
  const ys = np.array(ysJs, { device, dtype });
  const F0 = np.array(
    [
      [1, 0.1],
      [0, 0],
    ],
    { device, dtype },
  );
  const E22 = np.array(
    [
      [0, 0],
      [0, 1],
    ],
    { device, dtype },
  );
  const Q0 = np.array(
    [
      [1, 0],
      [0, 2],
    ],
    { device, dtype },
  );
  const R = np.array(R0, { device, dtype });
  const loss = (theta) =>
    scope((u) => {
      const [phi, logq, logr] = [0, 1, 2].map((i) => u(theta.slice(i)));
      const F = u(F0.add(u(E22.mul(phi))));
      const Ft = u(np.matrixTranspose(F));
      const Q = u(Q0.mul(u(np.exp(logq))));
      const Rs = u(R.mul(u(np.exp(logr))));
      const step = (c, y) =>
        scope((w) => {
          const xp = w(np.matmul(F, c.x));
          const Pp = w(w(np.matmul(w(np.matmul(F, c.P)), Ft)).add(Q));
          const S = w(Pp.add(Rs));
          const L = w(linalg.cholesky(S));
          const v = w(y.sub(xp));
          const a = w(linalg.triangularSolve(L, v, { leftSide: true, lower: true }));
          const logdet = w(np.sum(w(np.log(w(np.diagonal(L))))));
          const ll = c.ll.sub(w(w(w(np.sum(w(a.mul(a)))).mul(0.5)).add(logdet)));
          // Kᵀ = S⁻¹ Ppᵀ = L⁻ᵀ L⁻¹ Pp (S and Pp symmetric).
          const B = w(linalg.triangularSolve(L, Pp, { leftSide: true, lower: true }));
          const Kt = w(
            linalg.triangularSolve(L, B, { leftSide: true, lower: true, transposeA: true }),
          );
          const K = w(np.matrixTranspose(Kt));
          const x = w(xp.add(w(np.matmul(K, v))));
          const P = w(Pp.sub(w(np.matmul(w(np.matmul(K, S)), Kt))));
          return [{ x, P, ll }, null];
        });
      const init = {
        x: u(np.zeros([2, 1], { device, dtype })),
        P: u(np.eye(2, undefined, { device, dtype })),
        ll: u(np.zeros([], { device, dtype })),
      };
      const [c] = lax.scan(step, init, ys, opts);
      u(c.x);
      u(c.P);
      u(c.ll);
      return c.ll.mul(-1 / ysJs.length);
    });
  loss.dispose = () => ox.tree.dispose([ys, F0, E22, Q0, R]);
  return loss;
}

/**
 * jit(valueAndGrad(loss)) on `device`: its value, gradient and what its call did (the second
 * call on wasm, after one that traces and compiles; the only call on cpu, whose host loops are
 * slow).
 */
function run(ysJs, device, opts) {
  const loss = makeLoss(ysJs, device, opts);
  const f = ox.jit(ox.valueAndGrad(loss));
  const theta = np.array(THETA, { device, dtype: "float64" });
  if (device !== "cpu") ox.tree.dispose(f(theta));
  const o = observe(() => f(theta));
  const [v, g] = o.result;
  const out = { v: v.js(), g: g.js(), o };
  ox.tree.dispose([theta, v, g]);
  f.dispose();
  loss.dispose();
  return out;
}

/** ⌈√n⌉ as the scan's default checkpointing computes it. */
const sqrtSegment = (n) => Math.max(1, Math.ceil(Math.sqrt(n) - 1e-9));

describe("jit(valueAndGrad) of a lax.scan Kalman filter on wasm: nested loops in one module", () => {
  // The cpu oracle runs where N is small (its interpreter takes ~10 s at N = 1000).
  const cases = [100, 1000].flatMap((n) =>
    [{}, { checkpoint: false }, { reverse: true }].map((opts) => ({ n, opts, cpu: n <= 100 })),
  );
  cases.push({ n: 150, opts: { checkpoint: 7 }, cpu: true });
  for (const { n, opts, cpu } of cases) {
    test(`N = ${n}, ${JSON.stringify(opts)}: every scan fused, equal to cpu and finite differences`, () => {
      const ys = observations(n);
      const got = run(ys, "wasm", opts);
      const { o } = got;
      assert.ok(
        o.events.every((e) => e.path === "fused" && e.device === "wasm"),
        JSON.stringify(o.events),
      );
      assert.equal(o.fallback, 0);
      assert.equal(o.loopRuns, o.outer.length, "one module call per outer scan");
      const nested = o.outer.filter((e) => /nested loops/.test(e.detail));
      if (opts.checkpoint === false) {
        assert.equal(nested.length, 0, "every carry kept: no loop over segments");
      } else {
        // The forward pass keeping checkpoints and the backward pass: each a loop over the
        // segments whose module runs the segment's inner scans.
        const s = opts.checkpoint ?? sqrtSegment(n);
        assert.deepEqual(
          nested.map((e) => e.length),
          [Math.floor(n / s), Math.floor(n / s)],
          JSON.stringify(o.events),
        );
      }
      // The value against the float64 JS filter, the gradient against its finite differences.
      close(got.v, jsLoss(ys, THETA, opts.reverse), 1e-12, "value vs JS");
      close(got.g, fdGrad(ys, THETA, opts.reverse), 1e-6, "gradient vs finite differences");
      // And both against the cpu interpreter's host loops.
      if (cpu) {
        const want = run(ys, "cpu", opts);
        assert.equal(want.o.loopRuns, 0);
        // Every scan run is counted, nested ones included, as the cpu's host loops count them.
        assert.equal(o.fused, want.o.fallback);
        // float64: bit for bit (the loop module runs the same kernels and routines).
        assert.deepEqual([got.v, got.g], [want.v, want.g]);
      }
    });
  }

  test("a training block (lax.scan over valueAndGrad of the filter): loops three deep, one call", () => {
    // 5 gradient steps θ ← θ − 0.05·∇loss(θ) as one scan: its body runs the filter's scan and
    // the scans over segments of its backward pass, which nest the segments' scans.
    const ys = observations(30);
    const out = {};
    for (const device of ["wasm", "cpu"]) {
      const loss = makeLoss(ys, device, {});
      const step = (theta) =>
        scope((u) => {
          const [v, g] = ox.valueAndGrad(loss)(theta);
          u(v);
          return [theta.sub(u(g.mul(0.05))), v.add(0)];
        });
      const theta0 = np.array(THETA, { device, dtype: "float64" });
      const o = observe(() => lax.scan(step, theta0, null, { length: 5 }));
      const [theta, vs] = o.result;
      out[device] = { theta: theta.js(), vs: vs.js(), o };
      ox.tree.dispose([theta0, theta, vs]);
      loss.dispose();
    }
    const { o } = out.wasm;
    assert.deepEqual(
      o.outer.map((e) => [e.path, e.length]),
      [["fused", 5]],
    );
    assert.match(o.outer[0].detail, /nested loops/);
    assert.ok(o.nested.length >= 3, JSON.stringify(o.events));
    assert.ok(
      o.nested.every((e) => e.path === "fused"),
      JSON.stringify(o.nested),
    );
    assert.deepEqual([o.loopRuns, o.dispatches], [1, 1]);
    assert.ok(out.cpu.o.events.length > 5, "cpu: host loops at every level");
    assert.equal(o.fused, out.cpu.o.fallback, "every run counted, as on cpu");
    assert.deepEqual([out.wasm.theta, out.wasm.vs], [out.cpu.theta, out.cpu.vs]);
    // The same steps in float64 JS with finite-difference gradients.
    let theta = THETA;
    const vs = [];
    for (let i = 0; i < 5; i++) {
      vs.push(jsLoss(ys, theta, false));
      const g = fdGrad(ys, theta, false);
      theta = theta.map((t, k) => t - 0.05 * g[k]);
    }
    close(out.wasm.vs, vs, 1e-12, "losses vs JS");
    close(out.wasm.theta, theta, 1e-8, "θ vs JS with finite differences");
  });

  // A small nested scan (an inner scan over each outer x row, its ys the outer ys) under every
  // transformation: eager valueAndGrad, jit, vmap of grad, jit of that; an empty inner scan,
  // a reverse one, checkpoint segments of 2 and none. Equal to cpu bit for bit.
  const small = [
    { inner: 3, reverse: false, checkpoint: true },
    { inner: 0, reverse: false, checkpoint: true },
    { inner: 5, reverse: true, checkpoint: 2 },
    { inner: 1, reverse: true, checkpoint: false },
  ];
  for (const c of small) {
    test(`a nested scan ${JSON.stringify(c)} under valueAndGrad, jit and vmap: equal to cpu`, () => {
      const run = (device) =>
        scope((u) => {
          const o = { device, dtype: "float64" };
          const init = u(np.array([0.5, -0.5], o));
          const rows = Array.from({ length: 4 }, (_, i) =>
            Array.from({ length: c.inner }, (_, j) => [i - j, 0.5 * j]),
          );
          const xs = u(u(np.array(rows, o)).reshape([4, c.inner, 2]));
          const f = (w) =>
            scope((k) => {
              const outer = (carry, x) =>
                lax.scan((c2, x2) => [np.sin(k(c2.mul(w))).add(x2), c2.mul(x2)], carry, x, {
                  reverse: c.reverse,
                });
              const [cf, ys] = lax.scan(outer, init, xs, { checkpoint: c.checkpoint });
              return k(np.sum(k(ys))).add(k(np.sum(k(cf))));
            });
          const w = u(np.array([0.7, 1.1], o));
          const ws = u(
            np.array(
              [
                [0.7, 1.1],
                [0.2, -0.3],
                [1.0, 0.5],
              ],
              o,
            ),
          );
          const jvg = ox.jit(ox.valueAndGrad(f));
          const jvm = ox.jit(ox.vmap(ox.grad(f)));
          const seen = observe(() =>
            [ox.valueAndGrad(f)(w), jvg(w), ox.vmap(ox.grad(f))(ws), jvm(ws)].flat(),
          );
          jvg.dispose();
          jvm.dispose();
          return { values: seen.result.map((a) => u(a).js()), o: seen };
        });
      const got = run("wasm");
      const want = run("cpu");
      assert.ok(
        got.o.events.every((e) => e.path === "fused"),
        JSON.stringify(got.o.events),
      );
      assert.equal(got.o.loopRuns, got.o.outer.length);
      // The nested scans report too (fewer runs than cpu's: lowering drops scans whose
      // results are unused, which the cpu's host loops evaluate).
      assert.ok(got.o.nested.length > 0, JSON.stringify(got.o.events));
      assert.ok(
        got.o.events.some((e) => e.length === 4 && /nested loops/.test(e.detail)),
        JSON.stringify(got.o.events),
      );
      assert.deepEqual(got.values, want.values);
    });
  }

  test("module calls per valueAndGrad do not grow with N (no host loop over segments)", () => {
    // N = 100 = 10·10 and N = 961 = 31·31: the same program over 10 or 31 segments.
    const a = run(observations(100), "wasm", {}).o;
    const b = run(observations(961), "wasm", {}).o;
    assert.equal(b.dispatches, a.dispatches, "the same module calls");
    assert.equal(b.loopRuns, a.loopRuns);
    assert.ok(a.loopRuns >= 3 && a.dispatches > a.loopRuns, JSON.stringify(a));
  });
});
