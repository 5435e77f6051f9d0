// The scan cases of bench/README.md (dlm-js's uses): a Kalman-style log-likelihood through
// lax.associativeScan with elements (A [n,m,m], b [n,m,1], S [n,m,m]) under valueAndGrad over 20
// Adam steps; the 3-tuple elementwise variant; an RTS-style backward smoother (lax.scan reverse); a
// training block (lax.scan over valueAndGrad of an associativeScan loss). Oracles: plain float64 JS
// loops (values, and central finite differences of them for gradients) and the cpu device. Bodies
// dispose everything with `using`-style scopes, returned values included. Leak-checked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, np, ox, checkLeaksAroundEachTest, scoped as scope } from "./helpers.mjs";
import { rng } from "../shared/rng.mjs";

checkLeaksAroundEachTest();
const { lax } = ox;

const relClose = (got, want, tol, what) =>
  assert.ok(Math.abs(got - want) <= tol * (1 + Math.abs(want)), `${what}: ${got} vs ${want}`);

// --- deterministic data -----------------------------------------------------------------
function kalmanData(n, m, seed = 1) {
  const r = rng(seed + m);
  const G = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m }, (_, j) => (i === j ? 0.9 : 0.1 * r())),
  );
  const U = Array.from({ length: n }, () => Array.from({ length: m }, () => [r()]));
  const W = Array.from({ length: n }, () =>
    Array.from({ length: m }, (_, i) =>
      Array.from({ length: m }, (_, j) => (i === j ? 0.05 + 0.05 * Math.abs(r()) : 0)),
    ),
  );
  const Y = Array.from({ length: n }, () => Array.from({ length: m }, () => 2 * r()));
  return { n, m, G, U, W, Y };
}

// --- the float64 JS oracle: sequential composition, diagonal Gaussian log-likelihood ---------
const mm = (A, B) =>
  A.map((row) => B[0].map((_, k) => row.reduce((s, a, j) => s + a * B[j][k], 0)));
const tr = (A) => A[0].map((_, j) => A.map((row) => row[j]));
const madd = (A, B) => A.map((row, i) => row.map((a, j) => a + B[i][j]));
function jsLoss(d, [phi, logq, beta]) {
  const q = Math.exp(logq);
  let Ac = null;
  let bc = null;
  let Sc = null;
  let nll = 0;
  for (let t = 0; t < d.n; t++) {
    const A = d.G.map((row) => row.map((g) => phi * g));
    const b = d.U[t].map(([u]) => [beta * u]);
    const S = d.W[t].map((row, i) => row.map((w, j) => w + (i === j ? q : 0)));
    if (Ac === null) [Ac, bc, Sc] = [A, b, S];
    else [Ac, bc, Sc] = [mm(A, Ac), madd(mm(A, bc), b), madd(mm(mm(A, Sc), tr(A)), S)];
    for (let i = 0; i < d.m; i++) {
      const v = Sc[i][i] + 0.5;
      nll += (d.Y[t][i] - bc[i][0]) ** 2 / v + Math.log(v);
    }
  }
  return nll / d.n;
}

