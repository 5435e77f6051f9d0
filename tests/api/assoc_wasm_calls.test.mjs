// lax.associativeScan as ONE wasm module call: up to N = 256 a jitted Program of many small
// kernels (the Kogge–Stone rounds) runs as one emitted module (lower/whole.rs,
// backend/wasm/program.rs); longer, the scan form is one compiled loop module. An eager
// associativeScan runs as such a program. Asserted with the module-call counter
// (memoryStats().devices.wasm.dispatches) around one call after a warm-up, with results against
// float64 JS loops (finite differences for gradients) and the cpu device (the same program,
// interpreted; small cases only, it is slow): the compose of case 1 in bench/README.md
// (A [n,m,m], b [n,m,1], S [n,m,m]), m = 1, 2, 4, n = 100 and 1000, the 3-tuple elementwise
// variant, jit(valueAndGrad) of the Kalman loss (one module call for the rounds, a number fixed
// in N for the scan form), a program with a routine, and a program the one-call path refuses (a
// kernel too large), which runs kernel by kernel. Node only (wasm module calls). Leak-checked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, assertClose, checkLeaksAroundEachTest } from "./helpers.mjs";
import { kalmanCompose, makeAssocNll } from "../shared/scan_bodies.mjs";
import { rng } from "../shared/rng.mjs";

checkLeaksAroundEachTest();
const { lax } = ox;

const calls = () => ox.memoryStats().devices.wasm.dispatches;

/** The module calls of one run of `f()` after a warm-up run, and that run's result. */
function measured(f) {
  ox.tree.dispose(f());
  const before = calls();
  const out = f();
  return [calls() - before, out];
}

/** Case 1 elements as nested JS arrays: A contracting (row sums < 1), S positive diagonal. */
function kalmanElems(n, m, seed = 1) {
  const r = rng(seed + 17 * m + n);
  const A = Array.from({ length: n }, () =>
    Array.from({ length: m }, (_, i) =>
      Array.from({ length: m }, (_, j) => (i === j ? 0.8 : 0.04) * (1 + 0.1 * r())),
    ),
  );
  const b = Array.from({ length: n }, () => Array.from({ length: m }, () => [r()]));
  const S = Array.from({ length: n }, () =>
    Array.from({ length: m }, (_, i) =>
      Array.from({ length: m }, (_, j) => (i === j ? 0.1 + 0.05 * Math.abs(r()) : 0)),
    ),
  );
  return { A, b, S };
}

const mm = (A, B) =>
  A.map((row) => B[0].map((_, k) => row.reduce((s, a, j) => s + a * B[j][k], 0)));
const madd = (A, B) => A.map((row, i) => row.map((a, j) => a + B[i][j]));
const tr = (A) => A[0].map((_, j) => A.map((row) => row[j]));

/** The float64 sequential prefix of the compose (A₂A₁, A₂b₁+b₂, A₂S₁A₂ᵀ+S₂). */
function jsPrefix({ A, b, S }) {
  let acc = null;
  return A.map((_, t) => {
    const [a2, b2, s2] = [A[t], b[t], S[t]];
    acc = acc
      ? [mm(a2, acc[0]), madd(mm(a2, acc[1]), b2), madd(mm(mm(a2, acc[2]), tr(a2)), s2)]
      : [a2, b2, s2];
    return acc;
  });
}

const put = (e, device) => ({
  A: np.array(e.A, { device }),
  b: np.array(e.b, { device }),
  S: np.array(e.S, { device }),
});
const read = (out) => [out.A.js(), out.b.js(), out.S.js()];

describe("case 1 compose: one module call per associativeScan on wasm", () => {
  for (const m of [1, 2, 4]) {
    for (const n of [100, 1000]) {
      test(`m = ${m}, n = ${n}: jitted and eager`, () => {
        const e = kalmanElems(n, m);
        const wasm = put(e, "wasm");
        const compose = kalmanCompose(np);
        const scan = ox.jit((x) => lax.associativeScan(compose, x));
        const [jitCalls, got] = measured(() => scan(wasm));
        assert.equal(jitCalls, 1, "module calls of the jitted scan");
        // Eager, with a fresh closure of fn each call (found by structure).
        const [eagerCalls, eager] = measured(() => lax.associativeScan(kalmanCompose(np), wasm));
        assert.equal(eagerCalls, 1, "module calls of the eager scan");
        const js = jsPrefix(e);
        const want = [0, 1, 2].map((k) => js.map((t) => t[k]));
        assertClose(read(got), want, 1e-4, "jit vs float64 JS");
        assertClose(read(eager), read(got), 1e-6, "eager vs jit");
        // The cpu interpreter (slow) on the small cases: the same program, interpreted.
        if (n === 100 && m <= 2) {
          const cpu = put(e, "cpu");
          const onCpu = scan(cpu);
          assertClose(read(got), read(onCpu), 1e-5, "jit vs cpu");
          ox.tree.dispose([cpu, onCpu]);
        }
        scan.dispose();
        ox.tree.dispose([wasm, got, eager]);
      });
    }
  }

  test("an eager scan of a broadcast input copies it dense first: two module calls", () => {
    const e = kalmanElems(100, 2);
    const wasm = put(e, "wasm");
    const A0 = np.array(e.A[0], { device: "wasm" });
    const A = np.broadcastTo(A0, [100, 2, 2]);
    const compose = kalmanCompose(np);
    const [n, got] = measured(() => lax.associativeScan(compose, { ...wasm, A }));
    assert.equal(n, 2, "one copy of the broadcast view, one module call");
    const cpuIn = put({ ...e, A: e.A.map(() => e.A[0]) }, "cpu");
    const want = lax.associativeScan(compose, cpuIn);
    assertClose(read(got), read(want), 1e-5, "vs cpu");
    ox.tree.dispose([wasm, A0, A, got, cpuIn, want]);
  });
});

