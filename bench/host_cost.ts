// Host cost of the webgpu path in Deno: `deno run -A --unstable-webgpu bench/host_cost.ts
// [eager|kept|raw]` (PKG=path/to/index.js picks another build of the package).
// (1) eager: 1,000 dependent small eager adds, then one read; (2) kept: K calls of a jitted
// chain on BENCH_BIG f32 (default 16M), every result kept, then one wait; (3) raw: the same
// 1,000 dependent adds written directly against WebGPU (two buffers in turn, 64 dispatches per
// submit), the platform's floor for case 1. Each prints the host time until the last op
// returns, the part of it spent inside WebGPU's `submit` and `finish` (wrapped and timed; a
// CPU adapter such as lavapipe runs the work inside `submit`), the total until the read or
// wait resolves, and the device counters the case adds — medians of ROUNDS rounds.
// BENCH_COUNT_CALLS=1 also counts the per-dispatch WebGPU calls (wrapping them costs time).
// deno-lint-ignore-file no-explicit-any
const G = globalThis as any;
const calls: Record<string, number> = {};
const inside: Record<string, number> = { submit: 0, finish: 0 };
for (const [proto, names] of [
  [G.GPUQueue.prototype, ["submit"]],
  [G.GPUCommandEncoder.prototype, ["finish"]],
  ...(Deno.env.get("BENCH_COUNT_CALLS")
    ? [
        [G.GPUComputePassEncoder.prototype, ["setPipeline", "setBindGroup", "dispatchWorkgroups"]],
        [G.GPUDevice.prototype, ["createBindGroup", "createBuffer"]],
      ]
    : []),
] as [any, string[]][]) {
  for (const name of names) {
    const f = proto[name];
    proto[name] = function (...args: unknown[]) {
      calls[name] = (calls[name] ?? 0) + 1;
      if (!(name in inside)) return f.apply(this, args);
      const t0 = performance.now();
      const out = f.apply(this, args);
      inside[name] += performance.now() - t0;
      return out;
    };
  }
}
const ox = await import(Deno.env.get("PKG") ?? "../pkg/index.js");
await ox.init();
ox.defaultDevice("webgpu");
const np = ox.numpy;
const now = () => performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ROUNDS = Number(Deno.env.get("ROUNDS") ?? 9);
const BIG = Number(Deno.env.get("BENCH_BIG") ?? 1 << 24);
const K = Number(Deno.env.get("BENCH_K") ?? 50);
const snapshot = () => {
  const s = ox.memoryStats().devices.webgpu;
  return { ...calls, ...inside, dispatches: s.dispatches, submits: s.submits } as any;
};
const delta = (a: any, b: any) =>
  Object.fromEntries(
    Object.keys(b)
      .filter((k) => !(k in inside))
      .map((k) => [k, b[k] - (a[k] ?? 0)]),
  );

/** What `mark` saw when the last op returned: the time and the time inside WebGPU so far. */
let marked = { at: 0, submit: 0, finish: 0 };
const mark = () => (marked = { at: now(), ...inside });

/** Runs `round` ROUNDS + 1 times (the first warms up; each calls `mark` after its last op). */
async function measure(name: string, per: number, round: () => Promise<void>) {
  const rows: Record<string, number[]> = { host: [], submit: [], finish: [], total: [] };
  let counts = {};
  for (let r = 0; r <= ROUNDS; r++) {
    const before = snapshot();
    const t0 = now();
    await round();
    const total = now() - t0;
    counts = delta(before, snapshot());
    if (r === 0) continue;
    rows.host.push((marked.at - t0) / per);
    rows.submit.push((marked.submit - before.submit) / per);
    rows.finish.push((marked.finish - before.finish) / per);
    rows.total.push(total / per);
  }
  const ms = (k: string) => median(rows[k]).toFixed(4);
  const less = median(rows.host.map((h, i) => h - rows.submit[i])).toFixed(4);
  console.log(
    `${name}: host ${ms("host")} ms (${less} outside submit; in finish ${ms("finish")}), ` +
      `total ${ms("total")} ms per ${per === 1 ? "round" : "call"}; counts per round ${JSON.stringify(counts)}`,
  );
}

