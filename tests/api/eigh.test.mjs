// eigh/eigvalsh/svd/svdvals (numpy.linalg and lax.linalg) against NumPy, and their gradients
// against JAX (tests/data/eigh_expected.json, scripts/gen_eigh_expected.py). Eigenvector and
// singular vector signs are arbitrary (LAPACK's too), so vectors are compared after aligning
// each one's sign with NumPy's, and checked for orthonormality and reconstruction. A leak
// check follows every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { F64, checkLeaksAroundEachTest, errorMessage, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const data = JSON.parse(
  readFileSync(new URL("../data/eigh_expected.json", import.meta.url), "utf8"),
);

// float64 cases run on cpu when the suite runs on webgpu (which has no float64).
const arr = (e, dtype = "float32") =>
  np.array(e.data, { shape: e.shape, dtype, ...(dtype === "float64" ? F64 : {}) });

/** Reads (asynchronously, as every device allows) and disposes. */
async function take(x) {
  const out = Array.from(await x.data());
  x.dispose();
  return out;
}

function close(got, want, tol, label) {
  assert.equal(got.length, want.length, `${label}: length`);
  got.forEach((g, i) => {
    const w = want[i];
    assert.ok(Math.abs(g - w) <= tol * (1 + Math.abs(w)), `${label}[${i}]: ${g} vs ${w}`);
  });
}

/** `x` (row-major `[..., r, c]` data) with column `j` of each matrix multiplied by `sign[b][j]`. */
function signs(want, got, rows, cols, batch, byColumn) {
  // The sign of each vector: the sign that makes its largest NumPy entry agree.
  const out = [];
  for (let b = 0; b < batch; b++) {
    const s = [];
    const count = byColumn ? cols : rows;
    for (let j = 0; j < count; j++) {
      let best = 0;
      let idx = 0;
      const len = byColumn ? rows : cols;
      for (let i = 0; i < len; i++) {
        const k = b * rows * cols + (byColumn ? i * cols + j : j * cols + i);
        if (Math.abs(want[k]) > best) [best, idx] = [Math.abs(want[k]), k];
      }
      s.push(Math.sign(want[idx]) === Math.sign(got[idx]) ? 1 : -1);
    }
    out.push(s);
  }
  return out;
}

function applySigns(x, s, rows, cols, byColumn) {
  return x.map((v, k) => {
    const b = Math.floor(k / (rows * cols));
    const i = Math.floor((k % (rows * cols)) / cols);
    const j = k % cols;
    return v * s[b][byColumn ? j : i];
  });
}

/** `x [..., r, c]` · `y [..., c, d]` on plain arrays. */
function matmul(x, y, batch, r, c, d) {
  const out = new Array(batch * r * d).fill(0);
  for (let b = 0; b < batch; b++)
    for (let i = 0; i < r; i++)
      for (let j = 0; j < d; j++) {
        let s = 0;
        for (let k = 0; k < c; k++) s += x[b * r * c + i * c + k] * y[b * c * d + k * d + j];
        out[b * r * d + i * d + j] = s;
      }
  return out;
}

function transpose(x, batch, r, c) {
  const out = new Array(x.length);
  for (let b = 0; b < batch; b++)
    for (let i = 0; i < r; i++)
      for (let j = 0; j < c; j++) out[b * r * c + j * r + i] = x[b * r * c + i * c + j];
  return out;
}

function eye(batch, n) {
  return Array.from({ length: batch * n * n }, (_, k) => (Math.floor(k / n) % n === k % n ? 1 : 0));
}

test("eigh: eigenvalues ascending and eigenvectors match NumPy (numpy.linalg and lax.linalg)", async () => {
  for (const c of data.eigh) {
    const shape = c.a.shape;
    const n = shape.at(-1);
    const batch = c.a.data.length / (n * n);
    const tol = c.dtype === "float64" ? 1e-10 : 2e-5;
    const a = arr(c.a, c.dtype);
    const [w, v] = np.linalg.eigh(a);
    assert.deepEqual(w.shape, [...shape.slice(0, -1)]);
    assert.equal(w.dtype, c.dtype);
    const [vl, wl] = ox.lax.linalg.eigh(a);
    const wv = await take(w);
    const vv = await take(v);
    close(wv, c.w.data, tol, `eigh w ${shape}`);
    close(await take(wl), c.w.data, tol, `lax eigh w ${shape}`);
    const s = signs(c.v.data, vv, n, n, batch, true);
    close(applySigns(vv, s, n, n, true), c.v.data, c.dtype === "float64" ? 1e-9 : 2e-4, "v");
    close(await take(vl), vv, 0, `lax eigh v ${shape}`);
    // v diag(w) vᵀ = a and vᵀ v = I.
    const vw = vv.map((x, k) => x * wv[Math.floor(k / (n * n)) * n + (k % n)]);
    close(matmul(vw, transpose(vv, batch, n, n), batch, n, n, n), c.a.data, tol * 4, "v w vᵀ");
    close(matmul(transpose(vv, batch, n, n), vv, batch, n, n, n), eye(batch, n), tol * 4, "vᵀv");
    const e = np.linalg.eigvalsh(a);
    close(await take(e), c.w.data, tol, `eigvalsh ${shape}`);
    a.dispose();
  }
});

