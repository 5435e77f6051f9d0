// The scan bodies of bench/README.md's cases (dlm-js's uses), written once for every test layer
// that runs them (Node, Deno):
// the Kalman-element composition of `lax.associativeScan` and the RTS-style smoother step of
// a reverse `lax.scan`. Intermediates are freed here; only returned arrays stay alive.

/** The Kalman element composition (A₂A₁, A₂b₁ + b₂, A₂S₁A₂ᵀ + S₂) over stacked elements. */
export function kalmanCompose(np) {
  return (a, b) => {
    const A = np.matmul(b.A, a.A);
    const ab = np.matmul(b.A, a.b);
    const bb = ab.add(b.b);
    const aS = np.matmul(b.A, a.S);
    const At = np.matrixTranspose(b.A);
    const asa = np.matmul(aS, At);
    const S = asa.add(b.S);
    for (const x of [At, ab, aS, asa]) x.dispose();
    return { A, b: bb, S };
  };
}

/** The RTS-style step: r' = Aᵀ·r + b, N' = Aᵀ·N·A + S; ys = r'. */
export function rtsStep(np) {
  return (c, e) => {
    const At = np.matrixTranspose(e.A);
    const atr = np.matmul(At, c.r);
    const r = atr.add(e.b);
    const atn = np.matmul(At, c.N);
    const atna = np.matmul(atn, e.A);
    const N = atna.add(e.S);
    for (const x of [At, atr, atn, atna]) x.dispose();
    return [{ r, N }, r];
  };
}

/**
 * The Gaussian loss of the Deno scan tests over constant arrays G [m,m], U [n,m,1],
 * Y [n,m] and eye [m,m]: elements (G·φ, U·q, I·q²) for θ = [φ, q] composed by
 * `associativeScan`, v = diag(S) + 0.5, loss = mean over n of Σ (y − b)²/v + log v.
 */
export function makeAssocNll(ox, { G, U, Y, eye }, n, m) {
  const np = ox.numpy;
  const compose = kalmanCompose(np);
  return (theta) => {
    const phi = theta.slice(0);
    const q = theta.slice(1);
    const gp = G.mul(phi);
    const A = np.broadcastTo(gp, [n, m, m]);
    const b = U.mul(q);
    const eq = eye.mul(q);
    const eqq = eq.mul(q);
    const S = np.broadcastTo(eqq, [n, m, m]);
    const out = ox.lax.associativeScan(compose, { A, b, S });
    const diag = np.diagonal(out.S, 0, 1, 2);
    const v = diag.add(0.5);
    const flat = out.b.reshape([n, m]);
    const resid = Y.sub(flat);
    const r2 = resid.mul(resid);
    const t1 = r2.div(v);
    const lv = np.log(v);
    const terms = t1.add(lv);
    const total = np.sum(terms);
    const loss = total.div(n);
    ox.tree.dispose([phi, q, gp, A, b, eq, eqq, S, out, diag, v, flat, resid, r2, t1, lv]);
    ox.tree.dispose([terms, total]);
    return loss;
  };
}