const xs = new Float32Array([1, 2, 3, 4]);
const ys = new Float32Array([0.5, 0.25, -1, 2]);
const want = xs.map((x, i) => x + 1000 * ys[i]);
const check = (got: Float32Array, label: string) => {
  if (got.some((v, i) => v !== want[i])) throw new Error(`${label}: ${got} != ${want}`);
};

async function eager() {
  const x0 = np.array(xs);
  const y = np.array(ys);
  await measure("1000 dependent eager adds [4] + read", 1, async () => {
    let x = x0;
    for (let i = 0; i < 1000; i++) {
      const next = x.add(y);
      if (i > 0) x.dispose();
      x = next;
    }
    mark();
    check(await x.data(), "eager");
    x.dispose();
  });
  x0.dispose();
  y.dispose();
}

async function kept() {
  const x = np.array(new Float32Array(BIG).map((_, i) => (i % 1000) / 1000));
  const f = ox.jit((t: any) => t.mul(1.5).add(0.5).mul(t).sub(2));
  await measure(`jit chain on ${BIG} f32, ${K} results kept`, K, async () => {
    const outs = [];
    for (let i = 0; i < K; i++) outs.push(f(x));
    mark();
    await outs[K - 1].blockUntilReady();
    outs.forEach((o: any) => o.dispose());
  });
  x.dispose();
  f.dispose();
}

async function raw() {
  const adapter = await G.navigator.gpu.requestAdapter();
  const device = await adapter.requestDevice();
  const U = G.GPUBufferUsage;
  const usage = U.STORAGE | U.COPY_SRC | U.COPY_DST;
  const make = (data: Float32Array) => {
    const b = device.createBuffer({ size: 256, usage });
    device.queue.writeBuffer(b, 0, data);
    return b;
  };
  const [x0, y] = [make(xs), make(ys)];
  const ab = [device.createBuffer({ size: 256, usage }), device.createBuffer({ size: 256, usage })];
  const module = device.createShaderModule({
    code: `@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x < 4u) { out[g.x] = a[g.x] + b[g.x]; }
}`,
  });
  const pipeline = device.createComputePipeline({ layout: "auto", compute: { module } });
  const group = (a: any, out: any) =>
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [a, y, out].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  const groups = [group(x0, ab[0]), group(ab[0], ab[1]), group(ab[1], ab[0])];
  const staging = device.createBuffer({ size: 16, usage: U.MAP_READ | U.COPY_DST });
  await measure("raw WebGPU: 1000 dependent adds [4] + read", 1, async () => {
    let encoder = device.createCommandEncoder();
    let pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    for (let i = 0; i < 1000; i++) {
      pass.setBindGroup(0, groups[i === 0 ? 0 : 1 + ((i - 1) % 2)]);
      pass.dispatchWorkgroups(1);
      if ((i + 1) % 64 === 0) {
        pass.end();
        device.queue.submit([encoder.finish()]);
        encoder = device.createCommandEncoder();
        pass = encoder.beginComputePass();
        pass.setPipeline(pipeline);
      }
    }
    mark();
    pass.end();
    encoder.copyBufferToBuffer(ab[999 % 2], 0, staging, 0, 16);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(G.GPUMapMode.READ);
    check(new Float32Array(staging.getMappedRange().slice(0)), "raw");
    staging.unmap();
  });
  device.destroy();
}

const which = Deno.args[0] ?? "";
const base = ox.memoryStats();
if (which === "" || which === "eager") await eager();
if (which === "" || which === "raw") await raw();
if (which === "" || which === "kept") await kept();
const after = ox.memoryStats();
console.log(
  `leaks: live arrays ${base.liveArrays} → ${after.liveArrays}, ` +
    `webgpu live bytes ${base.devices.webgpu.liveBytes} → ${after.devices.webgpu.liveBytes}`,
);
