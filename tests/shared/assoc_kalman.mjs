// The associativeScan Kalman-style loss of seed case 4 (dlm-js builds its filters this way):
// `n` steps of an `m`-state model composed by `lax.associativeScan`, loss = Σ b + Σ S. Shared by
// tests/api/scan-soak.test.mjs (the plateau) and tests/api/jit_code_size.test.mjs (the cost
// of compiling its gradient).
import { kalmanCompose } from "./scan_bodies.mjs";

/** A fresh loss closure (and fresh constant arrays on `device`), as dlmMLE makes them. */
export function makeAssocLoss(ox, n, m, device = "wasm") {
  const np = ox.numpy;
  const G = np.eye(m, undefined, { device });
  const U = np.ones([n, m, 1], { device });
  const compose = kalmanCompose(np);
  const loss = (theta) => {
    const gp = G.mul(theta);
    const A = np.broadcastTo(gp, [n, m, m]);
    const b = U.mul(theta);
    const out = ox.lax.associativeScan(compose, { A, b, S: A });
    const s1 = np.sum(out.b);
    const s2 = np.sum(out.S);
    const r = s1.add(s2);
    ox.tree.dispose([gp, A, b, out, s1, s2]);
    return r;
  };
  return { loss, dispose: () => ox.tree.dispose([G, U]) };
}
