// A jitted associativeScan on WebGPU in Deno (lavapipe), storage-buffer limit forced to 8:
// case 1 of bench/README.md (Kalman elements (A, b, S), m = 1, 2, 4) and the 3-tuple
// elementwise variant. Up to n = 256 the Kogge–Stone rounds lower to ~10 small kernels per
// round, and the whole jitted program runs as ONE dispatch per call where program/whole.rs's
// caps allow (m = 1 and the 3-tuple variant); m = 2 and 4 (over those caps) run as
// row-partitioned stages (program/stages.rs), fewer than ⌈log₂n⌉ in all (exact counts
// asserted). Longer scans are one lax.scan: issue 22's bound, at most 3 dispatches a call at
// n = 1000 and 1600 (one here), and a new n after the first compiles no shader (the length is a
// parameter of the loop's shader); from n = 4096, three phases over 64 chunks (two scans and the
// kernels around them: the same dispatches at every n). An eager associativeScan (a jit program
// internally) is one dispatch too. Oracle: the same program on the cpu device (forward and, for the scan form,
// reverse). Nothing leaks (arrays and webgpu buffers).
import {
  clearCaches,
  init,
  jit,
  lax,
  memoryStats,
  numpy as np,
  tree,
  valueAndGrad,
} from "../../pkg/index.js";

await init({ maxStorageBuffers: 8, smallOnHost: false });

type Dev = "cpu" | "wasm" | "webgpu";
type Elem = { A: np.Array; b: np.Array; S: np.Array };

const vals = (k: number, s: number, scale: number) =>
  Array.from({ length: k }, (_, i) => scale * Math.sin(1.3 * i + s));

const compose = (a: Elem, b: Elem): Elem => {
  using At = np.matrixTranspose(b.A);
  const A = np.matmul(b.A, a.A);
  using ab = np.matmul(b.A, a.b);
  const bb = ab.add(b.b);
  using aS = np.matmul(b.A, a.S);
  using asa = np.matmul(aS, At);
  const S = asa.add(b.S);
  return { A, b: bb, S };
};

// (a, b, c) ⊕ (d, e, f) = (d·a, d·b + e, d·c + f), elementwise.
const compose3 = (x: np.Array[], y: np.Array[]): np.Array[] => {
  const a = y[0].mul(x[0]);
  using db = y[0].mul(x[1]);
  using dc = y[0].mul(x[2]);
  return [a, db.add(y[1]), dc.add(y[2])];
};

/** Runs `f` (compiled by a first call) once more on `device`: its dispatches and data. */
async function measure(device: Dev, make: () => unknown, f: (e: unknown) => unknown) {
  const e = make();
  tree.dispose(f(e)); // traces and compiles
  const d0 = memoryStats().devices.webgpu?.dispatches ?? 0;
  const out = f(e);
  const dispatches = (memoryStats().devices.webgpu?.dispatches ?? 0) - d0;
  const data: number[] = [];
  for (const leaf of tree.flatten(out as never)[0] as np.Array[]) data.push(...(await leaf.data()));
  tree.dispose([out, e]);
  return { dispatches: device === "webgpu" ? dispatches : 0, data };
}

function kalman(device: Dev, n: number, m: number) {
  const shaped = (v: number[], shape: number[]) => {
    using flat = np.array(v, { device });
    return flat.reshape(shape);
  };
  return () => ({
    A: shaped(vals(n * m * m, 1, 0.4), [n, m, m]),
    b: shaped(vals(n * m, 2, 1), [n, m, 1]),
    S: shaped(vals(n * m * m, 3, 0.1), [n, m, m]),
  });
}

function triple(device: Dev, n: number) {
  return () => [0.9, 1, 0.5].map((s, k) => np.array(vals(n, k, s), { device }));
}

async function check(
  what: string,
  make: (d: Dev) => () => unknown,
  fn: unknown,
  want: number,
  eager = false,
) {
  const before = memoryStats();
  const run = async (device: Dev) => {
    const scan = (e: unknown) => lax.associativeScan(fn as never, e as never);
    const f = eager ? null : jit(scan);
    const out = await measure(device, make(device), f ?? scan);
    f?.dispose();
    return out;
  };
  const web = await run("webgpu");
  const cpu = await run("cpu");
  // `want` is a bound: 1 means exactly one dispatch.
  if (web.dispatches < 1 || web.dispatches > want)
    throw new Error(`${what}: ${web.dispatches} dispatches, want 1..${want}`);
  if (web.data.length !== cpu.data.length) throw new Error(`${what}: lengths differ`);
  web.data.forEach((v, i) => {
    const w = cpu.data[i];
    if (!(Math.abs(v - w) <= 1e-4 * (1 + Math.abs(w))))
      throw new Error(`${what}[${i}]: ${v} vs ${w}`);
  });
  const after = memoryStats();
  if (after.liveArrays !== before.liveArrays) throw new Error(`${what}: leaked arrays`);
  const live = (s: typeof after) => s.devices.webgpu?.liveBuffers ?? 0;
  if (live(after) !== live(before)) throw new Error(`${what}: leaked webgpu buffers`);
}

