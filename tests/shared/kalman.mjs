// The Kalman-filter negative log-likelihood of the memory soaks, shared by
// tests/api/jit_soak.test.mjs and bench/soak.mjs: a local-level model with θ = [log q, log r],
// as array code (`makeKalmanLoss`) and in float64 JavaScript (`kalmanNllJs`, the oracle). Also
// the float64 oracle of the two-state filter of tests/api/scan-nested.test.mjs and
// bench/scan.mjs (`kalman2LogLikJs`).

/** `T` deterministic observations. */
export function kalmanObservations(T) {
  return Array.from({ length: T }, (_, t) => Math.sin(t * 0.3) + 0.3 * Math.cos(t * 1.7));
}

/** The filter's negative log-likelihood of `ys` at `[lq, lr]`, in float64. */
export function kalmanNllJs(ys, [lq, lr]) {
  const [q, r] = [Math.exp(lq), Math.exp(lr)];
  let [m, P, nll] = [0, 1, 0];
  for (const y of ys) {
    const Pp = P + q;
    const S = Pp + r;
    const K = Pp / S;
    const v = y - m;
    nll += Math.log(S) + (v * v) / S;
    m += K * v;
    P = (1 - K) * Pp;
  }
  return nll;
}

/** The same filter on arrays of `np`; `y` holds `T` observations. A fresh closure per call. */
export function makeKalmanLoss(np, y, T) {
  return (theta) => {
    const q = np.exp(theta.slice(0));
    const r = np.exp(theta.slice(1));
    let m = np.array(0);
    let P = np.array(1);
    let nll = np.array(0);
    for (let t = 0; t < T; t++) {
      const Pp = P.add(q);
      const S = Pp.add(r);
      const K = Pp.div(S);
      const v = y.slice(t).sub(m);
      nll = nll.add(np.log(S)).add(v.mul(v).div(S));
      m = m.add(K.mul(v));
      P = np.subtract(1, K).mul(Pp);
    }
    return nll;
  };
}

/**
 * The log-likelihood of the two-state filter x' = F x, P' = F P Fᵀ + Q, y = x + noise (R) over
 * `ys` (each `[[y0], [y1]]`, in the order given), from x = 0, P = I, in float64.
 */
export function kalman2LogLikJs(ys, F, Q, R) {
  const mm = (A, B) =>
    A.map((row) => B[0].map((_, k) => row.reduce((s, a, j) => s + a * B[j][k], 0)));
  const tr = (A) => A[0].map((_, j) => A.map((row) => row[j]));
  const add = (A, B, s = 1) => A.map((row, i) => row.map((a, j) => a + s * B[i][j]));
  let x = [[0], [0]];
  let P = [
    [1, 0],
    [0, 1],
  ];
  let ll = 0;
  for (const y of ys) {
    const xp = mm(F, x);
    const Pp = add(mm(mm(F, P), tr(F)), Q);
    const S = add(Pp, R);
    const det = S[0][0] * S[1][1] - S[0][1] * S[1][0];
    const Si = [
      [S[1][1] / det, -S[0][1] / det],
      [-S[1][0] / det, S[0][0] / det],
    ];
    const v = add(y, xp, -1);
    ll -= 0.5 * (mm(mm(tr(v), Si), v)[0][0] + Math.log(det));
    const K = mm(Pp, Si);
    x = add(xp, mm(K, v));
    P = add(Pp, mm(mm(K, S), tr(K)), -1);
  }
  return ll;
}
