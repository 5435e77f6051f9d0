// Gradients through the linear algebra routines against central finite differences in float64
// on the cpu device (cholesky, triangularSolve in a and b, lstsq, norms), and a 3-step Kalman
// filter (cholesky + triangular solves, state sizes 2..8) against NumPy
// (tests/data/linalg_expected.json, scripts/gen_linalg_expected.py), with its gradient checked
// by finite differences. A leak check follows every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  assertGradMatchesFd,
  item,
  np,
  ON_WEBGPU,
  ox,
  checkLeaksAroundEachTest,
  scoped,
  webgpuSkip,
} from "./helpers.mjs";

checkLeaksAroundEachTest();

const { linalg } = ox.lax;
const { kalman: kalmanCases } = JSON.parse(
  readFileSync(new URL("../data/linalg_expected.json", import.meta.url), "utf8"),
);

const f64 = (values, shape) => np.array(values, { shape, dtype: "float64", device: "cpu" });

/** Deterministic values in (-1, 1). */
const noise = (n, seed) => Array.from({ length: n }, (_, i) => Math.sin((i + 1) * 12.9898 + seed));

/** A well-conditioned SPD matrix (M Mᵀ / n + I), flattened. */
function spd(n, seed) {
  const m = noise(n * n, seed);
  const out = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = i === j ? 1 : 0;
      for (let k = 0; k < n; k++) s += (m[i * n + k] * m[j * n + k]) / n;
      out.push(s);
    }
  return out;
}

/** Checks `grad(f)` at `x0` (shape `shape`) against central finite differences. */
function checkGrad(label, f, shape, x0, tol = 1e-6) {
  const x = f64(x0, shape);
  const g = ox.grad(f)(x);
  const got = g.dataSync();
  g.dispose();
  x.dispose();
  assertGradMatchesFd(label, f, x0, (v) => f64(v, shape), got, tol);
}

/** sum(w * y), w fixed weights of y's shape. */
const weighted = (k, y, seed) => {
  const w = k(f64(noise(y.size, seed), y.shape));
  return np.sum(k(y.mul(w)));
};

test(
  "grad of numpy.linalg.cholesky (lower and upper) matches finite differences",
  { skip: webgpuSkip("float64") },
  () => {
    for (const upper of [false, true]) {
      const f = (a) => scoped((k) => weighted(k, k(np.linalg.cholesky(a, { upper })), 3));
      checkGrad(`cholesky upper=${upper}`, f, [4, 4], spd(4, 1));
    }
  },
);

test(
  "grad of triangularSolve in a and in b matches finite differences, every flag",
  { skip: webgpuSkip("float64") },
  () => {
    for (let bits = 0; bits < 16; bits++) {
      const opts = {
        leftSide: !!(bits & 1),
        lower: !!(bits & 2),
        transposeA: !!(bits & 4),
        unitDiagonal: !!(bits & 8),
      };
      const a0 = noise(9, bits).map((v, i) => (i % 4 === 0 ? v + 3 : v));
      const bShape = opts.leftSide ? [3, 2] : [2, 3];
      const b0 = noise(6, 100 + bits);
      const inA = (a) =>
        scoped((k) => weighted(k, k(linalg.triangularSolve(a, k(f64(b0, bShape)), opts)), 7));
      checkGrad(`in a ${JSON.stringify(opts)}`, inA, [3, 3], a0);
      const inB = (b) =>
        scoped((k) => weighted(k, k(linalg.triangularSolve(k(f64(a0, [3, 3])), b, opts)), 7));
      checkGrad(`in b ${JSON.stringify(opts)}`, inB, bShape, b0);
    }
  },
);

test(
  "grad of batched scipyLinalg.solveTriangular and lstsq matches finite differences",
  { skip: webgpuSkip("float64") },
  () => {
    const a0 = noise(18, 5).map((v, i) => (i % 4 === 0 ? v + 3 : v));
    const rhs = noise(6, 9);
    const tri = (a) =>
      scoped((k) =>
        weighted(
          k,
          k(ox.scipyLinalg.solveTriangular(a, k(f64(rhs, [2, 3, 1])), { lower: true })),
          2,
        ),
      );
    checkGrad("solveTriangular", tri, [2, 3, 3], a0);
    for (const [m, n] of [
      [5, 3],
      [3, 5],
    ]) {
      const b0 = noise(m * 2, 4);
      const f = (a) => scoped((k) => weighted(k, k(np.linalg.lstsq(a, k(f64(b0, [m, 2])))), 8));
      // A well-conditioned a: noise plus 2 on the diagonal.
      const a0 = noise(m * n, 6).map((v, i) => (i % n === Math.floor(i / n) ? v + 2 : v));
      checkGrad(`lstsq ${m}x${n}`, f, [m, n], a0, 1e-5);
    }
  },
);

test(
  "grad of solve (in a and b), inv, det, slogdet and lu matches finite differences",
  { skip: webgpuSkip("float64") },
  () => {
    const a0 = noise(16, 21).map((v, i) => (i % 5 === 0 ? v + 2 : v));
    const b0 = noise(8, 22);
    const fns = {
      "solve in a": (a) => scoped((k) => weighted(k, k(np.linalg.solve(a, k(f64(b0, [4, 2])))), 1)),
      "solve vector b": (b) =>
        scoped((k) => weighted(k, k(np.linalg.solve(k(f64(a0, [4, 4])), b)), 2)),
      inv: (a) => scoped((k) => weighted(k, k(np.linalg.inv(a)), 3)),
      det: (a) => np.linalg.det(a),
      slogdet: (a) => {
        const [sign, logdet] = np.linalg.slogdet(a);
        sign.dispose();
        return logdet;
      },
      "lu factor": (a) =>
        scoped((k) => {
          const [lu, piv, perm] = linalg.lu(a);
          k(piv);
          k(perm);
          return weighted(k, k(lu), 4);
        }),
    };
    for (const [name, f] of Object.entries(fns)) {
      const shape = name === "solve vector b" ? [4] : [4, 4];
      checkGrad(name, f, shape, name === "solve vector b" ? b0.slice(0, 4) : a0, 1e-5);
    }
  },
);

