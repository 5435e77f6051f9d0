// Nested scans on webgpu in Deno (lavapipe), storage-buffer limit forced to 8: jit(valueAndGrad)
// of a loss written with case 2's RTS-style reverse lax.scan (bench/README.md), whose backward
// pass is √N-checkpointed: an outer scan over segments whose body re-runs the forward segment and
// a reverse scan over it. Every scan reports path "fused"; the scans over segments say their
// dispatch runs nested loops; each outer scan is ONE dispatch (loopRuns counts one per outer
// scan), so a call's dispatches do not grow with N. Oracle: the same program on the cpu device
// (host loops over the interpreter). Nothing leaks.
import {
  init,
  jit,
  lax,
  memoryStats,
  numpy as np,
  setScanPathCallback,
  tree,
  valueAndGrad,
} from "../../pkg/index.js";
import { rtsStep as rtsStepOf } from "../shared/scan_bodies.mjs";

await init({ maxStorageBuffers: 8 });

type Dev = "cpu" | "webgpu";
type Event = { path: string; backend: string; detail: string };
type Carry = { r: np.Array; N: np.Array };
const NESTED = /^nested in a fused loop/;

const rtsStep = rtsStepOf(np);

function arr(count: number, seed: number, scale: number, shape: number[], device: Dev) {
  const v = Array.from({ length: count }, (_, k) => scale * Math.sin(1.618 * (k + seed)));
  using flat = np.array(v, { device });
  return flat.reshape(shape);
}

/** jit(valueAndGrad) of Σ final N + Σ ys over θ = [a, s] (A·a, S·s), called twice on `device`. */
async function run(n: number, checkpoint: boolean | number, device: Dev) {
  using A = arr(n * 4, 1, 0.6, [n, 2, 2], device);
  using b = arr(n * 2, 2, 0.5, [n, 2, 1], device);
  using S = arr(n * 4, 3, 0.2, [n, 2, 2], device);
  using r0 = arr(2, 4, 1, [2, 1], device);
  using N0 = np.zeros([2, 2], { device });
  using theta = np.array([0.9, 1.1], { device });
  const loss = (t: np.Array) => {
    using a = t.slice(0);
    using s = t.slice(1);
    using As = A.mul(a);
    using Ss = S.mul(s);
    const [c, rs] = lax.scan(
      rtsStep,
      { r: r0, N: N0 },
      { A: As, b, S: Ss },
      {
        reverse: true,
        checkpoint,
      },
    ) as [Carry, np.Array];
    using sn = np.sum(c.N);
    using sr = np.sum(rs);
    tree.dispose([c, rs]);
    return sn.add(sr);
  };
  using f = jit(valueAndGrad(loss));
  const events: Event[] = [];
  let dispatches = 0;
  let loopRuns = 0;
  const out: number[] = [];
  for (let call = 0; call < 2; call++) {
    if (call === 1) {
      setScanPathCallback((path, backend, info) =>
        events.push({ path, backend, detail: info.detail }),
      );
    }
    const s0 = memoryStats().devices.webgpu;
    const [v, g] = f(theta) as [np.Array, np.Array];
    const s1 = memoryStats().devices.webgpu;
    setScanPathCallback(null);
    if (call === 1) {
      dispatches = (s1?.dispatches ?? 0) - (s0?.dispatches ?? 0);
      loopRuns = (s1?.loopRuns ?? 0) - (s0?.loopRuns ?? 0);
      out.push(...(await v.data()), ...(await g.data()));
    }
    tree.dispose([v, g]);
  }
  return { out, dispatches, loopRuns, events };
}

function close(got: number[], want: number[], what: string) {
  if (got.length !== want.length) throw new Error(`${what}: ${got.length} vs ${want.length}`);
  got.forEach((v, i) => {
    if (!(Math.abs(v - want[i]) <= 2e-4 * (1 + Math.abs(want[i]))))
      throw new Error(`${what}[${i}]: ${v} vs ${want[i]}`);
  });
}

Deno.test(
  "jit(valueAndGrad) of a checkpointed RTS scan: nested loops, one dispatch per scan",
  async () => {
    const before = memoryStats().liveArrays;
    const perCall: number[] = [];
    for (const [n, checkpoint] of [
      [64, true],
      [144, true],
      [150, true],
      [45, 4],
    ] as const) {
      const want = await run(n, checkpoint, "cpu");
      const got = await run(n, checkpoint, "webgpu");
      const what = `N=${n} checkpoint=${checkpoint}`;
      close(got.out, want.out, what);
      const gpu = got.events.filter((e) => e.backend === "webgpu");
      if (gpu.length === 0 || gpu.some((e) => e.path !== "fused"))
        throw new Error(`${what}: paths ${JSON.stringify(got.events)}`);
      const outer = gpu.filter((e) => !NESTED.test(e.detail));
      const withNested = outer.filter((e) => /nested loops/.test(e.detail));
      // The forward pass keeping checkpoints and the backward pass: loops over segments.
      if (withNested.length < 2) throw new Error(`${what}: ${JSON.stringify(outer)}`);
      if (got.loopRuns !== outer.length)
        throw new Error(`${what}: ${got.loopRuns} loop runs for ${outer.length} outer scans`);
      perCall.push(got.dispatches);
    }
    // The same program at another N of whole segments: the same dispatches (each scan is one,
    // whatever its length).
    if (perCall[0] !== perCall[1]) throw new Error(`dispatches per call ${perCall}`);
    const after = memoryStats().liveArrays;
    if (after !== before) throw new Error(`leaked ${after - before} arrays`);
  },
);