// [m, n, most dispatches per call]: on GPUs one workgroup's single dispatch wherever its
// kernels and shader fit program/whole.rs's caps; on CPU adapters (lavapipe here) the caps on
// barriers are tighter (their compilers slow down sharply with them), so these programs run as
// row-partitioned stages, at most two per Kogge–Stone round (its body, and its concatenate,
// which runs k rows later and never shares a stage with kernels shifted otherwise): 14 for
// n = 100. n = 1000 and 1600: the scan form, at most 3 (issue 22's bound; one dispatch here).
const CASES: [number, number, number][] = [
  [1, 100, 14],
  [2, 100, 14],
  [4, 100, 14],
  [1, 1000, 3],
  [2, 1000, 3],
  [4, 1000, 3],
  [2, 1600, 3],
];
for (const [m, n, want] of CASES) {
  Deno.test(
    `jit(associativeScan) case 1, m = ${m}, n = ${n}: at most ${want} WebGPU dispatches per call`,
    () => check(`m=${m} n=${n}`, (d) => kalman(d, n, m), compose, want),
  );
}
for (const n of [100, 1000]) {
  Deno.test(
    `jit(associativeScan) of the 3-tuple variant, n = ${n}: one WebGPU dispatch per call`,
    () => check(`3-tuple n=${n}`, (d) => triple(d, n), compose3, 1),
  );
}
// Eager associativeScan runs as a jit program internally (found by structure): the dispatches
// of that program.
Deno.test(
  "eager associativeScan, case 1 (at most two dispatches per round) and the 3-tuple variant (one)",
  async () => {
    await check("eager m=1 n=100", (d) => kalman(d, 100, 1), compose, 14, true);
    await check("eager 3-tuple n=1000", (d) => triple(d, 1000), compose3, 1, true);
  },
);

// The gradient program of case 1 (m = 2, n = 100, jit(valueAndGrad)): 160 kernels, which ran
// as 160 dispatches; as staged dispatches (halos included, at most two per Kogge–Stone round of
// the forward and the backward scan) it takes 31 (bounded here by 32).
Deno.test(
  "jit(valueAndGrad) of case 1, m = 2, n = 100: staged WebGPU dispatches, matches cpu",
  async () => {
    const before = memoryStats();
    const run = async (device: Dev) => {
      const e = kalman(device, 100, 2)() as Elem;
      const loss = (theta: np.Array) => {
        using t0 = theta.slice(0);
        using t1 = theta.slice(1);
        using t2 = theta.slice(2);
        using A = e.A.mul(t0);
        using b = e.b.mul(t1);
        using S = e.S.mul(t2);
        const out = lax.associativeScan(compose as never, { A, b, S } as never) as unknown as Elem;
        using bb = out.b.mul(out.b);
        using ss = out.S.mul(out.S);
        using sb = np.sum(bb);
        using sS = np.sum(ss);
        tree.dispose(out);
        using total = sb.add(sS);
        return total.div(100);
      };
      const f = jit(valueAndGrad(loss));
      using theta = np.array([0.9, 0.5, 0.7], { device });
      tree.dispose(f(theta));
      const d0 = memoryStats().devices.webgpu?.dispatches ?? 0;
      const [v, g] = f(theta) as np.Array[];
      const dispatches = (memoryStats().devices.webgpu?.dispatches ?? 0) - d0;
      const data = [...(await v.data()), ...(await g.data())];
      tree.dispose([v, g, e]);
      f.dispose();
      return { dispatches, data };
    };
    const web = await run("webgpu");
    const cpu = await run("cpu");
    if (!(web.dispatches > 1 && web.dispatches <= 32))
      throw new Error(`${web.dispatches} dispatches, want 2..32`);
    if (web.data.length !== 4) throw new Error(`${web.data.length} values`);
    web.data.forEach((v, i) => {
      const w = cpu.data[i];
      if (!(Math.abs(v - w) <= 1e-4 * (1 + Math.abs(w)))) throw new Error(`[${i}]: ${v} vs ${w}`);
    });
    const after = memoryStats();
    if (after.liveArrays !== before.liveArrays) throw new Error("leaked arrays");
    const live = (s: typeof after) => s.devices.webgpu?.liveBuffers ?? 0;
    if (live(after) !== live(before)) throw new Error("leaked webgpu buffers");
  },
);