test(
  "grad of qr (Householder composition) matches finite differences",
  { skip: webgpuSkip("float64") },
  () => {
    for (const [m, n] of [
      [4, 3],
      [3, 3],
      [3, 4],
    ]) {
      const f = (a) =>
        scoped((k) => {
          const [q, r] = np.linalg.qr(a);
          k(q);
          k(r);
          return k(weighted(k, q, 12)).add(k(weighted(k, r, 13)));
        });
      // Full rank: noise (rank 2 on its own: sines of an arithmetic progression) plus 2 on the
      // diagonal.
      const a0 = noise(m * n, 30 + m).map((v, i) => (i % n === Math.floor(i / n) ? v + 2 : v));
      checkGrad(`qr ${m}x${n}`, f, [m, n], a0, 1e-5);
    }
  },
);

test(
  "grad of vector and matrix norms matches finite differences",
  { skip: webgpuSkip("float64") },
  () => {
    const x0 = noise(12, 11);
    const fns = {
      vector2: (x) => np.linalg.vectorNorm(x),
      vector3axis: (x) => scoped((k) => np.sum(k(np.linalg.vectorNorm(x, { ord: 3, axis: 1 })))),
      fro: (x) => np.linalg.matrixNorm(x),
      one: (x) => np.linalg.matrixNorm(x, { ord: 1 }),
      inf: (x) => np.linalg.norm(x, Infinity),
    };
    for (const [name, f] of Object.entries(fns)) checkGrad(name, f, [3, 4], x0);
  },
);

/** Twin of the Kalman filter in scripts/gen_linalg_expected.py: returns [m, P, ll]. */
function kalman(k, { F, Q, H, R, m0, P0, ys }) {
  const mm = (a, b) => k(np.matmul(a, b));
  const solveL = (L, b, transposeA = false) =>
    k(linalg.triangularSolve(L, b, { leftSide: true, lower: true, transposeA }));
  let [m, P] = [m0, P0];
  let ll = null;
  const obs = H.shape[0];
  for (let t = 0; t < ys.shape[0]; t++) {
    m = mm(F, m);
    P = k(mm(mm(F, P), k(F.T)).add(Q));
    const S = k(mm(mm(H, P), k(H.T)).add(R));
    const L = k(linalg.cholesky(S));
    const y = k(ys.slice(t));
    const v = k(y.sub(mm(H, m)));
    const z = solveL(L, v);
    const logDiag = np.sum(k(np.log(k(np.diagonal(L)))));
    const term = k(k(k(np.sum(k(z.mul(z)))).mul(-0.5)).sub(k(logDiag)));
    const step = k(term.sub((obs / 2) * Math.log(2 * Math.PI)));
    ll = ll === null ? step : k(ll.add(step));
    const U = solveL(L, mm(H, P));
    const K = k(solveL(L, U, true).T);
    m = k(m.add(mm(K, v)));
    P = k(P.sub(mm(k(U.T), U)));
  }
  return [m, P, ll];
}

const decode = (v) => (v === "nan" ? NaN : v);

test("a Kalman filter (cholesky + triangular solves, 2x2..8x8) matches NumPy (cpu and wasm, or webgpu)", async () => {
  for (const c of kalmanCases) {
    for (const [device, dtype, tol] of ON_WEBGPU
      ? [["webgpu", "float32", 2e-3]]
      : [
          ["cpu", "float64", 1e-10],
          ["cpu", "float32", 2e-3],
          ["wasm", "float32", 2e-3],
        ]) {
      const made = [];
      try {
        const inputs = Object.fromEntries(
          Object.entries(c.inputs).map(([name, a]) => {
            const x = np.array(a.data.map(decode), { shape: a.shape, dtype, device });
            made.push(x);
            return [name, x];
          }),
        );
        const [m, P, ll] = scoped((k) => kalman(k, inputs).map((x) => x.ref));
        made.push(m, P, ll);
        const close = (got, want, what) =>
          assert.ok(
            Math.abs(got - want) <= tol * (1 + Math.abs(want)),
            `n=${c.n} ${device} ${dtype} ${what}: ${got} vs ${want}`,
          );
        close((await ll.data())[0], c.ll, "loglik");
        (await m.data()).forEach((x, i) => close(x, c.m.data[i], `m[${i}]`));
        (await P.data()).forEach((x, i) => close(x, c.P.data[i], `P[${i}]`));
      } finally {
        made.forEach((x) => x.dispose());
      }
    }
  }
});

test(
  "grad of the Kalman log-likelihood in the initial mean and H matches finite differences",
  { skip: webgpuSkip("float64") },
  () => {
    for (const c of kalmanCases.filter((c) => [2, 5].includes(c.n))) {
      const inputs = Object.fromEntries(
        Object.entries(c.inputs).map(([name, a]) => [name, f64(a.data, a.shape)]),
      );
      try {
        for (const name of ["m0", "H"]) {
          const f = (x) => scoped((k) => kalman(k, { ...inputs, [name]: x })[2].ref);
          checkGrad(`n=${c.n} d/d${name}`, f, c.inputs[name].shape, c.inputs[name].data, 1e-5);
        }
      } finally {
        Object.values(inputs).forEach((x) => x.dispose());
      }
    }
  },
);