test("the 3-tuple elementwise variant: one module call, jitted and eager", () => {
  const n = 1000;
  const r = rng(5);
  const cols = [0, 1, 2].map(() => Array.from({ length: n }, () => r()));
  cols[0] = cols[0].map((x) => 0.95 + 0.05 * x);
  const op = ([a, b, c], [d, e, f]) => {
    const db = d.mul(b);
    const dc = d.mul(c);
    const out = [d.mul(a), db.add(e), dc.add(f)];
    ox.tree.dispose([db, dc]);
    return out;
  };
  const on = (device) => cols.map((c) => np.array(c, { device, dtype: "float32" }));
  const [wasm, cpu] = [on("wasm"), on("cpu")];
  const scan = ox.jit((x) => lax.associativeScan(op, x));
  const [jitCalls, got] = measured(() => scan(wasm));
  assert.equal(jitCalls, 1);
  const [eagerCalls, eager] = measured(() => lax.associativeScan(op, wasm));
  assert.equal(eagerCalls, 1);
  const want = lax.associativeScan(op, cpu);
  let acc = null;
  const js = cols[0].map((_, t) => {
    const [d, e, f] = cols.map((c) => c[t]);
    acc = acc ? [d * acc[0], d * acc[1] + e, d * acc[2] + f] : [d, e, f];
    return acc;
  });
  const cpuVals = want.map((x) => x.js());
  [got, eager].forEach((o, k) => {
    assertClose(
      o.map((x) => x.js()),
      cpuVals,
      1e-5,
      `${k ? "eager" : "jit"} vs cpu`,
    );
  });
  assertClose(
    cpuVals,
    [0, 1, 2].map((k) => js.map((t) => t[k])),
    1e-4,
    "cpu vs float64 JS",
  );
  scan.dispose();
  ox.tree.dispose([wasm, cpu, got, eager, want]);
});

/** makeAssocNll's loss in float64 JS: A = φG, b = qU, S = q²I composed, then the Gaussian. */
function jsNll({ G, U, Y }, [phi, q]) {
  const m = G.length;
  const eye = G.map((row, i) => row.map((_, j) => (i === j ? q * q : 0)));
  const pre = jsPrefix({
    A: U.map(() => G.map((row) => row.map((g) => phi * g))),
    b: U.map((u) => u.map(([x]) => [q * x])),
    S: U.map(() => eye),
  });
  let total = 0;
  pre.forEach(([, b, S], t) => {
    for (let i = 0; i < m; i++) {
      const v = S[i][i] + 0.5;
      total += (Y[t][i] - b[i][0]) ** 2 / v + Math.log(v);
    }
  });
  return total / U.length;
}

