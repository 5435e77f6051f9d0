// Where the time of a jitted scan call goes on webgpu (Deno): `deno run -A --unstable-webgpu
// bench/scan_costs.ts` (PKG=path/to/index.js picks another build of the package; BENCH_SCAN_N
// the lengths of scan case 2, default 100,400,1600; BENCH_ASSOC_N those of associativeScan
// case 1, default 1600; BENCH_K the calls per batch, default 100). For each workload and
// length, medians of 3 batches of K back-to-back calls then one wait: the host time until
// the last call returns and the total until the wait resolves (per call), the submits,
// dispatches and buffer copies per call (memoryStats), and the GPU time of one call's compute
// passes measured with timestamp queries (each dispatch replayed in a pass of its own, as
// bench/gpu_profile.ts does; copies are not in it). The wait of an idle queue is printed
// first: it is in every batch's total once.
// deno-lint-ignore-file no-explicit-any
const g: any = globalThis;
const AP = g.GPUAdapter.prototype;
const requestDevice = AP.requestDevice;
AP.requestDevice = function (d: any = {}) {
  const timestamps = this.features.has("timestamp-query") ? ["timestamp-query"] : [];
  return requestDevice.call(this, {
    ...d,
    requiredFeatures: [...(d.requiredFeatures ?? []), ...timestamps],
  });
};
let profiling = false;
let querySet: any = null;
let queries = 0;
const EP = g.GPUCommandEncoder.prototype;
const beginComputePass = EP.beginComputePass;
EP.beginComputePass = function (d: any) {
  if (!profiling) return beginComputePass.call(this, d);
  const enc = this;
  const cmds: any[][] = [];
  return new Proxy(
    {},
    {
      get: (_t, k: string) => {
        if (k !== "end") return (...a: any[]) => void cmds.push([k, ...a]);
        return () => {
          let pipe: any = null;
          const groups: any[] = [];
          for (const [m, ...a] of cmds) {
            if (m === "setPipeline") pipe = a[0];
            else if (m === "setBindGroup") groups[a[0]] = a;
            else if (m === "dispatchWorkgroups") {
              const p = beginComputePass.call(enc, {
                timestampWrites: {
                  querySet,
                  beginningOfPassWriteIndex: queries,
                  endOfPassWriteIndex: queries + 1,
                },
              });
              p.setPipeline(pipe);
              for (const b of groups) if (b) p.setBindGroup(...b);
              p.dispatchWorkgroups(...a);
              p.end();
              queries += 2;
            }
          }
        };
      },
    },
  );
};
let device: any = null;
const DP = g.GPUDevice.prototype;
const createCommandEncoder = DP.createCommandEncoder;
DP.createCommandEncoder = function (...a: any[]) {
  device ??= this;
  return createCommandEncoder.apply(this, a);
};
const copyBufferToBuffer = EP.copyBufferToBuffer;
let copies = 0;
EP.copyBufferToBuffer = function (...a: any[]) {
  copies++;
  return copyBufferToBuffer.apply(this, a);
};

const ox: any = await import(Deno.env.get("PKG") ?? "../pkg/index.js");
const { xorshiftFloats: random } = await import("../tests/shared/rng.mjs");
await ox.init();
ox.defaultDevice("webgpu");
const np = ox.numpy;
const K = Number(Deno.env.get("BENCH_K") ?? 100);
const now = () => performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const counters = () => {
  const s = ox.memoryStats().devices.webgpu;
  return { submits: s.submits, dispatches: s.dispatches, copies };
};

/** GPU microseconds of the compute passes of one `call()` (null without timestamps). */
async function gpuTime(call: () => any): Promise<number | null> {
  if (!device?.features.has("timestamp-query")) return null;
  querySet ??= device.createQuerySet({ type: "timestamp", count: 4096 });
  queries = 0;
  profiling = true;
  const out = call();
  profiling = false;
  await out.blockUntilReady();
  out.dispose();
  if (queries === 0) return 0;
  const U = g.GPUBufferUsage;
  const resolved = device.createBuffer({ size: queries * 8, usage: U.QUERY_RESOLVE | U.COPY_SRC });
  const read = device.createBuffer({ size: queries * 8, usage: U.MAP_READ | U.COPY_DST });
  const e = device.createCommandEncoder();
  e.resolveQuerySet(querySet, 0, queries, resolved, 0);
  e.copyBufferToBuffer(resolved, 0, read, 0, queries * 8);
  device.queue.submit([e.finish()]);
  await read.mapAsync(g.GPUMapMode.READ);
  const ts = new BigUint64Array(read.getMappedRange());
  let ns = 0;
  for (let q = 0; q < queries; q += 2) ns += Number(ts[q + 1] - ts[q]);
  read.unmap();
  [resolved, read].forEach((b) => b.destroy());
  return ns / 1000;
}