// The scan form at new lengths: the first length compiles the loop's shaders, later ones
// (including one of 1,600) compile nothing, one dispatch or a few per scan; results (forward
// and reverse) against cpu.
Deno.test(
  "jit(associativeScan) case 1, m = 2, at new lengths past 256: no new shader",
  async () => {
    clearCaches();
    const before = memoryStats();
    const f = jit((e: unknown) => [
      lax.associativeScan(compose as never, e as never),
      lax.associativeScan(compose as never, e as never, { reverse: true }),
    ]);
    const flat = async (t: unknown) => {
      const out: number[] = [];
      for (const leaf of tree.flatten(t as never)[0] as np.Array[])
        out.push(...(await leaf.data()));
      return out;
    };
    const gpu = () => memoryStats().devices.webgpu!;
    const counts: { n: number; compiles: number; dispatches: number }[] = [];
    for (const n of [300, 1600, 700, 1000]) {
      const e = kalman("webgpu", n, 2)();
      const [c0, d0] = [gpu().shaderCompiles, gpu().dispatches];
      const out = f(e);
      counts.push({ n, compiles: gpu().shaderCompiles - c0, dispatches: gpu().dispatches - d0 });
      const got = await flat(out);
      tree.dispose([out, e]);
      const ec = kalman("cpu", n, 2)();
      const ref = f(ec);
      const want = await flat(ref);
      tree.dispose([ref, ec]);
      got.forEach((v, i) => {
        if (!(Math.abs(v - want[i]) <= 1e-4 * (1 + Math.abs(want[i]))))
          throw new Error(`n=${n} [${i}]: ${v} vs ${want[i]}`);
      });
    }
    f.dispose();
    const all = JSON.stringify(counts);
    if (!(counts[0].compiles > 0)) throw new Error(`first length compiled nothing: ${all}`);
    // Two scans a call (forward and reverse): at most 3 dispatches each.
    for (const c of counts) {
      if (c.dispatches < 2 || c.dispatches > 6) throw new Error(`dispatches: ${all}`);
    }
    for (const c of counts.slice(1)) if (c.compiles !== 0) throw new Error(`compiled: ${all}`);
    const after = memoryStats();
    if (after.liveArrays !== before.liveArrays) throw new Error("leaked arrays");
    const live = (s: typeof after) => s.devices.webgpu?.liveBuffers ?? 0;
    if (live(after) !== live(before)) throw new Error("leaked webgpu buffers");
  },
);

// From 4,096 elements on webgpu: three phases over 64 chunks (a scan over the chunks side by
// side, a scan over their totals, one application of fn per element), forward and reverse,
// against the one-scan form on wasm; the same dispatches at both lengths (the scans' bodies
// do not depend on N).
Deno.test(
  "jit(associativeScan) case 1, m = 2, n = 5000 and 7001: three phases, match wasm",
  async () => {
    const before = memoryStats();
    const flat = async (t: unknown) => {
      const out: number[] = [];
      for (const leaf of tree.flatten(t as never)[0] as np.Array[])
        out.push(...(await leaf.data()));
      return out;
    };
    const calls: number[] = [];
    for (const reverse of [false, true]) {
      const scan = (e: unknown) => lax.associativeScan(compose as never, e as never, { reverse });
      const f = jit(scan);
      const g = jit(scan);
      for (const n of [5000, 7001]) {
        const e = kalman("webgpu", n, 2)();
        tree.dispose(f(e));
        const d0 = memoryStats().devices.webgpu!.dispatches;
        const out = f(e);
        calls.push(memoryStats().devices.webgpu!.dispatches - d0);
        const got = await flat(out);
        const ew = kalman("wasm", n, 2)();
        const ref = g(ew);
        const want = await flat(ref);
        tree.dispose([out, e, ref, ew]);
        got.forEach((v, i) => {
          if (!(Math.abs(v - want[i]) <= 1e-4 * (1 + Math.abs(want[i]))))
            throw new Error(`n=${n} reverse=${reverse} [${i}]: ${v} vs ${want[i]}`);
        });
      }
      f.dispose();
      g.dispose();
    }
    // Two scans, and the layout and the last application of fn around them: 11 here.
    if (calls.some((c) => c !== calls[0] || c < 2 || c > 12)) throw new Error(`${calls}`);
    const after = memoryStats();
    if (after.liveArrays !== before.liveArrays) throw new Error("leaked arrays");
    const live = (s: typeof after) => s.devices.webgpu?.liveBuffers ?? 0;
    if (live(after) !== live(before)) throw new Error("leaked webgpu buffers");
  },
);
