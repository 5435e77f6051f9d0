// grad on WebGPU in Deno, with `using` declarations inside the differentiated function (the
// "tracer has been disposed" failure mode of jax-js): the gradient is right and nothing leaks.
import { grad, init, memoryStats, numpy as np } from "../../pkg/index.js";

// The spec minimum of storage buffers, so kernels that would need more are split.
await init({ maxStorageBuffers: 8, smallOnHost: false });

Deno.test("grad with `using` intermediates on webgpu", async () => {
  const before = memoryStats().liveArrays;
  {
    using x = np.array([0.5, -1, 2], { device: "webgpu" });
    const f = (t: np.Array) => {
      using s = np.sin(t);
      using p = s.mul(t);
      return np.sum(p);
    };
    using g = grad(f)(x);
    const got = Array.from(await g.data());
    const want = [0.5, -1, 2].map((v) => Math.cos(v) * v + Math.sin(v));
    got.forEach((v, i) => {
      if (Math.abs(v - want[i]) > 1e-5) throw new Error(`element ${i}: ${v} vs ${want[i]}`);
    });
    if (g.device !== "webgpu") throw new Error(`gradient on ${g.device}`);
  }
  const after = memoryStats().liveArrays;
  if (after !== before) throw new Error(`leaked ${after - before} arrays`);
});