test("jit(valueAndGrad) of the case 1 loss: module calls fixed in N, right value and gradient", () => {
  const m = 2;
  const r = rng(9);
  const dataOf = (n) => ({
    G: Array.from({ length: m }, (_, i) =>
      Array.from({ length: m }, (_, j) => (i === j ? 0.9 : 0.1 * r())),
    ),
    U: Array.from({ length: n }, () => Array.from({ length: m }, () => [r()])),
    Y: Array.from({ length: n }, () => Array.from({ length: m }, () => 2 * r())),
  });
  const on = (data, device) => ({
    G: np.array(data.G, { device }),
    U: np.array(data.U, { device }),
    Y: np.array(data.Y, { device }),
    eye: np.eye(m, undefined, { device }),
  });
  const theta = [0.8, 0.3];
  // Module calls per call: one for the rounds' program (N <= 256); for the one-scan form (the
  // forward scan, the checkpointed backward scans, the kernels around them) the same at every N.
  const calls = {};
  for (const n of [100, 1000, 2000]) {
    const data = dataOf(n);
    const cw = on(data, "wasm");
    const vg = ox.jit(ox.valueAndGrad(makeAssocNll(ox, cw, n, m)));
    const tw = np.array(theta, { device: "wasm" });
    const [k, [v, g]] = measured(() => vg(tw));
    calls[n] = k;
    if (n === 100) assert.equal(k, 1, `module calls of jit(valueAndGrad), n = ${n}`);
    if (n === 2000) assert.equal(k, calls[1000], `module calls at n = 2000 and 1000`);
    assertClose(v.js(), jsNll(data, theta), 1e-4, "value vs float64 JS");
    const h = 1e-6;
    const fd = theta.map((_, i) => {
      const at = (d) =>
        jsNll(
          data,
          theta.map((t, j) => (j === i ? t + d : t)),
        );
      return (at(h) - at(-h)) / (2 * h);
    });
    assertClose(g.js(), fd, 2e-3, "gradient vs finite differences");
    if (n === 100) {
      const cc = on(data, "cpu");
      const vgC = ox.jit(ox.valueAndGrad(makeAssocNll(ox, cc, n, m)));
      const tc = np.array(theta, { device: "cpu" });
      const [vc, gc] = vgC(tc);
      assertClose(v.js(), vc.js(), 1e-5, "value vs cpu");
      assertClose(g.js(), gc.js(), 1e-4, "gradient vs cpu");
      vgC.dispose();
      ox.tree.dispose([cc, tc, vc, gc]);
    }
    vg.dispose();
    ox.tree.dispose([cw, tw, v, g]);
  }
});

test("a program with a routine (cholesky) runs as one module call", () => {
  const f = ox.jit((a) => {
    let l = np.linalg.cholesky(a);
    for (let i = 0; i < 4; i++) {
      const s = np.sum(l);
      const next = l.mul(s).add(i);
      ox.tree.dispose([l, s]);
      l = next;
    }
    return l;
  });
  const spd = [
    [4, 1, 0.5],
    [1, 3, 0.2],
    [0.5, 0.2, 2],
  ];
  const aw = np.array(spd, { device: "wasm", dtype: "float64" });
  const ac = np.array(spd, { device: "cpu", dtype: "float64" });
  const [k, got] = measured(() => f(aw));
  assert.equal(k, 1);
  const want = f(ac);
  assertClose(got.js(), want.js(), 1e-12, "vs cpu");
  f.dispose();
  ox.tree.dispose([aw, ac, got, want]);
});

describe("programs the one-call path refuses run kernel by kernel", () => {
  // Eight rounds of centring and scaling: reductions keep the kernels apart (≥ 16 kernels).
  const chain = (x) => {
    let y = x.add(0);
    for (let i = 0; i < 8; i++) {
      const mu = np.mean(y);
      const c = y.sub(mu);
      const s = np.sum(c.mul(c));
      const next = c.div(s.add(1)).add(i);
      ox.tree.dispose([y, mu, c, s]);
      y = next;
    }
    return y;
  };
  for (const [size, oneCall] of [
    [1000, true],
    [70000, false],
  ]) {
    test(`${size} elements: ${oneCall ? "one module call" : "a call per kernel"}, cpu results`, () => {
      const vals = Array.from({ length: size }, (_, i) => Math.sin(i));
      const xw = np.array(vals, { device: "wasm" });
      const xc = np.array(vals, { device: "cpu" });
      const f = ox.jit(chain);
      const [k, got] = measured(() => f(xw));
      if (oneCall) assert.equal(k, 1);
      else assert.ok(k >= 16, `${k} module calls`);
      const want = f(xc);
      assertClose(got.js(), want.js(), 1e-5, "vs cpu");
      f.dispose();
      ox.tree.dispose([xw, xc, got, want]);
    });
  }
});

test("eager scans with fresh closures reach a steady state (caches, memory)", () => {
  const e = kalmanElems(64, 2);
  const wasm = put(e, "wasm");
  const snap = () => {
    const s = ox.memoryStats();
    return {
      liveArrays: s.liveArrays,
      liveBuffers: s.devices.wasm.liveBuffers,
      wasmMemoryBytes: s.wasmMemoryBytes,
      kernels: s.devices.wasm.kernelCacheEntries,
      programs: s.programCache.entries,
    };
  };
  let warm = null;
  for (let rep = 0; rep < 30; rep++) {
    ox.tree.dispose(lax.associativeScan(kalmanCompose(np), wasm));
    if (rep === 4) warm = snap();
  }
  assert.deepEqual(snap(), warm);
  ox.tree.dispose(wasm);
});
