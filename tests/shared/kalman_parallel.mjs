// The seeds' workload, written once for the Node tests, the Deno tests and
// bench/kalman.ts: the exact parallel Kalman filter and RTS smoother of Särkkä &
// García-Fernández (2021, "Temporal parallelization of Bayesian smoothers", Lemmas 1–2 and the
// smoother elements) for a linear-Gaussian model with a scalar observation,
//   x_k = F x_{k-1} + w, w ~ N(0, Q);  y_k = H x_k + v, v ~ N(0, R);  x_0 ~ N(m0, P0),
// its log-likelihood by the prediction-error decomposition, and its maximum-likelihood fit
// by Adam on `jit(valueAndGrad(loss))`, as the client (dlm-js) runs it. Also the float64
// JavaScript oracle (a sequential Kalman filter and RTS smoother for any state dimension m)
// and the same filter as a sequential `lax.scan`.
//
// Model (`dlmModel`): dlm-js's local level (m = 1), local linear trend (m = 2) and local
// linear trend plus a full seasonal component (m = 3..5).
// Parameters θ = log of (observation std, m process stds): R = exp(2θ₀), Q = diag(exp(2θ₁..ₘ)),
// m + 1 parameters as the client estimates them.
//
// Arrays: states are columns [n, m, 1], covariances [n, m, m], observations [n, 1, 1]. Every
// builder takes the library namespace (`ox`: oxjax, or the same API), frees its own
// intermediates (non-consuming ownership: only returned arrays stay alive) and runs eagerly,
// under `jit`, `grad` and `vmap` alike.
import { rng } from "./rng.mjs";
import { scoped } from "./scoped.mjs";

const LOG_2PI = Math.log(2 * Math.PI);

// ---------------------------------------------------------------------------------------------
// The model and its data (plain JS numbers).

/**
 * dlm-js's model of state dimension m (its `dlmGenSys`): m = 1 the local level, m = 2 the local
 * linear trend (F the Jordan block [[1, 1], [0, 1]]), m = 3..5 the local linear trend plus a
 * full seasonal block of season length m − 1 (companion form: first row −1, subdiagonal 1);
 * H picks the level and the current season. `n` deterministic observations (a slow trend, a
 * seasonal pattern and noise from `rng(seed)`), the prior, and a starting θ.
 */
export function dlmModel(m, n, seed = 1) {
  const trend = Math.min(m, 2);
  const season = m - trend; // seasonal states: season length season + 1
  const F = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m }, (_, j) => {
      if (i < trend) return j === i || (j === i + 1 && j < trend) ? 1 : 0;
      if (j < trend) return 0;
      return i === trend ? -1 : j === i - 1 ? 1 : 0;
    }),
  );
  const H = Array.from({ length: m }, (_, j) => (j === 0 || (j === trend && season > 0) ? 1 : 0));
  const r = rng(seed);
  const pattern = [1.2, -0.7, 0.4, -0.9];
  const ys = Array.from(
    { length: n },
    (_, k) =>
      5 +
      0.03 * k +
      1.5 * Math.sin(0.2 * k) +
      (season > 0 ? pattern[k % (season + 1)] : 0) +
      1.2 * r() +
      0.4 * r(),
  );
  const head = ys.slice(0, Math.min(n, 12));
  const mean = head.reduce((s, v) => s + v, 0) / head.length;
  const m0 = Array.from({ length: m }, (_, i) => (i === 0 ? mean : 0));
  // The client's prior variance is (|mean| / 2)²; a fixed 4 keeps float32 well conditioned.
  const P0 = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m }, (_, j) => (i === j ? 4 : 0)),
  );
  const stds = [0.3, 0.05, 0.2, 0.1, 0.1];
  const theta0 = [Math.log(0.6), ...stds.slice(0, m).map(Math.log)];
  return { m, n, F, H, m0, P0, ys, theta0 };
}

// ---------------------------------------------------------------------------------------------
// The float64 oracle: a sequential Kalman filter and RTS smoother in plain JavaScript.

const mm = (A, B) =>
  A.map((row) => B[0].map((_, k) => row.reduce((s, a, j) => s + a * B[j][k], 0)));
const tr = (A) => A[0].map((_, j) => A.map((row) => row[j]));
const add = (A, B, s = 1) => A.map((row, i) => row.map((a, j) => a + s * B[i][j]));
const col = (v) => v.map((x) => [x]);

