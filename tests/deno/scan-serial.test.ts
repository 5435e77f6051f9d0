// The serial looping scan shader in Deno (lavapipe), storage-buffer limit forced to 8: case 2 of
// bench/README.md (RTS-style reverse scan under jit) with m = 2 is exactly ONE dispatch per scan,
// path "fused", and its detail names the serial shader (one warp, the step unrolled, xs rows staged
// in workgroup memory); with m = 8 the step is too large for it and the level-scheduled shader runs
// (detail "workgroup of …"), also one dispatch. Forward scans, scans shorter than a staged chunk of
// xs rows, and a scan without xs (`length` only, a captured constant matrix) too. Oracle: the same
// programs on the cpu device. Nothing leaks.
import {
  init,
  jit,
  lax,
  memoryStats,
  numpy as np,
  setScanPathCallback,
  tree,
} from "../../pkg/index.js";
import { rtsStep as rtsStepOf } from "../shared/scan_bodies.mjs";

await init({ maxStorageBuffers: 8, smallOnHost: false });

type Dev = "cpu" | "webgpu";
type Event = { path: string; backend: string; detail: string };
type Carry = { r: np.Array; N: np.Array };

const rtsStep = rtsStepOf(np);

function values(count: number, seed: number, scale: number, diag: number, m: number) {
  return Array.from(
    { length: count },
    (_, k) => scale * Math.sin(1.618 * (k + seed)) + ((k % (m * m)) % (m + 1) === 0 ? diag : 0),
  );
}

function arr(v: number[], shape: number[], device: Dev) {
  using flat = np.array(v, { device });
  return flat.reshape(shape);
}

async function rts(n: number, m: number, reverse: boolean, device: Dev) {
  using A = arr(values(n * m * m, 1, 0.2, 0.9, m), [n, m, m], device);
  using b = arr(values(n * m, 2, 0.5, 0, m), [n, m, 1], device);
  using S = arr(values(n * m * m, 3, 0.2, 0.5, m), [n, m, m], device);
  using r0 = arr(values(m, 4, 1, 0, m), [m, 1], device);
  using N0 = np.zeros([m, m], { device });
  using smoother = jit((i: unknown, e: unknown) => lax.scan(rtsStep, i, e, { reverse }));
  const events: Event[] = [];
  setScanPathCallback((path, backend, info) => events.push({ path, backend, detail: info.detail }));
  const counts: number[] = [];
  const out: number[] = [];
  try {
    for (let call = 0; call < 2; call++) {
      const d0 = memoryStats().devices.webgpu?.dispatches ?? 0;
      const [c, rs] = smoother({ r: r0, N: N0 }, { A, b, S }) as [Carry, np.Array];
      counts.push((memoryStats().devices.webgpu?.dispatches ?? 0) - d0);
      if (call === 1) out.push(...(await c.r.data()), ...(await c.N.data()), ...(await rs.data()));
      tree.dispose([c, rs]);
    }
  } finally {
    setScanPathCallback(null);
  }
  return { counts, out, events: events.filter((e) => e.backend === "webgpu") };
}

for (const [m, n, reverse, serial] of [
  [2, 100, true, true],
  [2, 3, false, true],
  [8, 40, true, false],
] as const) {
  Deno.test(
    `case 2 m=${m} N=${n} reverse=${reverse}: ${serial ? "serial" : "level-scheduled"}, one dispatch`,
    async () => {
      const before = memoryStats().liveArrays;
      const want = await rts(n, m, reverse, "cpu");
      const got = await rts(n, m, reverse, "webgpu");
      const shader = serial ? /one dispatch, serial/ : /one dispatch \(.*workgroup of/;
      if (
        got.events.length !== 2 ||
        got.events.some((e) => e.path !== "fused" || !shader.test(e.detail))
      ) {
        throw new Error(`paths ${JSON.stringify(got.events)}`);
      }
      if (got.counts.some((c) => c !== 1))
        throw new Error(`dispatches per call ${got.counts}, want 1`);
      if (got.out.length !== want.out.length)
        throw new Error(`${got.out.length} vs ${want.out.length}`);
      got.out.forEach((v, i) => {
        if (!(Math.abs(v - want.out[i]) <= 1e-4 * (1 + Math.abs(want.out[i])))) {
          throw new Error(`[${i}]: ${v} vs ${want.out[i]}`);
        }
      });
      const after = memoryStats().liveArrays;
      if (after !== before) throw new Error(`leaked ${after - before} arrays`);
    },
  );
}

/** 45 steps of c' = R·c (R captured: a const of the loop), no xs: (final c, ys), events. */
async function rotate(device: Dev) {
  using R = arr([0.8, -0.6, 0.6, 0.8], [2, 2], device);
  using c0 = arr([1, 0.5], [2, 1], device);
  const step = (c: np.Array) => {
    const y = np.matmul(R, c);
    return [y, y];
  };
  using f = jit((c: np.Array) => lax.scan(step, c, null, { length: 45 }));
  const events: Event[] = [];
  setScanPathCallback((path, backend, info) => events.push({ path, backend, detail: info.detail }));
  try {
    const d0 = memoryStats().devices.webgpu?.dispatches ?? 0;
    const [c, ys] = f(c0) as [np.Array, np.Array];
    const dispatches = (memoryStats().devices.webgpu?.dispatches ?? 0) - d0;
    const out = [...(await c.data()), ...(await ys.data())];
    tree.dispose([c, ys]);
    return { out, dispatches, events: events.filter((e) => e.backend === "webgpu") };
  } finally {
    setScanPathCallback(null);
  }
}

Deno.test("a scan without xs (length only, a const matrix): serial, one dispatch", async () => {
  const before = memoryStats().liveArrays;
  const want = await rotate("cpu");
  const got = await rotate("webgpu");
  if (got.events.length !== 1 || !/one dispatch, serial/.test(got.events[0].detail))
    throw new Error(`paths ${JSON.stringify(got.events)}`);
  if (got.dispatches !== 1) throw new Error(`${got.dispatches} dispatches, want 1`);
  if (got.out.length !== 92) throw new Error(`${got.out.length} values`);
  got.out.forEach((v, i) => {
    if (!(Math.abs(v - want.out[i]) <= 1e-5 * (1 + Math.abs(want.out[i]))))
      throw new Error(`[${i}]: ${v} vs ${want.out[i]}`);
  });
  if (memoryStats().liveArrays !== before) throw new Error("leaked arrays");
});
