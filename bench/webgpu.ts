// WebGPU benchmarks in Deno (`deno run -A --unstable-webgpu bench/webgpu.ts [filter]`): the
// same workloads on oxjax (../pkg) and upstream jax-js (@jax-js/jax, path in JAXJS or
// ../node_modules) on the `webgpu` device, one process. GPU work is timed as K back-to-back
// calls followed by one wait for all results (blockUntilReady), divided by K; the first call
// (compilation) is excluded. The raw WebGPU copy-and-mapAsync round trip is measured too: it
// is the floor under every single read in Deno. Prints a markdown table and `BENCH_JSON {...}`.
import * as ox from "../pkg/index.js";
import { wasm } from "../pkg/bridge.js";
import { xorshiftFloats } from "../tests/shared/rng.mjs";

// deno-lint-ignore no-explicit-any
type Any = any;
const jaxPath = Deno.env.get("JAXJS") ?? "../node_modules/@jax-js/jax/dist/index.js";
const jax: Any = await import(new URL(jaxPath, import.meta.url).href);
const filter = Deno.args[0] ?? "";

const oxDevices = await ox.init();
if (!oxDevices.includes("webgpu"))
  throw new Error(`oxjax: no webgpu (${ox.webgpuUnavailableReason()})`);
ox.defaultDevice("webgpu");
// OXJAX_WIDE=1 (or 0): elementwise kernels in the wide form (four elements per invocation),
// or not, through the test hook; unset: the library's default.
const wide = Deno.env.get("OXJAX_WIDE");
if (wide !== undefined) wasm.debugWideElementwise(wide === "1");
await jax.init("webgpu");
jax.defaultDevice("webgpu");