/** The inverse of a small square matrix, Gauss–Jordan with partial pivoting. */
export function invJs(A) {
  const n = A.length;
  const M = A.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    const d = M[c][c];
    for (let j = 0; j < 2 * n; j++) M[c][j] /= d;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c];
      for (let j = 0; j < 2 * n; j++) M[r][j] -= f * M[c][j];
    }
  }
  return M.map((row) => row.slice(n));
}

/** Q and R of θ, in float64. */
export function noiseJs(m, theta) {
  const R = Math.exp(2 * theta[0]);
  const Q = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m }, (_, j) => (i === j ? Math.exp(2 * theta[1 + i]) : 0)),
  );
  return { Q, R };
}

/**
 * The sequential Kalman filter and RTS smoother of `model` at `theta`, in float64: filtered
 * means `ms` [n][m] and covariances `Ps` [n][m][m], the predicted ones (`mps`, `Pps`), the
 * innovation variances `S` and residuals `e`, the log-likelihood, and the smoothed means and
 * covariances (`sms`, `sPs`).
 */
export function kalmanOracle(model, theta) {
  const { m, F, H, ys } = model;
  const { Q, R } = noiseJs(m, theta);
  const Ht = col(H);
  const Hr = [H];
  const FT = tr(F);
  let x = col(model.m0);
  let P = model.P0;
  const out = { ms: [], Ps: [], mps: [], Pps: [], S: [], e: [], loglik: 0 };
  for (const y of ys) {
    const xp = mm(F, x);
    const Pp = add(mm(mm(F, P), FT), Q);
    const S = mm(mm(Hr, Pp), Ht)[0][0] + R;
    const K = mm(Pp, Ht).map(([v]) => [v / S]);
    const e = y - mm(Hr, xp)[0][0];
    x = add(
      xp,
      K.map(([v]) => [v * e]),
    );
    P = add(Pp, mm(K, tr(K)), -S);
    out.loglik -= 0.5 * (LOG_2PI + Math.log(S) + (e * e) / S);
    out.ms.push(x.map(([v]) => v));
    out.Ps.push(P);
    out.mps.push(xp.map(([v]) => v));
    out.Pps.push(Pp);
    out.S.push(S);
    out.e.push(e);
  }
  const n = ys.length;
  const sms = new Array(n);
  const sPs = new Array(n);
  sms[n - 1] = out.ms[n - 1];
  sPs[n - 1] = out.Ps[n - 1];
  for (let k = n - 2; k >= 0; k--) {
    const G = mm(mm(out.Ps[k], FT), invJs(out.Pps[k + 1]));
    const dm = col(sms[k + 1].map((v, i) => v - out.mps[k + 1][i]));
    sms[k] = add(col(out.ms[k]), mm(G, dm)).map(([v]) => v);
    sPs[k] = add(out.Ps[k], mm(mm(G, add(sPs[k + 1], out.Pps[k + 1], -1)), tr(G)));
  }
  return { ...out, sms, sPs };
}

/** The float64 oracle's negative log-likelihood (the MLE loss) at `theta`. */
export function lossJs(model, theta) {
  return -kalmanOracle(model, theta).loglik;
}

// ---------------------------------------------------------------------------------------------
// The workload on arrays.

/**
 * The parallel filter, smoother, log-likelihood and MLE step of `model` on arrays of `ox`
 * (float32 by default, on `device` or the default device). `eps` regularises the batched
 * inverse of each composition, M = (I + C_i J_j + εI)⁻¹, as the client does: 1e-6 in float32
 * and 1e-12 in float64 (dlm-js's values). Returns the functions and `dispose()` for the
 * constant arrays they close over (F, H, m0, P0, y, …).
 */