// --- the same loss in oxjax ------------------------------------------------------------------
function compose(a, b) {
  return scope((u) => {
    const At = u(np.matrixTranspose(b.A));
    const A = u(np.matmul(b.A, a.A)); // `using` on returned values: harmless on tracers
    const bb = u(u(np.matmul(b.A, a.b)).add(b.b));
    const S = u(u(np.matmul(u(np.matmul(b.A, a.S)), At)).add(b.S));
    return { A, b: bb, S };
  });
}
function makeLoss(d, device, dtype = "float32") {
  const G = np.array(d.G, { device, dtype });
  const U = np.array(d.U, { device, dtype });
  const W = np.array(d.W, { device, dtype });
  const Y = np.array(d.Y, { device, dtype });
  const eye = np.eye(d.m, undefined, { device, dtype });
  const loss = (theta) =>
    scope((u) => {
      const [phi, logq, beta] = [0, 1, 2].map((i) => u(theta.slice(i)));
      const A = u(np.broadcastTo(u(G.mul(phi)), [d.n, d.m, d.m]));
      const b = u(U.mul(beta));
      const S = u(W.add(u(eye.mul(u(np.exp(logq))))));
      const out = lax.associativeScan(compose, { A, b, S });
      u(out.A);
      u(out.b);
      u(out.S);
      const diag = u(np.diagonal(out.S, 0, 1, 2));
      const v = u(diag.add(0.5));
      const resid = u(Y.sub(u(out.b.reshape([d.n, d.m]))));
      const terms = u(u(u(resid.mul(resid)).div(v)).add(u(np.log(v))));
      return u(np.sum(terms)).div(d.n);
    });
  loss.dispose = () => ox.tree.dispose([G, U, W, Y, eye]);
  return loss;
}

function fdGrad(d, theta) {
  return theta.map((_, i) => {
    const h = 1e-6;
    const at = (s) =>
      jsLoss(
        d,
        theta.map((v, k) => (k === i ? v + s : v)),
      );
    return (at(h) - at(-h)) / (2 * h);
  });
}

describe("seed case 1: Kalman log-likelihood via associativeScan under valueAndGrad", () => {
  for (const m of [1, 2, 4]) {
    test(`m = ${m}: 20 Adam steps on ${COMPILED} (bare and under jit) match cpu and finite differences`, async () => {
      const d = kalmanData(100, m);
      const lossW = makeLoss(d, COMPILED);
      const lossC = makeLoss(d, "cpu");
      const vg = { [COMPILED]: ox.valueAndGrad(lossW), cpu: ox.valueAndGrad(lossC) };
      const jitted = ox.jit(ox.valueAndGrad(lossW));
      let theta = [0.8, Math.log(0.1), 0.5];
      const mom = [0, 0, 0];
      const vel = [0, 0, 0];
      for (let it = 0; it < 20; it++) {
        const got = {};
        // Every step on the compiled device; the cpu device (slow, an interpreter) and the JS oracle check
        // the first and last steps and a few between.
        const check = it % 6 === 0 || it === 19;
        for (const device of check ? [COMPILED, "cpu"] : [COMPILED]) {
          const t = np.array(theta, { device });
          const [v, g] = vg[device](t);
          got[device] = { v: await v.jsAsync(), g: await g.jsAsync() };
          ox.tree.dispose([t, v, g]);
        }
        {
          const t = np.array(theta, { device: COMPILED });
          const [v, g] = jitted(t);
          relClose(await v.jsAsync(), got[COMPILED].v, 1e-5, `jit value step ${it}`);
          (await g.jsAsync()).forEach((gi, i) =>
            relClose(gi, got[COMPILED].g[i], 1e-4, `jit grad ${i} step ${it}`),
          );
          ox.tree.dispose([t, v, g]);
        }
        if (check) {
          relClose(got[COMPILED].v, got.cpu.v, 1e-4, `value step ${it}`);
          got[COMPILED].g.forEach((g, i) =>
            relClose(g, got.cpu.g[i], 1e-3, `grad ${i} step ${it}`),
          );
          relClose(got[COMPILED].v, jsLoss(d, theta), 1e-4, `value vs JS, step ${it}`);
          fdGrad(d, theta).forEach((g, i) =>
            relClose(got[COMPILED].g[i], g, 2e-3, `grad ${i} vs FD, step ${it}`),
          );
        }
        theta = theta.map((p, i) => {
          const g = got[COMPILED].g[i];
          mom[i] = 0.9 * mom[i] + 0.1 * g;
          vel[i] = 0.999 * vel[i] + 0.001 * g * g;
          const mh = mom[i] / (1 - 0.9 ** (it + 1));
          const vh = vel[i] / (1 - 0.999 ** (it + 1));
          return p - 0.05 * (mh / (Math.sqrt(vh) + 1e-8));
        });
      }
      jitted.dispose();
      lossW.dispose();
      lossC.dispose();
    });
  }

  test("the 3-tuple elementwise variant matches a JS loop and finite differences", async () => {
    const n = 37;
    const r = rng(7);
    const base = Array.from({ length: n }, () => [r(), r(), r()]);
    const jsTotal = (s) => {
      let [a, b, c] = [1, 0, 0];
      let total = 0;
      base.forEach(([x, y, z], t) => {
        const [d, e, f] = [0.9 + 0.1 * x * s, y * s, z];
        [a, b, c] = t === 0 ? [d, e, f] : [d * a, d * b + e, d * c + f];
        total += b * b + c * a;
      });
      return total;
    };
    const op = ([a, b, c], [d, e, f]) =>
      scope((u) => [u(d.mul(a)), u(u(d.mul(b)).add(e)), u(u(d.mul(c)).add(f))]);
    const X = np.array(
      base.map((v) => v[0]),
      { dtype: "float64", device: "cpu" },
    );
    const Yv = np.array(
      base.map((v) => v[1]),
      { dtype: "float64", device: "cpu" },
    );
    const Z = np.array(
      base.map((v) => v[2]),
      { dtype: "float64", device: "cpu" },
    );
    const loss = (s) =>
      scope((u) => {
        const [a, b, c] = lax.associativeScan(op, [
          u(u(u(X.mul(s)).mul(0.1)).add(0.9)),
          u(Yv.mul(s)),
          Z,
        ]);
        u(a);
        u(b);
        u(c);
        return u(np.sum(u(b.mul(b)))).add(u(np.sum(u(c.mul(a)))));
      });
    const s = np.array(1.3, { dtype: "float64", device: "cpu" });
    const [v, g] = ox.valueAndGrad(loss)(s);
    relClose(await v.jsAsync(), jsTotal(1.3), 1e-12, "value");
    relClose(await g.jsAsync(), (jsTotal(1.3 + 1e-6) - jsTotal(1.3 - 1e-6)) / 2e-6, 1e-6, "grad");
    ox.tree.dispose([X, Yv, Z, s, v, g]);
  });
});

