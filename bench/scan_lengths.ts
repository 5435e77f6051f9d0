// Shader compilations, dispatches and per-call times of the jitted scan workloads across
// sequence lengths, on oxjax's webgpu device only (`deno run -A --unstable-webgpu
// bench/scan_lengths.ts`; BENCH_LENGTHS sets the lengths, default 100,101,400,1600,1601).
// A new length of a body compiled before should compile nothing. Prints one line per
// workload and length: compiles and dispatches of the first call, compiles of the second,
// and the amortised time of K calls then one wait. PKG= imports another build of the package
// (a path relative to this file, or absolute), to compare two builds one after the other.
import { xorshiftFloats } from "../tests/shared/rng.mjs";

// deno-lint-ignore no-explicit-any
type Any = any;
const ox: Any = await import(
  new URL(Deno.env.get("PKG") ?? "../pkg/index.js", import.meta.url).href
);
const have = await ox.init();
if (!have.includes("webgpu")) throw new Error(`no webgpu (${ox.webgpuUnavailableReason()})`);
ox.defaultDevice("webgpu");
const np = ox.numpy;
const lengths = (Deno.env.get("BENCH_LENGTHS") ?? "100,101,400,1600,1601").split(",").map(Number);
const K = Number(Deno.env.get("BENCH_K") ?? "50");

const random = xorshiftFloats;
function inputs(n: number, m: number) {
  const A = np
    .array(random(n * m * m, 5))
    .mul(0.3)
    .reshape([n, m, m]);
  const b = np.array(random(n * m, 6)).reshape([n, m, 1]);
  const S = np
    .array(random(n * m * m, 7))
    .mul(0.1)
    .reshape([n, m, m]);
  return { A, b, S };
}
const counters = () => {
  const d = ox.memoryStats().devices.webgpu!;
  return { compiles: d.shaderCompiles, dispatches: d.dispatches };
};

const step = (c: Any, x: Any) => {
  const At = np.matrixTranspose(x.A);
  const r = np.matmul(At, c.r).add(x.b);
  const N = np.matmul(np.matmul(At, c.N), x.A).add(x.S);
  return [{ r, N }, r];
};
const compose = (a: Any, b: Any) => {
  const At = np.matrixTranspose(b.A);
  const A = np.matmul(b.A, a.A);
  const bb = np.matmul(b.A, a.b).add(b.b);
  const S = np.matmul(np.matmul(b.A, a.S), At).add(b.S);
  return { A, b: bb, S };
};
const scan = ox.jit((i: Any, xs: Any) => ox.lax.scan(step, i, xs, { reverse: true }));
const assoc = ox.jit((x: Any) => ox.lax.associativeScan(compose, x));
const workloads: [string, (e: Any) => Any][] = [
  [
    "scan case 2 (RTS reverse, jit) m=2",
    (e) => {
      const [c, rs] = scan({ r: np.zeros([2, 1]), N: np.zeros([2, 2]) }, e) as Any;
      ox.tree.dispose(c);
      return rs;
    },
  ],
  [
    "associativeScan case 1 (jit) m=2",
    (e) => {
      const out = assoc(e) as Any;
      ox.tree.dispose([out.A, out.b]);
      return out.S;
    },
  ],
];
for (const [name, call] of workloads) {
  for (const n of lengths) {
    const e = inputs(n, 2);
    const c0 = counters();
    const t0 = performance.now();
    const first = call(e);
    await first.blockUntilReady();
    const t1 = performance.now();
    const c1 = counters();
    first.dispose();
    const second = call(e);
    await second.blockUntilReady();
    second.dispose();
    const c2 = counters();
    const outs = [];
    const t2 = performance.now();
    for (let k = 0; k < K; k++) outs.push(call(e));
    await Promise.all(outs.map((o) => o.blockUntilReady()));
    const t3 = performance.now();
    outs.forEach((o) => o.dispose());
    ox.tree.dispose(e);
    console.log(
      `${name} N=${n}: first call ${(t1 - t0).toFixed(1)} ms, ${c1.compiles - c0.compiles} compiles, ` +
        `${c2.dispatches - c1.dispatches} dispatches per call; second call ${c2.compiles - c1.compiles} ` +
        `compiles; ${((t3 - t2) / K).toFixed(3)} ms per call (K=${K})`,
    );
  }
}
scan.dispose();
assoc.dispose();