export function parallelKalman(ox, model, { dtype = "float32", device, eps } = {}) {
  const np = ox.numpy;
  const lax = ox.lax;
  const { m, n } = model;
  const reg = eps ?? (dtype === "float64" ? 1e-12 : 1e-6);
  const dev = device === undefined ? {} : { device };
  const opts = { dtype, ...dev };
  const arr = (v, shape) => scoped((k) => k(np.array(v, opts)).reshape(shape));
  const c = {
    F: arr(model.F.flat(), [m, m]),
    FT: arr(model.F[0].map((_, j) => model.F.map((row) => row[j])).flat(), [m, m]),
    H: arr(model.H, [1, m]),
    HT: arr(model.H, [m, 1]),
    m0: arr(model.m0, [m, 1]),
    P0: arr(model.P0.flat(), [m, m]),
    y: arr(model.ys, [n, 1, 1]),
    I: np.eye(m, undefined, opts),
    // I + εI: the regularised identity of the compositions' inverse.
    Ireg: scoped((k) => k(np.eye(m, undefined, opts)).mul(1 + reg)),
    // The first element's mask [n, 1, 1] (k = 1 uses the prior) and the last one's.
    first: scoped((k) => k(k(np.arange(n, null, 1, dev)).equal(0)).reshape([n, 1, 1])),
    last: scoped((k) => k(k(np.arange(n, null, 1, dev)).equal(n - 1)).reshape([n, 1, 1])),
  };
  const mT = np.matrixTranspose;
  /** 0.5·(X + Xᵀ), freeing X. */
  const sym = (X) =>
    scoped((k) => {
      k(X);
      return k(X.add(k(mT(X)))).mul(0.5);
    });

  /** R [1, 1] and Q [m, m] of θ [m + 1]. */
  function noise(theta) {
    return scoped((k) => {
      const v = k(np.exp(k(theta.mul(2))));
      const R = k(v.slice([0, 1])).reshape([1, 1]);
      const Q = c.I.mul(k(v.slice([1, m + 1])));
      return { R, Q };
    });
  }

  /** The filtering elements (A, b, C, η, J) [n, …] of Lemma 1 (the first from the prior). */
  function filterElements(Q, R) {
    return scoped((k) => {
      const { F, FT, H, HT, y, I } = c;
      // k = 1: the prior's one-step update.
      const mp = k(np.matmul(F, c.m0));
      const Pp = k(k(np.matmul(k(np.matmul(F, c.P0)), FT)).add(Q));
      const S1 = k(k(np.matmul(k(np.matmul(H, Pp)), HT)).add(R));
      const K1 = k(k(np.matmul(Pp, HT)).div(S1));
      const y1 = k(k(y.slice([0, 1])).reshape([1, 1]));
      const e1 = k(y1.sub(k(np.matmul(H, mp))));
      const b1 = k(mp.add(k(np.matmul(K1, e1))));
      const C1 = k(Pp.sub(k(np.matmul(k(K1.mul(S1)), k(mT(K1))))));
      // k > 1: the same for every step but b and η, which scale with y_k.
      const S = k(k(np.matmul(k(np.matmul(H, Q)), HT)).add(R));
      const K = k(k(np.matmul(Q, HT)).div(S));
      const IKH = k(I.sub(k(np.matmul(K, H))));
      const A = k(np.matmul(IKH, F));
      const C = k(np.matmul(IKH, Q));
      const HF = k(np.matmul(H, F));
      const FtHt = k(mT(HF));
      const FtHtS = k(FtHt.div(S));
      const J = k(np.matmul(FtHtS, HF));
      const first = c.first;
      return {
        A: np.where(first, 0, k(np.broadcastTo(A, [n, m, m]))),
        b: np.where(first, b1, k(K.mul(y))),
        C: np.where(first, C1, k(np.broadcastTo(C, [n, m, m]))),
        eta: np.where(first, 0, k(FtHtS.mul(y))),
        J: np.where(first, 0, k(np.broadcastTo(J, [n, m, m]))),
      };
    });
  }

  /**
   * (a ⊗ b) of filtering elements, a earlier in time than b, batched over the leading axis:
   * M = (I + C_a J_b + εI)⁻¹ and N = (I + J_b C_a)⁻¹ by the push-through identity
   * N = I − J_b M C_a (one batched inverse per composition, as the client); C and J are
   * symmetrised.
   */
  function compose(a, b) {
    return scoped((k) => {
      const M = k(np.linalg.inv(k(c.Ireg.add(k(np.matmul(a.C, b.J))))));
      const AM = k(np.matmul(b.A, M));
      const A = np.matmul(AM, a.A);
      const bb = k(np.matmul(AM, k(a.b.add(k(np.matmul(a.C, b.eta)))))).add(b.b);
      const C = sym(k(np.matmul(k(np.matmul(AM, a.C)), k(mT(b.A)))).add(b.C));
      const N = k(c.I.sub(k(np.matmul(b.J, k(np.matmul(M, a.C))))));
      const AaT = k(mT(a.A));
      const eta = k(np.matmul(AaT, k(np.matmul(N, k(b.eta.sub(k(np.matmul(b.J, a.b)))))))).add(
        a.eta,
      );
      const J = sym(k(np.matmul(AaT, k(np.matmul(k(np.matmul(N, b.J)), a.A)))).add(a.J));
      return { A, b: bb, C, eta, J };
    });
  }

  /** Filtered means [n, m, 1] and covariances [n, m, m] by `lax.associativeScan`. */
  function filterMoments(Q, R) {
    const elems = filterElements(Q, R);
    const out = lax.associativeScan(compose, elems);
    ox.tree.dispose([elems, out.A, out.eta, out.J]);
    return { m: out.b, P: out.C };
  }

  /** Predicted means and covariances of every step (k = 1 from the prior, then shifted). */
  function predicted(f, Q) {
    return scoped((k) => {
      const prevM = k(np.concatenate([k(c.m0.reshape([1, m, 1])), k(f.m.slice([0, n - 1]))]));
      const prevP = k(np.concatenate([k(c.P0.reshape([1, m, m])), k(f.P.slice([0, n - 1]))]));
      return {
        mp: np.matmul(c.F, prevM),
        Pp: k(np.matmul(k(np.matmul(c.F, prevP)), c.FT)).add(Q),
      };
    });
  }

  /** −½ Σ (log 2π + log S_k + e_k² / S_k), vectorised over k. */
  function loglikOf(p, R) {
    return scoped((k) => {
      const S = k(k(np.matmul(k(np.matmul(c.H, p.Pp)), c.HT)).add(R));
      const e = k(c.y.sub(k(np.matmul(c.H, p.mp))));
      const terms = k(k(k(np.log(S)).add(k(k(e.mul(e)).div(S)))).add(LOG_2PI));
      return k(np.sum(terms)).mul(-0.5);
    });
  }

  /** (later, earlier) ↦ earlier ⊗ later of smoothing elements, as the reverse scan calls it. */
  function combine(later, earlier) {
    return scoped((k) => {
      const E = np.matmul(earlier.E, later.E);
      const g = k(np.matmul(earlier.E, later.g)).add(earlier.g);
      const ELE = k(np.matmul(k(np.matmul(earlier.E, later.L)), k(mT(earlier.E))));
      return { E, g, L: sym(k(ELE.add(earlier.L))) };
    });
  }

  /** Smoothed means and covariances from the filtered and predicted ones (reverse scan). */
  function smoothMoments(f, p) {
    return scoped((k) => {
      // E_k = P_k Fᵀ (P⁻_{k+1})⁻¹ for k < n; the last row's E is masked to 0 (its P⁻ is a
      // stand-in that keeps the inverse finite).
      const next = k(np.concatenate([k(p.Pp.slice([1, n])), k(p.Pp.slice([n - 1, n]))]));
      const Efull = k(np.matmul(k(np.matmul(f.P, c.FT)), k(np.linalg.inv(next))));
      const E = k(np.where(c.last, 0, Efull));
      const EF = k(np.matmul(E, c.F));
      const g = k(f.m.sub(k(np.matmul(EF, f.m))));
      const L = k(f.P.sub(k(np.matmul(EF, f.P))));
      const out = lax.associativeScan(combine, { E, g, L }, { reverse: true });
      out.E.dispose();
      return { ms: out.g, Ps: out.L };
    });
  }

  /** The log-likelihood at θ by the parallel filter. */
  function loglik(theta) {
    const { Q, R } = noise(theta);
    const f = filterMoments(Q, R);
    const p = predicted(f, Q);
    const ll = loglikOf(p, R);
    ox.tree.dispose([Q, R, f, p]);
    return ll;
  }

  /** The MLE loss: −loglik(θ). */
  function loss(theta) {
    return scoped((k) => k(loglik(theta)).neg());
  }

  /**
   * The single filter + smoother call (the client's dlmFit): filtered and smoothed means and
   * covariances and the log-likelihood.
   */
  function filterSmoother(theta) {
    const { Q, R } = noise(theta);
    const f = filterMoments(Q, R);
    const p = predicted(f, Q);
    const ll = loglikOf(p, R);
    const s = smoothMoments(f, p);
    ox.tree.dispose([Q, R, p]);
    return { m: f.m, P: f.P, ms: s.ms, Ps: s.Ps, loglik: ll };
  }

  /** The same log-likelihood by a sequential `lax.scan` filter (one step per observation). */
  function loglikScan(theta) {
    const { Q, R } = noise(theta);
    const step = (carry, y) =>
      scoped((k) => {
        const { F, FT, H, HT } = c;
        const mp = k(np.matmul(F, carry.m));
        const Pp = k(k(np.matmul(k(np.matmul(F, carry.P)), FT)).add(Q));
        const S = k(k(np.matmul(k(np.matmul(H, Pp)), HT)).add(R));
        const K = k(k(np.matmul(Pp, HT)).div(S));
        const e = k(y.sub(k(np.matmul(H, mp))));
        const mNew = mp.add(k(np.matmul(K, e)));
        const PNew = Pp.sub(k(np.matmul(k(K.mul(S)), k(mT(K)))));
        const term = k(k(k(np.log(S)).add(k(k(e.mul(e)).div(S)))).add(LOG_2PI));
        return [{ m: mNew, P: PNew }, term.reshape([])];
      });
    const [carry, terms] = lax.scan(step, { m: c.m0, P: c.P0 }, c.y);
    const ll = scoped((k) => k(np.sum(terms)).mul(-0.5));
    ox.tree.dispose([Q, R, carry, terms]);
    return ll;
  }

  return {
    consts: c,
    noise,
    filterElements,
    compose,
    combine,
    filterMoments,
    loglik,
    loss,
    filterSmoother,
    loglikScan,
    dispose: () => ox.tree.dispose(c),
  };
}