describe("seed case 2: RTS-style backward smoother (lax.scan reverse)", () => {
  for (const m of [2, 5, 8]) {
    test(`m = ${m}: ${COMPILED} and cpu match a JS loop`, async () => {
      const d = kalmanData(100, m, 3);
      const A = d.G.map((row) => row.map((g) => 0.95 * g));
      const jsRun = () => {
        let r = Array.from({ length: m }, () => [0]);
        let N = Array.from({ length: m }, () => Array(m).fill(0));
        const rs = Array(d.n);
        for (let t = d.n - 1; t >= 0; t--) {
          const At = tr(A);
          r = madd(mm(At, r), d.U[t]);
          N = madd(mm(mm(At, N), A), d.W[t]);
          rs[t] = r;
        }
        return { r, N, rs };
      };
      const want = jsRun();
      for (const device of [COMPILED, "cpu"]) {
        const elems = {
          A: np.array(Array(d.n).fill(A), { device }),
          b: np.array(d.U, { device }),
          S: np.array(d.W, { device }),
        };
        const init = { r: np.zeros([m, 1], { device }), N: np.zeros([m, m], { device }) };
        const step = (c, e) =>
          scope((u) => {
            const At = u(np.matrixTranspose(e.A));
            const r = u(u(np.matmul(At, c.r)).add(e.b));
            const N = u(u(np.matmul(u(np.matmul(At, c.N)), e.A)).add(e.S));
            return [{ r, N }, r];
          });
        const seen = [];
        ox.setScanPathCallback((path, dev) => seen.push([path, dev]));
        const runs0 = ox.memoryStats().devices[device].loopRuns;
        const [c, rs] = lax.scan(step, init, elems, { reverse: true });
        const smoother = ox.jit((i, e) => lax.scan(step, i, e, { reverse: true }));
        const [jc, jrs] = smoother(init, elems);
        const runs = ox.memoryStats().devices[device].loopRuns - runs0;
        ox.setScanPathCallback(null);
        // The compiled device runs the smoother as one compiled loop per scan (eager and jit);
        // the cpu interpreter runs the host loop.
        const path = device === "cpu" ? "fallback" : "fused";
        assert.deepEqual(seen, [
          [path, device],
          [path, device],
        ]);
        assert.equal(runs, device === "cpu" ? 0 : 2, "one compiled loop run per scan");
        assert.deepEqual(await jrs.jsAsync(), await rs.jsAsync(), "jit equals eager");
        ox.tree.dispose([jc, jrs]);
        smoother.dispose();
        const close = (got, w, what) =>
          got
            .flat(Infinity)
            .forEach((v, i) => relClose(v, w.flat(Infinity)[i], 1e-4, `${what}[${i}] ${device}`));
        close(await c.r.jsAsync(), want.r, "r");
        close(await c.N.jsAsync(), want.N, "N");
        close(await rs.jsAsync(), want.rs, "rs");
        ox.tree.dispose([elems, init, c, rs]);
      }
    });
  }
});

