// float16 lax.scan bodies on webgpu in Deno (lavapipe has shader-f16), storage-buffer limit
// forced to 8: the body runs compiled (path "fused") as its widened float32 loop
// (backend/webgpu/program/widen_half.rs): ONE looping dispatch plus one conversion dispatch per float16
// operand in (consts, xs, initial carries) and result out (ys, final carries). Tiny bodies take
// the serial shader, larger ones the level-scheduled one, ops over 1024 elements the pre-encoded
// dispatches, forward and reverse, eager and under
// jit. Oracle: the same scans on the cpu device (float16 rounded at every operation), within a
// float16 tolerance. Nothing leaks.
import {
  init,
  jit,
  lax,
  memoryStats,
  numpy as np,
  setScanPathCallback,
  tree,
} from "../../pkg/index.js";
import { rng } from "../shared/rng.mjs";

await init({ maxStorageBuffers: 8, smallOnHost: false });

type Dev = "cpu" | "webgpu";
type Event = { path: string; backend: string; detail: string };

const N = 40;

// carry c [m], xs row x [m], const W [m, m]: c' = tanh(W c + x) · 0.9 + x², y = (sum(c'), c'·x);
// for a large m (ops over 1024 elements: the pre-encoded path) W c is W's first row times c.
const body = (W: np.Array) => (c: np.Array, x: np.Array) => {
  using wc = W.shape[0] > 64 ? c.mul(W.slice(0)) : np.matmul(W, c);
  using t = np.tanh(wc.add(x));
  using t9 = t.mul(0.9);
  using xx = x.mul(x);
  const next = t9.add(xx);
  return [next, [np.sum(next), next.mul(x)]];
};

function half(v: number[], shape: number[], device: Dev) {
  using flat = np.array(v, { device, dtype: "float16" });
  return flat.reshape(shape);
}

async function run(m: number, reverse: boolean, jitted: boolean, device: Dev) {
  const r = rng(16 + m); // the same data on both devices
  const draw = (n: number, scale: number) => Array.from({ length: n }, () => scale * r());
  const w = draw(m * m, 0.8);
  const xsv = draw(N * m, 1);
  const c0v = draw(m, 1);
  using W = half(w, [m, m], device);
  using xs = half(xsv, [N, m], device);
  using c0 = np.array(c0v, { device, dtype: "float16" });
  const scan = (c: unknown, x: unknown) => lax.scan(body(W), c, x, { reverse });
  using f = jit(scan);
  const events: Event[] = [];
  setScanPathCallback((path, backend, info) => events.push({ path, backend, detail: info.detail }));
  const d0 = memoryStats().devices.webgpu?.dispatches ?? 0;
  let out: [np.Array, np.Array[]];
  try {
    out = (jitted ? f(c0, xs) : scan(c0, xs)) as [np.Array, np.Array[]];
  } finally {
    setScanPathCallback(null);
  }
  const dispatches = (memoryStats().devices.webgpu?.dispatches ?? 0) - d0;
  const leaves = tree.leaves(out) as np.Array[];
  const values: number[] = [];
  for (const a of leaves) {
    if (a.dtype !== "float16") throw new Error(`a ${a.dtype} result`);
    values.push(...(await a.data()));
  }
  tree.dispose(out);
  return { values, dispatches, events: events.filter((e) => e.backend === "webgpu") };
}

for (const [m, shader] of [
  [2, /one dispatch, serial/],
  [8, /one dispatch \(.*workgroup of/],
  [1100, /pre-encoded/],
] as const) {
  for (const reverse of [false, true]) {
    for (const jitted of [false, true]) {
      Deno.test(
        `float16 scan m=${m} reverse=${reverse} jit=${jitted}: compiled, widened`,
        async () => {
          const before = memoryStats().liveArrays;
          const want = await run(m, reverse, jitted, "cpu");
          const got = await run(m, reverse, jitted, "webgpu");
          if (
            got.events.length !== 1 ||
            got.events[0].path !== "fused" ||
            !shader.test(got.events[0].detail) ||
            !/float16 operands widened to float32/.test(got.events[0].detail)
          ) {
            throw new Error(`paths ${JSON.stringify(got.events)}`);
          }
          // The loop, then conversions of W, xs and c0 in, of both ys and the final carry out.
          if (!jitted && m < 64 && got.dispatches !== 1 + 3 + 3) {
            throw new Error(`${got.dispatches} dispatches, want 7`);
          }
          if (got.values.length !== want.values.length || got.values.length !== m + N + N * m) {
            throw new Error(`${got.values.length} vs ${want.values.length} values`);
          }
          got.values.forEach((v, i) => {
            const w = want.values[i];
            if (!(Math.abs(v - w) <= 4e-3 * (1 + Math.abs(w)))) {
              throw new Error(`[${i}]: ${v} vs ${w}`);
            }
          });
          const after = memoryStats().liveArrays;
          if (after !== before) throw new Error(`leaked ${after - before} arrays`);
        },
      );
    }
  }
}