test("eigh: repeated eigenvalues, one triangle (UPLO, symmetrizeInput false, lower)", async () => {
  const a = arr(data.degenerate.a);
  const [w, v] = np.linalg.eigh(a);
  close(await take(w), data.degenerate.w.data, 2e-5, "repeated w");
  const vv = await take(v);
  close(matmul(transpose(vv, 1, 3, 3), vv, 1, 3, 3, 3), eye(1, 3), 1e-5, "vᵀv");
  a.dispose();
  const t = arr(data.triangle.a);
  const opts = (UPLO) => ({ UPLO, symmetrizeInput: false });
  close(await take(np.linalg.eigvalsh(t, opts("L"))), data.triangle.wL.data, 2e-5, "UPLO L");
  close(await take(np.linalg.eigvalsh(t, opts("U"))), data.triangle.wU.data, 2e-5, "UPLO U");
  const [vu, wu] = ox.lax.linalg.eigh(t, { lower: false, symmetrizeInput: false });
  vu.dispose();
  close(await take(wu), data.triangle.wU.data, 2e-5, "lax lower=false");
  t.dispose();
});

test("svd: singular values descending, u and vh match NumPy (full and reduced)", async () => {
  for (const c of data.svd) {
    const shape = c.a.shape;
    const [m, n] = shape.slice(-2);
    const k = Math.min(m, n);
    const batch = c.a.data.length / (m * n);
    const tol = c.dtype === "float64" ? 1e-10 : 2e-5;
    const a = arr(c.a, c.dtype);
    const [u, s, vh] = np.linalg.svd(a);
    assert.deepEqual(u.shape, [...shape.slice(0, -2), m, m]);
    assert.deepEqual(vh.shape, [...shape.slice(0, -2), n, n]);
    const [uv, sv, vhv] = [await take(u), await take(s), await take(vh)];
    close(sv, c.s.data, tol, `s ${shape}`);
    close(await take(np.linalg.svdvals(a)), c.s.data, tol, `svdvals ${shape}`);
    close(await take(ox.lax.linalg.svd(a, { computeUv: false })), c.s.data, tol, `lax s ${shape}`);
    // Orthonormal factors.
    close(matmul(transpose(uv, batch, m, m), uv, batch, m, m, m), eye(batch, m), tol * 4, "uᵀu");
    close(matmul(vhv, transpose(vhv, batch, n, n), batch, n, n, n), eye(batch, n), tol * 4, "vvᵀ");
    // The first k columns of u and rows of vh, signs aligned pairwise with NumPy's.
    const su = signs(c.u.data, uv, m, m, batch, true);
    const vtol = c.dtype === "float64" ? 1e-9 : 2e-4;
    for (let b = 0; b < batch; b++)
      for (let j = 0; j < k; j++)
        for (let i = 0; i < m; i++) {
          const idx = b * m * m + i * m + j;
          assert.ok(Math.abs(uv[idx] * su[b][j] - c.u.data[idx]) < vtol, `u ${shape} ${idx}`);
        }
    for (let b = 0; b < batch; b++)
      for (let j = 0; j < k; j++)
        for (let i = 0; i < n; i++) {
          const idx = b * n * n + j * n + i;
          assert.ok(Math.abs(vhv[idx] * su[b][j] - c.vh.data[idx]) < vtol, `vh ${shape} ${idx}`);
        }
    // Reduced factors: u [m, k], vh [k, n], reconstructing a.
    const [ur, sr, vr] = ox.lax.linalg.svd(a, { fullMatrices: false });
    assert.deepEqual(ur.shape, [...shape.slice(0, -2), m, k]);
    assert.deepEqual(vr.shape, [...shape.slice(0, -2), k, n]);
    const srv = await take(sr);
    const us = (await take(ur)).map((x, idx) => x * srv[Math.floor(idx / (m * k)) * k + (idx % k)]);
    close(matmul(us, await take(vr), batch, m, k, n), c.a.data, tol * 4, `u s vh ${shape}`);
    a.dispose();
  }
});