describe("seed case 3: a training block scanned over valueAndGrad of an associativeScan loss", () => {
  test("lax.scan(step, {theta, optState, lastLik}, null, {length: 10}) equals a JS loop of step", async () => {
    const d = kalmanData(24, 2, 5);
    const loss = makeLoss(d, COMPILED);
    const step = (c) =>
      scope((u) => {
        const [lik, g] = ox.valueAndGrad(loss)(c.theta);
        u(lik);
        u(g);
        const m = u(c.optState.m.mul(0.9)).add(u(g.mul(0.1)));
        const v = u(c.optState.v.mul(0.999)).add(u(u(g.mul(g)).mul(0.001)));
        const upd = u(u(m.div(u(u(np.sqrt(v)).add(1e-8)))).mul(0.01));
        // The returned arrays are not scoped: the same step also runs eagerly as the oracle.
        const theta = c.theta.sub(upd);
        return [{ theta, optState: { m, v }, lastLik: lik.add(0) }, null];
      });
    const init = {
      theta: np.array([0.8, Math.log(0.1), 0.5], { device: COMPILED }),
      optState: { m: np.zeros([3], { device: COMPILED }), v: np.zeros([3], { device: COMPILED }) },
      lastLik: np.array(0, { device: COMPILED }),
    };
    const [out, ys] = lax.scan(step, init, null, { length: 10 });
    assert.equal(ys, null);
    const block = ox.jit((c) => lax.scan(step, c, null, { length: 10 })[0]);
    const jout = block(init);
    block.dispose();
    // Oracle: the same step run eagerly ten times.
    let c = init;
    let before = null;
    for (let i = 0; i < 10; i++) {
      if (i === 9) before = await c.theta.jsAsync();
      const [next] = step(c);
      if (c !== init) ox.tree.dispose(c);
      c = next;
    }
    const flat = async (t) =>
      (await Promise.all(ox.tree.leaves(t).map((a) => a.jsAsync()))).flat(Infinity);
    const got = await flat(out);
    const jgot = await flat(jout);
    const want = await flat(c);
    want.forEach((w, i) => relClose(got[i], w, 1e-5, `leaf ${i}`));
    want.forEach((w, i) => relClose(jgot[i], w, 1e-5, `jit leaf ${i}`));
    ox.tree.dispose(jout);
    relClose(await out.lastLik.jsAsync(), jsLoss(d, before), 1e-4, "lastLik vs the JS loss");
    ox.tree.dispose([init, out, c]);
    loss.dispose();
  });
});
