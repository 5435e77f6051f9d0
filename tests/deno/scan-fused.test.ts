// Compiled scans on WebGPU in Deno (lavapipe), storage-buffer limit forced to 8: case 2 of
// bench/README.md (RTS-style reverse scan, transpose → matmul → matmul → add on an m×m state, under
// jit) is exactly ONE dispatch per scan with path "fused" for m = 2..8; case 3 (a jitted training
// block scanned over valueAndGrad of an associativeScan loss) runs compiled; a body too large for
// one workgroup runs pre-encoded. Oracle: the same programs on the cpu device. Nothing leaks.
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
import * as ox from "../../pkg/index.js";
import { makeAssocNll, rtsStep as rtsStepOf } from "../shared/scan_bodies.mjs";
import { rng } from "../shared/rng.mjs";

await init({ maxStorageBuffers: 8, smallOnHost: false });

type Dev = "cpu" | "webgpu";
type Event = { path: string; backend: string; detail: string };

function matrices(n: number, m: number, seed: number, diag: number) {
  const r = rng(seed);
  return Array.from({ length: n }, () =>
    Array.from({ length: m }, (_, i) =>
      Array.from({ length: m }, (_, j) => (i === j ? diag : 0) + 0.2 * r()),
    ),
  );
}

const close = (got: number[], want: number[], tol: number, what: string) => {
  if (got.length !== want.length) throw new Error(`${what}: ${got.length} vs ${want.length}`);
  got.forEach((v, i) => {
    if (!(Math.abs(v - want[i]) <= tol * (1 + Math.abs(want[i])))) {
      throw new Error(`${what}[${i}]: ${v} vs ${want[i]}`);
    }
  });
};

const dispatches = () => memoryStats().devices.webgpu?.dispatches ?? 0;
const submits = () => memoryStats().devices.webgpu?.submits ?? 0;

function withEvents<T>(f: (events: Event[]) => T): T {
  const events: Event[] = [];
  setScanPathCallback((path, backend, info) => events.push({ path, backend, detail: info.detail }));
  try {
    return f(events);
  } finally {
    setScanPathCallback(null);
  }
}

type Carry = { r: np.Array; N: np.Array };

const rtsStep = rtsStepOf(np);

async function rts(n: number, m: number, device: Dev) {
  using A = np.array(matrices(n, m, 1 + m, 0.9), { device });
  using b = np.array(
    matrices(n, m, 2 + m, 0).map((x) => x.map((row) => [row[0]])),
    { device },
  );
  using S = np.array(matrices(n, m, 3 + m, 0.5), { device });
  using r0 = np.zeros([m, 1], { device });
  using N0 = np.zeros([m, m], { device });
  using smoother = jit((i: unknown, e: unknown) => lax.scan(rtsStep, i, e, { reverse: true }));
  const counts: number[] = [];
  const out: number[] = [];
  for (let call = 0; call < 2; call++) {
    const d0 = dispatches();
    const [c, rs] = smoother({ r: r0, N: N0 }, { A, b, S }) as [Carry, np.Array];
    counts.push(dispatches() - d0);
    if (call === 1) out.push(...(await c.N.data()), ...(await rs.data()));
    tree.dispose([c, rs]);
  }
  return { counts, out };
}

Deno.test("case 2: RTS reverse scan under jit is one dispatch per scan on webgpu", async () => {
  const before = memoryStats().liveArrays;
  for (const [m, n] of [
    [2, 100],
    [3, 100],
    [4, 40],
    [6, 100],
    [8, 100],
    [2, 1600],
  ]) {
    const want = await rts(n, m, "cpu");
    const got = await withEvents(async (events) => {
      const g = await rts(n, m, "webgpu");
      const web = events.filter((e) => e.backend === "webgpu");
      if (
        web.length !== 2 ||
        web.some((e) => e.path !== "fused" || !/one dispatch/.test(e.detail))
      ) {
        throw new Error(`m=${m} n=${n}: paths ${JSON.stringify(web)}`);
      }
      return g;
    });
    if (got.counts.some((c) => c !== 1)) {
      throw new Error(`m=${m} n=${n}: dispatches per call ${got.counts}, want 1`);
    }
    close(got.out, want.out, 1e-4, `m=${m} n=${n}`);
  }
  const after = memoryStats().liveArrays;
  if (after !== before) throw new Error(`leaked ${after - before} arrays`);
});