test("svd of a rank-deficient matrix: orthonormal u, zero singular value", async () => {
  const a = arr(data.rankDeficient.a);
  const [u, s, vh] = np.linalg.svd(a);
  const [uv, sv, vhv] = [await take(u), await take(s), await take(vh)];
  close(sv.slice(0, 2), data.rankDeficient.s.data.slice(0, 2), 2e-5, "s");
  assert.ok(Math.abs(sv[2]) < 1e-5 * sv[0], `third singular value ${sv[2]}`);
  close(matmul(transpose(uv, 1, 4, 4), uv, 1, 4, 4, 4), eye(1, 4), 1e-5, "uᵀu");
  close(matmul(vhv, transpose(vhv, 1, 3, 3), 1, 3, 3, 3), eye(1, 3), 1e-5, "vvᵀ");
  a.dispose();
});

test("eigh and svd under jit and vmap agree with eager", async () => {
  // jit compiles the sweeps into a program of many small kernels: a 2×2 matrix keeps it short.
  const two = data.eigh[1];
  const a2 = arr(two.a);
  const f = ox.jit((x) => np.linalg.eigvalsh(x));
  close(await take(f(a2)), two.w.data, 2e-5, "jit eigvalsh");
  f.dispose();
  a2.dispose();
  const c = data.eigh[5]; // [2, 3, 3]
  const a = arr(c.a);
  const g = ox.vmap((x) => np.linalg.svdvals(x));
  const eager = np.linalg.svdvals(a);
  close(await take(g(a)), await take(eager), 1e-6, "vmap svdvals");
  a.dispose();
});

const f64 = (e) => np.array(e.data, { shape: e.shape, dtype: "float64", device: "cpu" });

test("gradients match JAX: eigvalsh, eigh (sign-invariant), svdvals, svd (reduced)", async () => {
  for (const c of data.grads) {
    if (c.fn === "eigvalsh hessian") continue;
    const a = f64(c.a);
    const cc = f64(c.c);
    const extra = ["m", "mu", "mv"].filter((k) => c[k]).map((k) => f64(c[k]));
    const fn = (x) => {
      const made = [];
      const k = (y) => (made.push(y), y);
      try {
        if (c.fn === "eigvalsh") return np.sum(k(np.linalg.eigvalsh(x)).mul(cc));
        if (c.fn === "svdvals") return np.sum(k(np.linalg.svdvals(x)).mul(cc));
        if (c.fn === "eigh") {
          const [w, v] = np.linalg.eigh(x).map(k);
          const t1 = k(np.sum(k(w.mul(cc))));
          return t1.add(k(np.sum(k(k(v.mul(v)).mul(extra[0])))));
        }
        const [u, s, vh] = np.linalg.svd(x, { fullMatrices: false }).map(k);
        const t1 = k(np.sum(k(s.mul(cc))));
        const t2 = k(np.sum(k(k(u.mul(u)).mul(extra[0]))));
        const t3 = k(np.sum(k(k(vh.mul(vh)).mul(extra[1]))));
        return k(t1.add(t2)).add(t3);
      } finally {
        for (const y of made) y.dispose();
      }
    };
    close(await take(ox.grad(fn)(a)), c.grad.data, 1e-7, `grad ${c.fn} ${c.a.shape}`);
    for (const x of [a, cc, ...extra]) x.dispose();
  }
});

test("the second derivative of eigvalsh matches JAX's hessian", async () => {
  const c = data.grads.find((g) => g.fn === "eigvalsh hessian");
  const a = f64(c.a);
  const cc = f64(c.c);
  const flat = a.reshape([9]);
  const h = ox.hessian((x9) => {
    const x = x9.reshape([3, 3]);
    const w = np.linalg.eigvalsh(x);
    x.dispose();
    try {
      const p = w.mul(cc);
      try {
        return np.sum(p);
      } finally {
        p.dispose();
      }
    } finally {
      w.dispose();
    }
  })(flat);
  close(await take(h), c.hessian.data, 1e-6, "hessian");
  flat.dispose();
  a.dispose();
  cc.dispose();
});

test("eigh and svd reject bad input with errors naming the function", async () => {
  const v = np.zeros([3]);
  const r = np.zeros([2, 3]);
  assert.match(errorMessage(() => np.linalg.eigh(r)).message, /^eigh: .*square/);
  assert.match(errorMessage(() => np.linalg.eigvalsh(v)).message, /^eigvalsh: .*rank/);
  assert.match(errorMessage(() => np.linalg.svd(v)).message, /^svd: .*rank/);
  assert.match(errorMessage(() => np.linalg.eigh(r, "X")).message, /^eigh: UPLO/);
  assert.match(errorMessage(() => ox.lax.linalg.svd(r, { bad: 1 })).message, /^svd: unknown/);
  const empty = np.zeros([2, 0, 3]);
  assert.match(errorMessage(() => np.linalg.svd(empty)).message, /^svd: .*zero dimension/);
  const none = np.zeros([0, 0]);
  const [w0, v0] = np.linalg.eigh(none);
  assert.deepEqual([w0.shape, v0.shape], [[0], [0, 0]]);
  for (const x of [v, r, empty, none, w0, v0]) x.dispose();
});