/**
 * The client's MLE step: `jit((θ, state) => valueAndGrad(loss)(θ), Adam update, θ + updates)`
 * with optax's Adam (b2 = 0.9 as dlm-js). `step(theta, state)` returns
 * `[newTheta, newState, lossValue]` and leaves its arguments alive (the caller frees them);
 * `init(theta)` is the optimiser state.
 */
export function mleStep(ox, optax, loss, { lr = 0.05 } = {}) {
  const optimizer = optax.adam(lr, { b2: 0.9 });
  const step = ox.jit((theta, state) => {
    const [value, grad] = ox.valueAndGrad(loss)(theta);
    const [updates, next] = optimizer.update(grad, state);
    const newTheta = optax.applyUpdates(theta, updates);
    ox.tree.dispose([grad, updates]);
    return [newTheta, next, value];
  });
  return { step, init: (theta) => optimizer.init(theta) };
}

/**
 * The fit loop as the client runs it, from `model.theta0` on `device`: `iterate()` takes one
 * `mleStep` step (θ and the optimiser state replaced, the old ones disposed) and resolves to
 * the loss read back; `theta` is the current θ; `dispose()` frees θ, the state and the step.
 */
export function mleLoop(ox, optax, model, loss, { device, lr = 0.05 } = {}) {
  const mle = mleStep(ox, optax, loss, { lr });
  let theta = ox.numpy.array(model.theta0, { device });
  let state = mle.init(theta);
  return {
    get theta() {
      return theta;
    },
    async iterate() {
      const [t2, s2, value] = mle.step(theta, state);
      ox.tree.dispose([theta, state]);
      theta = t2;
      state = s2;
      const v = (await value.data())[0];
      value.dispose();
      return v;
    },
    dispose() {
      ox.tree.dispose([theta, state]);
      mle.step.dispose();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Checking helpers of the tests.

/**
 * The tests' tolerances (normwise for moments; `tol · (1 + |want|)` for the log-likelihood, the
 * loss and each gradient entry), from the errors observed at n = 40..50 (tests/api/
 * kalman-parallel.test.mjs's header has the numbers).
 */
export const TOLERANCES = {
  float64: { moments: 1e-10, loglik: 1e-10, grad: 1e-7 },
  float32: { moments: 1e-3, loglik: 2e-5, grad: 1e-3 },
};

/** The largest |got − want| over max|want| (normwise relative error) of flat or nested data. */
export function normwiseError(got, want) {
  const w = [want].flat(Infinity);
  const g = Array.from(got);
  if (g.length !== w.length) throw new Error(`length ${g.length} vs ${w.length}`);
  const scale = Math.max(...w.map(Math.abs), 1e-30);
  return Math.max(...g.map((v, i) => Math.abs(v - w[i]))) / scale;
}

/** Central differences (step `h`) of the float64 oracle's loss at `model.theta0`. */
export function lossGradFd(model, h = 1e-5) {
  return model.theta0.map((t, i) => {
    const at = (d) => lossJs(model, model.theta0.with(i, t + d));
    return (at(h) - at(-h)) / (2 * h);
  });
}
