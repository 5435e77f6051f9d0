// lax.scan and lax.associativeScan on WebGPU in Deno, with the storage-buffer limit forced to 8
// and `using` everywhere in the bodies (returned values included): dlm-js's Kalman loss under
// valueAndGrad and jit(valueAndGrad), and an RTS-style reverse scan, against the wasm device.
// Nothing leaks.
import { init, jit, lax, memoryStats, numpy as np, tree, valueAndGrad } from "../../pkg/index.js";
import { rng } from "../shared/rng.mjs";

await init({ maxStorageBuffers: 8, smallOnHost: false });

type Elems = { A: np.Array; b: np.Array; S: np.Array };

function compose(a: Elems, b: Elems): Elems {
  using At = np.matrixTranspose(b.A);
  using A = np.matmul(b.A, a.A);
  using ab = np.matmul(b.A, a.b);
  using bb = ab.add(b.b);
  using as = np.matmul(b.A, a.S);
  using asa = np.matmul(as, At);
  using S = asa.add(b.S);
  return { A, b: bb, S };
}

function data(n: number, m: number) {
  const r = rng(7);
  const G = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m }, (_, j) => (i === j ? 0.9 : 0.1 * r())),
  );
  const U = Array.from({ length: n }, () => Array.from({ length: m }, () => [r()]));
  const Y = Array.from({ length: n }, () => Array.from({ length: m }, () => 2 * r()));
  return { G, U, Y };
}

function makeLoss(n: number, m: number, device: "wasm" | "webgpu") {
  const d = data(n, m);
  const G = np.array(d.G, { device });
  const U = np.array(d.U, { device });
  const Y = np.array(d.Y, { device });
  const eye = np.eye(m, undefined, { device });
  const loss = (theta: np.Array) => {
    using phi = theta.slice(0);
    using q = theta.slice(1);
    using gp = G.mul(phi);
    using A = np.broadcastTo(gp, [n, m, m]);
    using b = U.mul(q);
    using eq = eye.mul(q);
    using eqq = eq.mul(q);
    using S = np.broadcastTo(eqq, [n, m, m]);
    const out = lax.associativeScan(compose, { A, b, S }) as Elems;
    using oA = out.A;
    using oS = out.S;
    using ob = out.b;
    using diag = np.diagonal(oS, 0, 1, 2);
    using v = diag.add(0.5);
    using flat = ob.reshape([n, m]);
    using resid = Y.sub(flat);
    using r2 = resid.mul(resid);
    using t1 = r2.div(v);
    using lv = np.log(v);
    using terms = t1.add(lv);
    using total = np.sum(terms);
    return total.div(n);
  };
  return { loss, dispose: () => tree.dispose([G, U, Y, eye]) };
}

const close = (got: number[], want: number[], tol: number, what: string) =>
  got.forEach((v, i) => {
    if (!(Math.abs(v - want[i]) <= tol * (1 + Math.abs(want[i])))) {
      throw new Error(`${what}[${i}]: ${v} vs ${want[i]}`);
    }
  });

Deno.test("Kalman associativeScan loss: valueAndGrad and jit(valueAndGrad) on webgpu", async () => {
  const before = memoryStats().liveArrays;
  {
    const web = makeLoss(32, 2, "webgpu");
    const ref = makeLoss(32, 2, "wasm");
    using vgJit = jit(valueAndGrad(web.loss));
    for (const theta0 of [[0.8, 0.3]]) {
      using tw = np.array(theta0, { device: "webgpu" });
      using tr = np.array(theta0, { device: "wasm" });
      const [vw, gw] = valueAndGrad(web.loss)(tw) as [np.Array, np.Array];
      const [vj, gj] = vgJit(tw) as [np.Array, np.Array];
      const [vr, gr] = valueAndGrad(ref.loss)(tr) as [np.Array, np.Array];
      const want = [...(await vr.data()), ...(await gr.data())];
      close([...(await vw.data()), ...(await gw.data())], want, 1e-3, "bare");
      close([...(await vj.data()), ...(await gj.data())], want, 1e-3, "jit");
      tree.dispose([vw, gw, vj, gj, vr, gr]);
    }
    web.dispose();
    ref.dispose();
  }
  const after = memoryStats().liveArrays;
  if (after !== before) throw new Error(`leaked ${after - before} arrays`);
});

Deno.test(
  "RTS-style reverse lax.scan (m = 4) on webgpu matches wasm, bare and under jit",
  async () => {
    const before = memoryStats().liveArrays;
    {
      const n = 16;
      const m = 4;
      const d = data(n, m);
      const step = (c: { r: np.Array; N: np.Array }, e: Elems) => {
        using At = np.matrixTranspose(e.A);
        using atr = np.matmul(At, c.r);
        using r = atr.add(e.b);
        using atn = np.matmul(At, c.N);
        using atna = np.matmul(atn, e.A);
        using N = atna.add(e.S);
        return [{ r, N }, r];
      };
      const results: number[][] = [];
      for (const device of ["webgpu", "wasm"] as const) {
        using A = np.array(Array(n).fill(d.G), { device });
        using b = np.array(d.U, { device });
        using S = np.array(Array(n).fill(d.G), { device });
        using r0 = np.zeros([m, 1], { device });
        using N0 = np.zeros([m, m], { device });
        const [c, rs] = lax.scan(step, { r: r0, N: N0 }, { A, b, S }, { reverse: true });
        using smoother = jit((i: unknown, e: unknown) => lax.scan(step, i, e, { reverse: true }));
        const [jc, jrs] = smoother({ r: r0, N: N0 }, { A, b, S }) as [unknown, np.Array];
        results.push([...(await rs.data()), ...(await jrs.data())]);
        tree.dispose([c, rs, jc, jrs]);
      }
      close(results[0], results[1], 1e-4, "ys");
    }
    const after = memoryStats().liveArrays;
    if (after !== before) throw new Error(`leaked ${after - before} arrays`);
  },
);