const now = () => performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The raw floor: copy 4 bytes into a mappable buffer and map it, median of 30. */
async function mapAsyncFloor(): Promise<number> {
  const adapter = await (navigator as Any).gpu.requestAdapter();
  const device = await adapter.requestDevice();
  const GPUBufferUsage = (globalThis as Any).GPUBufferUsage;
  const GPUMapMode = (globalThis as Any).GPUMapMode;
  const src = device.createBuffer({
    size: 4,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  const times = [];
  for (let i = 0; i < 30; i++) {
    const t0 = now();
    const dst = device.createBuffer({
      size: 4,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, dst, 0, 4);
    device.queue.submit([enc.finish()]);
    await dst.mapAsync(GPUMapMode.READ);
    dst.unmap();
    dst.destroy();
    times.push(now() - t0);
  }
  device.destroy();
  return median(times);
}

const random = xorshiftFloats;

interface Lib {
  name: string;
  np: Any;
  /** Keeps an input alive across a consuming call (jax-js) or not (oxjax). */
  keep: (x: Any) => Any;
  block: (xs: Any[]) => Promise<unknown>;
  free: (x: Any) => void;
}
const libs: Lib[] = [
  {
    name: "oxjax",
    np: ox.numpy,
    keep: (x) => x,
    // One queue, in order: when the last result is ready, so are the others.
    block: (xs) => xs[xs.length - 1].blockUntilReady(),
    free: (x) => x.dispose(),
  },
  {
    name: "jax-js",
    np: jax.numpy,
    keep: (x) => x.ref,
    // jax-js is lazy: each result's pending kernels are submitted when it is waited for.
    block: (xs) => Promise.all(xs.map((x: Any) => x.blockUntilReady())),
    free: (x) => x.dispose(),
  },
];

interface Workload {
  name: string;
  k: number;
  /** Free each result before the next call (buffers come back from the pool). */
  steady?: boolean;
  flops?: number;
  bytes?: number;
  /** Builds inputs; returns one call (producing an array) and a cleanup. */
  setup(lib: Lib): { call(): Any; free(): void };
}

const workloads: Workload[] = [];
// Smaller sizes for a smoke run on a CPU adapter: BENCH_SIZES=64,128 BENCH_BIG=65536.
const SIZES = (Deno.env.get("BENCH_SIZES") ?? "1024,2048,4096").split(",").map(Number);
for (const n of SIZES) {
  workloads.push({
    name: `matmul ${n}`,
    k: n === 4096 ? 10 : n === 2048 ? 40 : 100,
    flops: 2 * n * n * n,
    setup(lib) {
      const a = lib.np.array(random(n * n, 1)).reshape([n, n]);
      const b = lib.np.array(random(n * n, 2)).reshape([n, n]);
      return {
        call: () => lib.np.matmul(lib.keep(a), lib.keep(b)),
        free: () => (lib.free(a), lib.free(b)),
      };
    },
  });
}
// A 3×3 SAME convolution, batch 8, 64 → 64 channels on 56×56 (a ResNet stage's shape).
{
  const [n, c, hw] = (Deno.env.get("BENCH_CONV") ?? "8,64,56").split(",").map(Number);
  workloads.push({
    name: `conv 3x3 ${n}x${c}x${hw}x${hw}`,
    k: 20,
    flops: 2 * n * c * hw * hw * c * 9,
    setup(lib) {
      const lax = lib.name === "oxjax" ? ox.lax : jax.lax;
      const x = lib.np.array(random(n * c * hw * hw, 5)).reshape([n, c, hw, hw]);
      const w = lib.np.array(random(c * c * 9, 6)).reshape([c, c, 3, 3]);
      return {
        call: () => lax.conv(lib.keep(x), lib.keep(w), [1, 1], "SAME"),
        free: () => (lib.free(x), lib.free(w)),
      };
    },
  });
}
const BIG = Number(Deno.env.get("BENCH_BIG") ?? 1 << 24);
workloads.push({
  name: `chain (x*1.5+0.5)*x-2 on ${BIG} (eager, 4 ops)`,
  k: 50,
  bytes: 2 * 4 * BIG,
  setup(lib) {
    const x = lib.np.array(random(BIG, 3));
    return {
      call() {
        const a = lib.keep(x).mul(1.5);
        const b = a.add(0.5);
        if (lib.name === "oxjax") a.dispose();
        const c = b.mul(lib.keep(x));
        if (lib.name === "oxjax") b.dispose();
        const d = c.sub(2);
        if (lib.name === "oxjax") c.dispose();
        return d;
      },
      free: () => lib.free(x),
    };
  },
});
workloads.push({
  name: `chain (x*1.5+0.5)*x-2 on ${BIG} (jit)`,
  k: 50,
  bytes: 2 * 4 * BIG,
  setup(lib) {
    const x = lib.np.array(random(BIG, 3));
    const f =
      lib.name === "oxjax"
        ? ox.jit((t: Any) => t.mul(1.5).add(0.5).mul(t).sub(2))
        : jax.jit((t: Any) => t.ref.mul(1.5).add(0.5).mul(t).sub(2));
    return {
      call: () => f(lib.keep(x)),
      free: () => {
        lib.free(x);
        if (lib.name === "oxjax") f.dispose();
      },
    };
  },
});
workloads.push({
  name: `chain (x*1.5+0.5)*x-2 on ${BIG} (jit, steady state: each result freed, oxjax only)`,
  k: 50,
  bytes: 2 * 4 * BIG,
  steady: true,
  setup(lib) {
    if (lib.name !== "oxjax") throw new Error("skipped (lazy arrays freed unread never run)");
    const x = lib.np.array(random(BIG, 3));
    const f = ox.jit((t: Any) => t.mul(1.5).add(0.5).mul(t).sub(2));
    return { call: () => f(x), free: () => (lib.free(x), f.dispose()) };
  },
});
workloads.push({
  name: `sum of ${BIG}`,
  k: 200,
  bytes: 4 * BIG,
  setup(lib) {
    const x = lib.np.array(random(BIG, 4));
    return { call: () => lib.np.sum(lib.keep(x)), free: () => lib.free(x) };
  },
});
workloads.push({
  name: "1000 dependent adds [4] + read",
  k: 1,
  setup(lib) {
    const x0 = lib.np.array(new Float32Array([1, 2, 3, 4]));
    const y = lib.np.array(new Float32Array([0.5, 0.25, -1, 2]));
    return {
      call() {
        let x = lib.keep(x0);
        for (let i = 0; i < 1000; i++) {
          const next = x.add(lib.keep(y));
          if (lib.name === "oxjax" && i > 0) x.dispose();
          x = next;
        }
        return x;
      },
      free: () => (lib.free(x0), lib.free(y)),
    };
  },
});

// Case 2 (bench/README.md): an RTS-style reverse lax.scan under jit, m = 2 (oxjax only:
// jax-js has no lax.scan); and associativeScan case 1 forward (Kalman composition).
const ONLY_OX = (lib: Lib) => {
  if (lib.name !== "oxjax") throw new Error("skipped (no lax.scan / associativeScan)");
};
function rtsInputs(n: number, m: number) {
  const A = ox.numpy
    .array(random(n * m * m, 5))
    .mul(0.3)
    .reshape([n, m, m]);
  const b = ox.numpy.array(random(n * m, 6)).reshape([n, m, 1]);
  const S = ox.numpy
    .array(random(n * m * m, 7))
    .mul(0.1)
    .reshape([n, m, m]);
  return { A, b, S };
}
for (const n of (Deno.env.get("BENCH_SCAN_N") ?? "100,400,1600").split(",").map(Number)) {
  workloads.push({
    name: `scan case 2 (RTS reverse, jit) m=2 N=${n}`,
    k: 100,
    setup(lib) {
      ONLY_OX(lib);
      const m = 2;
      const e = rtsInputs(n, m);
      const r0 = ox.numpy.zeros([m, 1]);
      const N0 = ox.numpy.zeros([m, m]);
      const step = (c: Any, x: Any) => {
        const At = ox.numpy.matrixTranspose(x.A);
        const atr = ox.numpy.matmul(At, c.r);
        const r = atr.add(x.b);
        const atn = ox.numpy.matmul(At, c.N);
        const N = ox.numpy.matmul(atn, x.A).add(x.S);
        return [{ r, N }, r];
      };
      const f = ox.jit((i: Any, xs: Any) => ox.lax.scan(step, i, xs, { reverse: true }));
      return {
        call() {
          const [c, rs] = f({ r: r0, N: N0 }, e) as Any;
          ox.tree.dispose(c);
          return rs;
        },
        free: () => (ox.tree.dispose([e, r0, N0]), f.dispose()),
      };
    },
  });
}
// BENCH_ASSOC_N: the sizes of the jitted associativeScan (default 1600 only).
for (const n of (Deno.env.get("BENCH_ASSOC_N") ?? "1600").split(",").map(Number)) {
  workloads.push({
    name: `associativeScan case 1 (Kalman compose, jit, forward) m=2 N=${n}`,
    k: 50,
    setup(lib) {
      ONLY_OX(lib);
      const e = rtsInputs(n, 2);
      const compose = (a: Any, b: Any) => {
        const At = ox.numpy.matrixTranspose(b.A);
        const A = ox.numpy.matmul(b.A, a.A);
        const bb = ox.numpy.matmul(b.A, a.b).add(b.b);
        const S = ox.numpy.matmul(ox.numpy.matmul(b.A, a.S), At).add(b.S);
        return { A, b: bb, S };
      };
      const f = ox.jit((x: Any) => ox.lax.associativeScan(compose, x));
      return {
        call() {
          const out = f(e) as Any;
          ox.tree.dispose([out.A, out.b]);
          return out.S;
        },
        free: () => (ox.tree.dispose(e), f.dispose()),
      };
    },
  });
}

async function time(w: Workload, lib: Lib) {
  const { call, free } = w.setup(lib);
  // Warm-up (compiles) and a single call + full read, also used as the cross-check value.
  const first = call();
  const t0 = now();
  const data = await (lib.name === "jax-js" ? first.ref.data() : first.data());
  lib.free(first);
  const t1 = now();
  const warm = call();
  await lib.block([warm]);
  lib.free(warm);
  const single = [];
  for (let rep = 0; rep < 3; rep++) {
    const s0 = now();
    const one = call();
    await (lib.name === "jax-js" ? one.ref.data() : one.data());
    lib.free(one);
    single.push(now() - s0);
  }
  // Workloads whose single call is slow (> 200 ms) get only 3 back-to-back calls.
  const k = median(single) > 200 ? Math.min(3, w.k) : w.k;
  const samples = [];
  for (let rep = 0; rep < 3; rep++) {
    const s0 = now();
    let outs = [];
    for (let i = 0; i < k; i++) {
      outs.push(call());
      if (w.steady && outs.length > 1) lib.free(outs.shift());
    }
    await lib.block(outs);
    samples.push(now() - s0);
    outs.forEach((o) => lib.free(o));
    outs = [];
  }
  free();
  const total = median(samples);
  return {
    k,
    amortised: total / k,
    // Without the one wait's mapAsync round trip (the floor measured below).
    lessFloor: Math.max(0, total - floorMs) / k,
    single: median(single),
    firstRead: t1 - t0,
    data,
  };
}

/**
 * The platform's own elementwise rate: a raw WGSL kernel `y = x * 1.5 + 0.5` over 16M f32
 * (no library), K = 50 dispatches then one wait, for workgroup sizes 64 and 256.
 */
async function rawElementwise(): Promise<Record<string, number>> {
  const adapter = await (navigator as Any).gpu.requestAdapter();
  const device = await adapter.requestDevice();
  const U = (globalThis as Any).GPUBufferUsage;
  const n = BIG;
  const x = device.createBuffer({ size: 4 * n, usage: U.STORAGE | U.COPY_DST });
  const y = device.createBuffer({ size: 4 * n, usage: U.STORAGE | U.COPY_SRC });
  const out: Record<string, number> = {};
  for (const wg of [64, 256]) {
    const module = device.createShaderModule({
      code: `@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(${wg}) fn main(@builtin(global_invocation_id) g: vec3<u32>,
    @builtin(num_workgroups) n: vec3<u32>) {
  let i = g.x + g.y * n.x * ${wg}u;
  if (i < ${n}u) { y[i] = x[i] * 1.5 + 0.5; }
}`,
    });
    const pipeline = device.createComputePipeline({ layout: "auto", compute: { module } });
    const bind = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: x } },
        { binding: 1, resource: { buffer: y } },
      ],
    });
    const groups = Math.ceil(n / wg);
    const [gx, gy] = groups > 65535 ? [65535, Math.ceil(groups / 65535)] : [groups, 1];
    const run = async (k: number) => {
      const t0 = now();
      const enc = device.createCommandEncoder();
      for (let i = 0; i < k; i++) {
        const pass = enc.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bind);
        pass.dispatchWorkgroups(gx, gy);
        pass.end();
      }
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
      return (now() - t0) / k;
    };
    await run(2);
    out[`wg${wg}`] = median([await run(50), await run(50), await run(50)]);
  }
  device.destroy();
  return out;
}

