// The wide form of elementwise kernels on WebGPU in Deno (lavapipe on CPU machines): with the
// test hook `debugWideElementwise(true)` every webgpu kernel without a reduction computes four
// elements per invocation. Jitted and eager chains over odd sizes, views (transposed,
// broadcast, sliced and concatenated operands), mixed dtypes (float16 where the adapter has
// shader-f16) and seven operands under the 8-buffer limit give the cpu device's values in
// both forms; the hook's dispatch counter shows which form ran; nothing leaks.
import { init, jit, memoryStats, numpy as np } from "../../pkg/index.js";
import type { Array as OxArray } from "../../pkg/index.js";
import { wasm } from "../../pkg/bridge.js";

await init({ maxStorageBuffers: 8, smallOnHost: false });
const adapter = await navigator.gpu.requestAdapter();
const HAS_F16 = adapter?.features.has("shader-f16") ?? false;

type Device = "cpu" | "webgpu";
type DT = "float32" | "int32" | "bool" | "float16";

/** `n` values of a deterministic spread, exact in float16 (quarters up to ±25). */
const values = (n: number, seed: number) =>
  Array.from({ length: n }, (_, k) => (((k * 37 + seed * 11) % 101) - 50) * 0.25);

const arr = (device: Device, n: number, seed: number, dtype: DT = "float32") =>
  np.array(
    values(n, seed).map((v) => (dtype === "bool" ? v > 0 : dtype === "int32" ? Math.trunc(v) : v)),
    { device, dtype },
  );

const chain = (t: OxArray) => t.mul(1.5).add(0.5).mul(t).sub(2);

/** Each case builds its operands on `device`, computes, frees all but the result. */
const cases: [string, (device: Device) => OxArray][] = [];
for (const n of [1, 3, 1001, 4099]) {
  cases.push([
    `jit chain on ${n}`,
    (device) => {
      using f = jit(chain);
      using x = arr(device, n, 1);
      return f(x);
    },
  ]);
  cases.push([
    `eager chain on ${n}`,
    (device) => {
      using x = arr(device, n, 2);
      using a = x.mul(1.5);
      using b = a.add(0.5);
      using c = b.mul(x);
      return c.sub(2);
    },
  ]);
}
cases.push([
  "transposed plus a broadcast row",
  (device) => {
    using x = arr(device, 7 * 9, 3);
    using m = x.reshape([7, 9]);
    using t = m.transpose();
    using y = arr(device, 7, 4);
    return t.add(y);
  },
]);
cases.push([
  "column times row",
  (device) => {
    using a = arr(device, 13, 5);
    using b = arr(device, 11, 6);
    using col = a.reshape([13, 1]);
    using row = b.reshape([1, 11]);
    return col.mul(row);
  },
]);
cases.push([
  "slices at aligned and unaligned offsets, concatenated",
  (device) => {
    using x = arr(device, 203, 7);
    using s4 = x.slice([4, 104]);
    using s3 = x.slice([3, 103]);
    using d = s4.sub(s3);
    using tail = x.slice([150, 203]);
    return np.concatenate([d, tail, s4]);
  },
]);
cases.push([
  "float32, int32 and bool operands",
  (device) => {
    using x = arr(device, 1003, 8);
    using k = arr(device, 1003, 9, "int32");
    using b = arr(device, 1003, 10, "bool");
    using s = x.add(k);
    using m = x.mul(k);
    return np.where(b, s, m);
  },
]);
cases.push([
  "int32 out",
  (device) => {
    using k = arr(device, 517, 11, "int32");
    using j = arr(device, 517, 12, "int32");
    using p = k.mul(j);
    return p.add(3);
  },
]);
cases.push([
  "bool out",
  (device) => {
    using x = arr(device, 517, 13);
    using y = arr(device, 517, 14);
    return x.less(y);
  },
]);
cases.push([
  "seven operands",
  (device) => {
    const xs = Array.from({ length: 7 }, (_, k) => arr(device, 1001, 20 + k));
    using f = jit((...t: OxArray[]) => t.reduce((acc, v, k) => (k === 0 ? v : acc.add(v.mul(k)))));
    const out = f(...xs);
    xs.forEach((x) => x.dispose());
    return out;
  },
]);
if (HAS_F16) {
  cases.push([
    "float16 with float32",
    (device) => {
      using h = arr(device, 1001, 15, "float16");
      using x = arr(device, 1001, 16);
      using hx = h.astype("float32");
      using s = hx.mul(x);
      using s16 = s.astype("float16");
      return s16.add(h);
    },
  ]);
}

for (const wide of [false, true]) {
  for (const [name, build] of cases) {
    Deno.test(`${name} on webgpu (wide form ${wide ? "on" : "off"}) matches cpu`, async () => {
      const before = JSON.stringify([memoryStats().liveArrays, memoryStats().pendingReads]);
      const buffers = memoryStats().devices.webgpu!.liveBuffers;
      wasm.debugWideElementwise(wide);
      try {
        const dispatches = wasm.debugWideElementwise(undefined);
        const results = [];
        for (const device of ["cpu", "webgpu"] as const) {
          using out = build(device);
          results.push({ dtype: out.dtype, shape: out.shape, data: Array.from(await out.data()) });
        }
        const [cpu, gpu] = results.map((r) => JSON.stringify(r));
        if (cpu !== gpu) throw new Error(`webgpu ${gpu.slice(0, 300)}\ncpu ${cpu.slice(0, 300)}`);
        const ran = wasm.debugWideElementwise(undefined) - dispatches;
        if (wide ? ran === 0 : ran !== 0) throw new Error(`${ran} wide dispatches`);
      } finally {
        wasm.debugWideElementwise(false);
      }
      const after = JSON.stringify([memoryStats().liveArrays, memoryStats().pendingReads]);
      if (after !== before) throw new Error(`leaked: ${before} -> ${after}`);
      if (memoryStats().devices.webgpu!.liveBuffers !== buffers) throw new Error("leaked buffers");
    });
  }
}
