// vmap on WebGPU in Deno: a batched per-row function (reduction, gather, matmul) against a loop
// over the rows, and hessian (vmap of jvp of grad); results stay on webgpu and nothing leaks.
import { hessian, init, memoryStats, numpy as np, vmap } from "../../pkg/index.js";

await init({ smallOnHost: false });

Deno.test("vmap and hessian on webgpu", async () => {
  const before = memoryStats().liveArrays;
  {
    using m = np.array(
      [
        [0.5, -1, 2],
        [1.5, 0.25, -0.75],
      ],
      { device: "webgpu" },
    );
    using idx = np.array([2, 0], { dtype: np.int32, device: "webgpu" });
    const row = (r: np.Array) => {
      using s = np.sin(r);
      using picked = s.slice(idx);
      using sq = np.matmul(r.reshape([1, 3]), r.reshape([3, 1]));
      return np.sum(picked).add(sq.reshape([]));
    };
    using out = vmap(row)(m);
    const got = Array.from(await out.data());
    const rows = [
      [0.5, -1, 2],
      [1.5, 0.25, -0.75],
    ];
    const want = rows.map(
      (r) => Math.sin(r[2]) + Math.sin(r[0]) + r.reduce((a, v) => a + v * v, 0),
    );
    got.forEach((v, i) => {
      if (Math.abs(v - want[i]) > 1e-5) throw new Error(`row ${i}: ${v} vs ${want[i]}`);
    });
    if (out.device !== "webgpu") throw new Error(`result on ${out.device}`);
    using x = np.array([0.5, -1, 2], { device: "webgpu" });
    using h = hessian((t: np.Array) => np.sum(t.mul(t).mul(t)))(x);
    const hv = Array.from(await h.data());
    const hw = [3, 0, 0, 0, -6, 0, 0, 0, 12];
    hv.forEach((v, i) => {
      if (Math.abs(v - hw[i]) > 1e-5) throw new Error(`hessian ${i}: ${v} vs ${hw[i]}`);
    });
  }
  const after = memoryStats().liveArrays;
  if (after !== before) throw new Error(`leaked ${after - before} arrays`);
});