const floorMs = await mapAsyncFloor();
console.log(`mapAsync floor (copy 4 bytes + map): ${floorMs.toFixed(2)} ms`);
const raw = filter === "" || filter === "raw" ? await rawElementwise() : {};
for (const [wg, t] of Object.entries(raw)) {
  console.log(
    `raw WGSL y = x*1.5+0.5 on ${BIG} f32, ${wg}: ${t.toFixed(3)} ms (${((8 * BIG) / t / 1e6).toFixed(0)} GB/s)`,
  );
}
const rows: Any[] = [];
for (const w of workloads) {
  if (!w.name.includes(filter)) continue;
  const r: Any = { name: w.name };
  for (const lib of libs) {
    try {
      r[lib.name] = await time(w, lib);
    } catch (e) {
      r[lib.name] = { error: String(e) };
    }
  }
  const [a, b] = [r.oxjax?.data, r["jax-js"]?.data];
  if (a && b) {
    let num = 0,
      den = 0;
    for (let i = 0; i < a.length; i++) {
      num += (a[i] - b[i]) ** 2;
      den += b[i] ** 2;
    }
    r.relDiff = Math.sqrt(num / Math.max(den, 1e-30));
  }
  for (const lib of libs) if (r[lib.name]) delete r[lib.name].data;
  rows.push(r);
  const fmt = (x: Any) => {
    if (!x || x.error) return x?.error ?? "-";
    // t in ms: flops / (t / 1e3) / 1e9 = flops / t / 1e6.
    const t = x.amortised;
    const rate = w.flops
      ? `${(w.flops / t / 1e6).toFixed(0)} GFLOP/s`
      : w.bytes
        ? `${(w.bytes / t / 1e6).toFixed(0)} GB/s`
        : "";
    return `${t.toFixed(3)} ms ${rate} (K=${x.k}; less floor ${x.lessFloor.toFixed(3)} ms; 1 call+read ${x.single.toFixed(1)} ms)`;
  };
  const ratio =
    r.oxjax?.amortised && r["jax-js"]?.amortised ? r.oxjax.amortised / r["jax-js"].amortised : NaN;
  console.log(
    `| ${w.name} | ${fmt(r.oxjax)} | ${fmt(r["jax-js"])} | ${ratio.toFixed(3)} | ${r.relDiff?.toExponential(1)} |`,
  );
}
// Dispatches per call of the oxjax scan workloads (memoryStats counters), one call after a
// warm-up: case 2 is one dispatch per scan, a jitted associativeScan one per program.
for (const w of workloads) {
  if (!w.name.includes(filter) || !/scan/i.test(w.name)) continue;
  try {
    const { call, free } = w.setup(libs[0]);
    libs[0].free(call());
    const d0 = ox.memoryStats().devices.webgpu?.dispatches ?? 0;
    const out = call();
    const d = (ox.memoryStats().devices.webgpu?.dispatches ?? 0) - d0;
    await out.blockUntilReady();
    libs[0].free(out);
    free();
    console.log(`dispatches per call: ${w.name}: ${d}`);
  } catch (e) {
    console.log(`dispatches per call: ${w.name}: ${e}`);
  }
}

const adapter = await (navigator as Any).gpu.requestAdapter();
console.log(`BENCH_JSON ${JSON.stringify({ adapter: adapter?.info ?? null, floorMs, raw, rows })}`);
