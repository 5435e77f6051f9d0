// Device limits on WebGPU in Deno (lavapipe on CPU machines), with the storage-buffer limit
// forced to the spec minimum of 8 (7 inputs + 1 output per kernel): operations that read 20
// arrays are split into kernels that fit, and match the cpu device. Also: blockUntilReady,
// and the float64 error.
import { blockUntilReady, init, memoryStats, numpy as np } from "../../pkg/index.js";

await init({ maxStorageBuffers: 8, smallOnHost: false });

/** 20 arrays (of ragged lengths for concatenate, equal ones for stack) on `device`. */
const parts = (device: "cpu" | "webgpu", ragged: boolean) =>
  Array.from({ length: 20 }, (_, j) =>
    np.array(
      Array.from({ length: ragged ? 6 + (j % 3) : 6 }, (_, i) => Math.sin(i * 1.7 + j) * 10),
      { device },
    ),
  );

for (const fn of ["concatenate", "stack"] as const) {
  Deno.test(`${fn} of 20 arrays on webgpu with 8 storage buffers matches cpu`, async () => {
    const before = memoryStats().liveArrays;
    const dispatches0 = memoryStats().devices.webgpu?.dispatches ?? 0;
    const results: number[][] = [];
    for (const device of ["cpu", "webgpu"] as const) {
      const xs = parts(device, fn === "concatenate");
      const out = fn === "concatenate" ? np.concatenate(xs) : np.stack(xs, 1);
      results.push(Array.from(await out.data()));
      if (out.device !== device) throw new Error(`result on ${out.device}`);
      out.dispose();
      xs.forEach((x) => x.dispose());
    }
    if (JSON.stringify(results[0]) !== JSON.stringify(results[1])) {
      throw new Error(`webgpu ${results[1].slice(0, 8)} vs cpu ${results[0].slice(0, 8)}`);
    }
    // 20 inputs with 7 per kernel: packing kernels ran before the final one.
    const dispatches = (memoryStats().devices.webgpu?.dispatches ?? 0) - dispatches0;
    if (dispatches < 3) throw new Error(`expected split kernels, saw ${dispatches} dispatches`);
    if (memoryStats().liveArrays !== before) throw new Error("leaked arrays");
  });
}

Deno.test("blockUntilReady resolves to its argument without changing ownership", async () => {
  using x = np.array([1, 2, 3], { device: "webgpu" });
  using y = x.mul(2);
  if ((await y.blockUntilReady()) !== y) throw new Error("Array.blockUntilReady identity");
  const tree = { a: y, b: [x, 3] };
  if ((await blockUntilReady(tree)) !== tree) throw new Error("blockUntilReady identity");
  if (JSON.stringify(Array.from(await y.data())) !== "[2,4,6]") throw new Error("values");
});

Deno.test("float64 on webgpu names the devices that support it", () => {
  let message = "";
  try {
    np.array([1, 2], { dtype: "float64", device: "webgpu" }).dispose();
  } catch (e) {
    message = (e as Error).message;
  }
  if (!/float64.*webgpu.*"cpu" and "wasm"/.test(message)) throw new Error(`message: ${message}`);
});
