// What keeping every result costs, raw WebGPU (no library): `deno run -A --unstable-webgpu
// bench/kept_results.ts`. K = 50 dispatches of `y = x * 1.5 + 0.5` over 16M float32, then one
// wait, with the outputs (a) one buffer reused, (b) a fresh buffer per dispatch, (c) ranges of
// a few large slabs bound at offsets, (d) buffers created before the timed loop (a pool that
// holds them). Median of 3, host time of the loop and total time to the wait.
// deno-lint-ignore no-explicit-any
type Any = any;
const adapter = await (navigator as Any).gpu.requestAdapter({
  powerPreference: "high-performance",
});
const device = await adapter.requestDevice({
  requiredLimits: {
    maxBufferSize: adapter.limits.maxBufferSize,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
  },
});
const U = (globalThis as Any).GPUBufferUsage;
const now = () => performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const n = Number(Deno.env.get("BENCH_BIG") ?? 1 << 24);
const bytes = 4 * n;
const K = 50;
const usage = U.STORAGE | U.COPY_SRC | U.COPY_DST;
const x = device.createBuffer({ size: bytes, usage });
const module = device.createShaderModule({
  code: `@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>,
    @builtin(num_workgroups) nw: vec3<u32>) {
  let i = g.x + g.y * nw.x * 256u;
  if (i < ${n}u) { y[i] = x[i] * 1.5 + 0.5; }
}`,
});
const pipeline = device.createComputePipeline({ layout: "auto", compute: { module } });
const groups = Math.ceil(n / 256);
const [gx, gy] =
  groups > 65535
    ? [Math.ceil(groups / Math.ceil(groups / 65535)), Math.ceil(groups / 65535)]
    : [groups, 1];
const maxSlab = Math.min(adapter.limits.maxBufferSize, 1 << 30);
const perSlab = Math.max(1, Math.floor(maxSlab / bytes));

async function loop(target: (i: number) => { buffer: Any; offset: number }) {
  const t0 = now();
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  for (let i = 0; i < K; i++) {
    const { buffer, offset } = target(i);
    const bind = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: x } },
        { binding: 1, resource: { buffer, offset, size: bytes } },
      ],
    });
    pass.setBindGroup(0, bind);
    pass.dispatchWorkgroups(gx, gy);
  }
  pass.end();
  device.queue.submit([enc.finish()]);
  const host = now() - t0;
  await device.queue.onSubmittedWorkDone();
  return { host, total: now() - t0 };
}

const report = (name: string, runs: { host: number; total: number }[]) =>
  console.log(
    `${name.padEnd(34)} per dispatch: host ${(median(runs.map((r) => r.host)) / K).toFixed(3)} ms, ` +
      `total ${(median(runs.map((r) => r.total)) / K).toFixed(3)} ms`,
  );

const y = device.createBuffer({ size: bytes, usage });
await loop(() => ({ buffer: y, offset: 0 }));
const reuse = [];
for (let r = 0; r < 3; r++) reuse.push(await loop(() => ({ buffer: y, offset: 0 })));
report("(a) one output reused", reuse);

const fresh = [];
for (let r = 0; r < 3; r++) {
  const made: Any[] = [];
  fresh.push(
    await loop(() => {
      const buffer = device.createBuffer({ size: bytes, usage });
      made.push(buffer);
      return { buffer, offset: 0 };
    }),
  );
  made.forEach((b) => b.destroy());
}
report("(b) fresh buffer per result", fresh);

const slabs = [];
for (let r = 0; r < 3; r++) {
  const made: Any[] = [];
  slabs.push(
    await loop((i) => {
      if (i % perSlab === 0) made.push(device.createBuffer({ size: perSlab * bytes, usage }));
      return { buffer: made[made.length - 1], offset: (i % perSlab) * bytes };
    }),
  );
  made.forEach((b) => b.destroy());
}
report(`(c) slabs of ${perSlab} results`, slabs);

const pooled = [];
const pool: Any[] = [];
for (let i = 0; i < K; i++) pool.push(device.createBuffer({ size: bytes, usage }));
await loop((i) => ({ buffer: pool[i], offset: 0 }));
for (let r = 0; r < 3; r++) pooled.push(await loop((i) => ({ buffer: pool[i], offset: 0 })));
report("(d) buffers pooled before", pooled);
device.destroy();
