// Deno with WebGPU (lavapipe on CPU machines): the package loads by URL, `using` works
// natively, and the slice computes on every available device.
import { init, memoryStats, numpy as np } from "../../pkg/index.js";

function assertEquals(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

const devices = // The spec minimum of storage buffers, so kernels that would need more are split.
  await init({ maxStorageBuffers: 8, smallOnHost: false });

Deno.test("webgpu is available under --unstable-webgpu", () => {
  assertEquals(devices, ["cpu", "wasm", "webgpu"], "init()");
});

for (const device of ["cpu", "wasm", "webgpu"] as const) {
  Deno.test(`add and mul with broadcasting on ${device}`, async () => {
    const before = memoryStats().liveArrays;
    {
      using x = np.array(
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
        { device },
      );
      using y = np.array([0.5, -1, 2], { device });
      using s = x.add(y);
      using p = s.mul(3);
      const expected = [
        [1, 2, 3],
        [4, 5, 6],
      ].map((row) => row.map((v, j) => (v + [0.5, -1, 2][j]) * 3));
      assertEquals(Array.from(await p.data()), expected.flat(), `${device} data()`);
      assertEquals(p.shape, [2, 3], "shape");
      assertEquals(p.device, device, "device");
    }
    assertEquals(memoryStats().liveArrays, before, "live arrays after using-block");
  });
}

Deno.test("dataSync on webgpu asks for await data()", () => {
  using x = np.array([1, 2], { device: "webgpu" });
  let message = "";
  try {
    x.dataSync();
  } catch (e) {
    message = (e as Error).message;
  }
  if (!/await .*data\(\)/.test(message)) throw new Error(`unexpected message: ${message}`);
});