Deno.test("a body larger than one workgroup runs pre-encoded: one submit per scan", async () => {
  const before = memoryStats().liveArrays;
  const n = 6;
  const m = 40;
  const run = (device: Dev) => {
    using x = np.array(matrices(n, m, 9, 0.02), { device });
    using c0 = np.array(matrices(1, m, 10, 1)[0], { device });
    using f = jit((c: np.Array, xs: np.Array) =>
      lax.scan(
        (p: np.Array, q: np.Array) => {
          using pq = np.matmul(p, q);
          using s = pq.add(q);
          const next = s.mul(0.5);
          return [next, next];
        },
        c,
        xs,
      ),
    );
    const s0 = submits();
    const [c, ys] = f(c0, x) as [np.Array, np.Array];
    const made = submits() - s0;
    return { c, ys, made };
  };
  const got = withEvents((events) => {
    const g = run("webgpu");
    const web = events.filter((e) => e.backend === "webgpu");
    if (web.length !== 1 || web[0].path !== "fused" || !/pre-encoded/.test(web[0].detail)) {
      throw new Error(`paths ${JSON.stringify(web)}`);
    }
    return g;
  });
  if (got.made > 1) throw new Error(`${got.made} submits for one scan`);
  const want = run("cpu");
  close(
    [...(await got.c.data()), ...(await got.ys.data())],
    [...(await want.c.data()), ...(await want.ys.data())],
    1e-4,
    "pre-encoded",
  );
  tree.dispose([got.c, got.ys, want.c, want.ys]);
  const after = memoryStats().liveArrays;
  if (after !== before) throw new Error(`leaked ${after - before} arrays`);
});

// Case 3: a training block, lax.scan over valueAndGrad of an associativeScan loss (A, b, S
// composition of a Kalman-style model), under jit, on webgpu vs cpu.
function makeLoss(n: number, m: number, device: Dev) {
  const G = np.array(matrices(1, m, 4, 0.9)[0], { device });
  const U = np.array(
    matrices(n, m, 5, 0).map((x) => x.map((row) => [row[0]])),
    { device },
  );
  const Y = np.array(
    matrices(n, m, 6, 0).map((x) => x.map((row) => row[0])),
    { device },
  );
  const eye = np.eye(m, undefined, { device });
  const loss = makeAssocNll(ox, { G, U, Y, eye }, n, m) as (theta: np.Array) => np.Array;
  return { loss, dispose: () => tree.dispose([G, U, Y, eye]) };
}

Deno.test(
  "case 3: a jitted training block over valueAndGrad of an associativeScan loss",
  async () => {
    const before = memoryStats().liveArrays;
    const results: number[][] = [];
    for (const device of ["webgpu", "cpu"] as const) {
      const { loss, dispose } = makeLoss(12, 2, device);
      type C = { theta: np.Array; m: np.Array; lastLik: np.Array };
      const step = (c: C) => {
        const [lik, g] = valueAndGrad(loss)(c.theta) as [np.Array, np.Array];
        using gl = lik;
        using gg = g;
        using m9 = c.m.mul(0.9);
        using g1 = gg.mul(0.1);
        const m = m9.add(g1);
        using upd = m.mul(0.01);
        return [{ theta: c.theta.sub(upd), m, lastLik: gl.add(0) }, null];
      };
      using theta = np.array([0.8, 0.3], { device });
      using m0 = np.zeros([2], { device });
      using l0 = np.array(0, { device });
      using block = jit((c: C) => lax.scan(step, c, null, { length: 10 })[0]);
      const out = withEvents((events) => {
        const o = block({ theta, m: m0, lastLik: l0 }) as C;
        const web = events.filter((e) => e.backend === "webgpu");
        if (device === "webgpu" && (web.length !== 1 || web[0].path !== "fused")) {
          throw new Error(`paths ${JSON.stringify(web)}`);
        }
        return o;
      });
      results.push([
        ...(await out.theta.data()),
        ...(await out.m.data()),
        ...(await out.lastLik.data()),
      ]);
      tree.dispose(out);
      dispose();
    }
    close(results[0], results[1], 1e-4, "case 3");
    const after = memoryStats().liveArrays;
    if (after !== before) throw new Error(`leaked ${after - before} arrays`);
  },
);