function inputs(n: number) {
  const A = np
    .array(random(n * 4, 5))
    .mul(0.3)
    .reshape([n, 2, 2]);
  const b = np.array(random(n * 2, 6)).reshape([n, 2, 1]);
  const S = np
    .array(random(n * 4, 7))
    .mul(0.1)
    .reshape([n, 2, 2]);
  return { A, b, S };
}
const step = (c: any, x: any) => {
  const At = np.matrixTranspose(x.A);
  const r = np.matmul(At, c.r).add(x.b);
  const N = np.matmul(np.matmul(At, c.N), x.A).add(x.S);
  return [{ r, N }, r];
};
const compose = (a: any, b: any) => {
  const At = np.matrixTranspose(b.A);
  const A = np.matmul(b.A, a.A);
  const bb = np.matmul(b.A, a.b).add(b.b);
  const S = np.matmul(np.matmul(b.A, a.S), At).add(b.S);
  return { A, b: bb, S };
};
const scan = ox.jit((i: any, xs: any) => ox.lax.scan(step, i, xs, { reverse: true }));
const assoc = ox.jit((x: any) => ox.lax.associativeScan(compose, x));
// valueAndGrad of a loss over case 2's scan (θ scales A and S): its backward pass is a
// √N-checkpointed scan over segments running nested scans.
const gradCase2 = ox.jit(
  ox.valueAndGrad((t: any, e: any) => {
    const As = e.A.mul(t.slice(0));
    const Ss = e.S.mul(t.slice(1));
    const [c, rs] = ox.lax.scan(
      step,
      { r: r0, N: N0 },
      { A: As, b: e.b, S: Ss },
      { reverse: true },
    );
    return np.sum(c.N).add(np.sum(rs));
  }),
);
const theta = np.array([0.9, 1.1]);
const r0 = np.zeros([2, 1]);
const N0 = np.zeros([2, 2]);
const lengths = (name: string, d: string) => (Deno.env.get(name) ?? d).split(",").map(Number);
const cases: [string, number, (e: any) => any][] = [
  ...lengths("BENCH_SCAN_N", "100,400,1600").map(
    (n) =>
      [
        "scan case 2",
        n,
        (e: any) => {
          const [c, rs] = scan({ r: r0, N: N0 }, e);
          ox.tree.dispose(c);
          return rs;
        },
      ] as [string, number, (e: any) => any],
  ),
  ...lengths("BENCH_GRAD_N", "1600").map(
    (n) =>
      [
        "jit(valueAndGrad) of scan case 2, checkpointed",
        n,
        (e: any) => {
          const [v, g] = gradCase2(theta, e);
          v.dispose();
          return g;
        },
      ] as [string, number, (e: any) => any],
  ),
  ...lengths("BENCH_ASSOC_N", "1600").map(
    (n) =>
      [
        "associativeScan case 1",
        n,
        (e: any) => {
          const out = assoc(e);
          ox.tree.dispose([out.A, out.b]);
          return out.S;
        },
      ] as [string, number, (e: any) => any],
  ),
];

const idle = r0;
const waits = [];
for (let i = 0; i < 5; i++) {
  const t0 = now();
  await idle.blockUntilReady();
  waits.push(now() - t0);
}
console.log(`wait of an idle queue: ${median(waits).toFixed(3)} ms`);
for (const [name, n, call0] of cases) {
  const e = inputs(n);
  const call = () => call0(e);
  for (let i = 0; i < 3; i++) {
    const w = call();
    await w.blockUntilReady();
    w.dispose();
  }
  const k = name.startsWith("jit(valueAndGrad)") ? Math.min(K, 10) : K;
  const host = [];
  const total = [];
  let c0 = counters();
  let c1 = c0;
  for (let rep = 0; rep < 3; rep++) {
    c0 = counters();
    const t0 = now();
    const outs = [];
    for (let i = 0; i < k; i++) outs.push(call());
    const t1 = now();
    await outs[outs.length - 1].blockUntilReady();
    const t2 = now();
    c1 = counters();
    outs.forEach((o) => o.dispose());
    host.push((t1 - t0) / k);
    total.push((t2 - t0) / k);
  }
  const per = (c: "submits" | "dispatches" | "copies") => ((c1[c] - c0[c]) / k).toFixed(2);
  const gpu = await gpuTime(call);
  console.log(
    `${name} N=${n}: host ${median(host).toFixed(3)} ms/call, total ${median(total).toFixed(3)} ` +
      `ms/call (K=${k}); per call ${per("submits")} submits, ${per("dispatches")} dispatches, ` +
      `${per("copies")} copies; GPU ${gpu === null ? "n/a" : gpu.toFixed(1) + " us"} per call`,
  );
  ox.tree.dispose(e);
}
scan.dispose();
assoc.dispose();
gradCase2.dispose();
ox.tree.dispose([r0, N0, theta]);
Deno.exit(0);
