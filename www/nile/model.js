// The local level model y_t = mu_t + eps_t, mu_{t+1} = mu_t + eta_t (diffuse initial level)
// written with oxjax arrays: the Kalman filter and RTS smoother as prefix scans with an
// associative operator (Särkkä & García-Fernández 2021, "Temporal parallelization of Bayesian
// smoothers"), and the same filter and smoother as sequential `lax.scan` loops. All math runs on
// the device; intermediates are released with `using` so eager runs do not leak.
import { ox } from "../compute.js";

const np = ox.numpy;

/** Filtering elements (A, b, C, eta, J) of the local level model; the first observation is exact. */
function filterElements(y, se, sn) {
  const n = y.shape[0];
  using idx = np.arange(n);
  using first = idx.equal(0);
  using S = sn.add(se);
  using K = sn.div(S);
  using oneMinusK = np.subtract(1, K);
  using Ky = K.mul(y);
  using Cr = oneMinusK.mul(sn);
  using yS = y.div(S);
  using invS = np.reciprocal(S);
  return {
    A: np.where(first, 0, oneMinusK),
    b: np.where(first, y, Ky),
    C: np.where(first, se, Cr),
    eta: np.where(first, 0, yS),
    J: np.where(first, 0, invS),
  };
}

/** (a ⊗ b) for filtering elements, a earlier in time than b (scalar state, so no matrices). */
function filterCombine(a, b) {
  using cj = a.C.mul(b.J);
  using den = cj.add(1);
  using AjD = b.A.div(den);
  using AiD = a.A.div(den);
  using ce = a.C.mul(b.eta);
  using bce = a.b.add(ce);
  using t1 = AjD.mul(bce);
  using t2 = AjD.mul(a.C);
  using t3 = t2.mul(b.A);
  using jb = b.J.mul(a.b);
  using e1 = b.eta.sub(jb);
  using t4 = AiD.mul(e1);
  using t5 = AiD.mul(b.J);
  using t6 = t5.mul(a.A);
  return {
    A: AjD.mul(a.A),
    b: t1.add(b.b),
    C: t3.add(b.C),
    eta: t4.add(a.eta),
    J: t6.add(a.J),
  };
}

/** (later, earlier) ↦ earlier ⊗ later for smoothing elements (E, g, L), as a reverse scan calls it. */
function smoothCombine(later, earlier) {
  using eg = earlier.E.mul(later.g);
  using e2 = earlier.E.mul(earlier.E);
  using el = e2.mul(later.L);
  return {
    E: earlier.E.mul(later.E),
    g: eg.add(earlier.g),
    L: el.add(earlier.L),
  };
}

/** Variances from the log-parameters theta = [log σ²_ε, log σ²_η]. */
export function variances(theta) {
  using s0 = theta.slice(0);
  using s1 = theta.slice(1);
  return { se: np.exp(s0), sn: np.exp(s1) };
}

/** Filtered means and variances by an associative scan (`scan` is lax.associativeScan). */
export function filterParallel(scan, y, se, sn) {
  const elems = filterElements(y, se, sn);
  try {
    const out = scan(filterCombine, elems);
    for (const k of ["A", "eta", "J"]) out[k].dispose();
    return { m: out.b, P: out.C };
  } finally {
    for (const k in elems) elems[k].dispose();
  }
}

/** Smoothed means and variances from filtered ones by a reverse associative scan. */
export function smoothParallel(scan, m, P, sn) {
  const n = m.shape[0];
  using idx = np.arange(n);
  using last = idx.equal(n - 1);
  using pp = P.add(sn);
  using gain = P.div(pp);
  const E = np.where(last, 0, gain);
  using oneMinusE = np.subtract(1, E);
  const elems = { E, g: m.mul(oneMinusE), L: P.mul(oneMinusE) };
  try {
    const out = scan(smoothCombine, elems, { reverse: true });
    out.E.dispose();
    return { ms: out.g, Ps: out.L };
  } finally {
    for (const k in elems) elems[k].dispose();
  }
}

/** Minus the diffuse log-likelihood (prediction error decomposition over t = 2..n). */
export function negLogLik(scan, theta, y) {
  const n = y.shape[0];
  const { se, sn } = variances(theta);
  const { m, P } = filterParallel(scan, y, se, sn);
  using mPrev = m.slice([0, n - 1]);
  using pPrev = P.slice([0, n - 1]);
  using yNext = y.slice([1, n]);
  using pp = pPrev.add(sn);
  using F = pp.add(se);
  using v = yNext.sub(mPrev);
  using v2 = v.mul(v);
  using r = v2.div(F);
  using logF = np.log(F);
  using terms = logF.add(r);
  using total = terms.sum();
  using half = total.mul(0.5);
  [se, sn, m, P].forEach((a) => a.dispose());
  return half.add(0.5 * (n - 1) * Math.log(2 * Math.PI));
}

/**
 * Runs `step` ([mean, variance], x) ↦ [mean, variance] as a lax.scan from `init` over `xs`, and
 * returns the two series with `init` at their start (at their end when `reverse`).
 */
function scanPair(scan, step, init, xs, reverse = false) {
  const [carry, ys] = scan(
    (c, x) => {
      const out = step(c, x);
      return [out, out];
    },
    init,
    xs,
    { reverse },
  );
  ox.tree.dispose(carry);
  return ys.map((series, k) => {
    using flat = series.reshape([series.shape[0]]);
    series.dispose();
    return np.concatenate(reverse ? [flat, init[k]] : [init[k], flat]);
  });
}

/** Kalman filter as a sequential lax.scan: filtered means and variances. */
export function filterScan(scan, y, se, sn) {
  const n = y.shape[0];
  using m0 = y.slice([0, 1]);
  using P0 = se.reshape([1]);
  using rest = y.slice([1, n]);
  const step = ([m, P], yt) => {
    using pp = P.add(sn);
    using F = pp.add(se);
    using K = pp.div(F);
    using v = yt.sub(m);
    using Kv = K.mul(v);
    using oneMinusK = np.subtract(1, K);
    return [m.add(Kv), pp.mul(oneMinusK)];
  };
  const [m, P] = scanPair(scan, step, [m0, P0], rest);
  return { m, P };
}

/** RTS smoother as a reverse lax.scan over the filtered means and variances. */
export function smoothScan(scan, m, P, sn) {
  const n = m.shape[0];
  using mLast = m.slice([n - 1, n]);
  using PLast = P.slice([n - 1, n]);
  using mHead = m.slice([0, n - 1]);
  using PHead = P.slice([0, n - 1]);
  const step = ([msNext, PsNext], [mt, Pt]) => {
    using pp = Pt.add(sn);
    using g = Pt.div(pp);
    using dm = msNext.sub(mt);
    using gdm = g.mul(dm);
    using dP = PsNext.sub(pp);
    using g2 = g.mul(g);
    using g2dP = g2.mul(dP);
    return [mt.add(gdm), Pt.add(g2dP)];
  };
  using mCol = mHead.reshape([n - 1, 1]);
  using PCol = PHead.reshape([n - 1, 1]);
  const [ms, Ps] = scanPair(scan, step, [mLast, PLast], [mCol, PCol], true);
  return { ms, Ps };
}
