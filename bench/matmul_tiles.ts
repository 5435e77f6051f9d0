// Tile shapes of the tiled WGSL matrix product, raw (no library): `deno run -A
// --unstable-webgpu bench/matmul_tiles.ts DIR` times every `mm_N_*_X_Y.wgsl` in DIR (shaders
// of an N×N by N×N product dispatched as X × Y workgroups, two bindings in and one out, as
// `cargo run --example matmul_wgsl -- DIR 1024 2048 4096` writes them). Each is run K times
// in one submission, then one wait (median of 3), and its result is compared with the product
// computed in float64 on the host (every 97th element; error relative to Σ|a·b|). The device
// is opened with `subgroups` where it gets them.
// deno-lint-ignore no-explicit-any
type Any = any;
const dir = Deno.args[0] ?? ".";
// Deno lists no `subgroups` among the adapter's features but grants them: ask, and ask again
// (a new adapter) without them where the request fails.
const open = async (features: string[]) => {
  const adapter = await (navigator as Any).gpu.requestAdapter({
    powerPreference: "high-performance",
  });
  const device = await adapter.requestDevice({
    requiredFeatures: features,
    requiredLimits: {
      maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize,
      maxBufferSize: adapter.limits.maxBufferSize,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    },
  });
  return { adapter, device };
};
const { adapter, device } = await open(["subgroups"]).catch(() => open([]));
const U = (globalThis as Any).GPUBufferUsage;
const now = () => performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`adapter: ${adapter.info?.description ?? adapter.info?.device ?? "?"}`);
console.log(`adapter features: ${[...adapter.features].sort().join(", ")}`);
console.log(`device features: ${[...device.features].sort().join(", ")}`);
console.log(
  `subgroup sizes ${adapter.info?.subgroupMinSize}..${adapter.info?.subgroupMaxSize}, workgroup storage ${adapter.limits.maxComputeWorkgroupStorageSize} B`,
);

async function readF32(buf: Any, bytes: number): Promise<Float32Array> {
  const dst = device.createBuffer({ size: bytes, usage: U.MAP_READ | U.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buf, 0, dst, 0, bytes);
  device.queue.submit([enc.finish()]);
  await dst.mapAsync(1);
  const out = new Float32Array(dst.getMappedRange().slice(0));
  dst.destroy();
  return out;
}

const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((f) => f.endsWith(".wgsl"));
files.sort();
const bySize = new Map<number, string[]>();
for (const f of files) {
  const n = Number(f.split("_")[1]);
  bySize.set(n, [...(bySize.get(n) ?? []), f]);
}
for (const [n, group] of bySize) {
  const bytes = 4 * n * n;
  const init = new Float32Array(n * n);
  for (let i = 0; i < n * n; i++) init[i] = ((i * 2654435761) % 1000) / 500 - 1;
  const a = device.createBuffer({ size: bytes, usage: U.STORAGE | U.COPY_DST });
  const b = device.createBuffer({ size: bytes, usage: U.STORAGE | U.COPY_DST });
  const c = device.createBuffer({ size: bytes, usage: U.STORAGE | U.COPY_SRC });
  const initB = init.slice().reverse();
  device.queue.writeBuffer(a, 0, init);
  device.queue.writeBuffer(b, 0, initB);
  // Every 97th element of the product in float64, and Σ|a·b| for its tolerance.
  const sample: [number, number, number][] = [];
  for (let i = 0; i < n * n; i += 97) {
    const [r, col] = [Math.floor(i / n), i % n];
    let [sum, abs] = [0, 0];
    for (let kk = 0; kk < n; kk++) {
      const p = init[r * n + kk] * initB[kk * n + col];
      sum += p;
      abs += Math.abs(p);
    }
    sample.push([i, sum, abs]);
  }
  const zeros = new Float32Array(n * n);
  const k = n >= 4096 ? 10 : n >= 2048 ? 40 : n >= 1024 ? 100 : 3;
  for (const f of group) {
    const parts = f.replace(".wgsl", "").split("_");
    const [x, y] = [Number(parts[parts.length - 2]), Number(parts[parts.length - 1])];
    const code = Deno.readTextFileSync(`${dir}/${f}`);
    let pipeline;
    try {
      device.pushErrorScope("validation");
      const module = device.createShaderModule({ code });
      const invalid = await device.popErrorScope();
      if (invalid) throw new Error(invalid.message.trim().split("\n").slice(0, 3).join(" "));
      pipeline = await device.createComputePipelineAsync({ layout: "auto", compute: { module } });
    } catch (e) {
      console.log(`${f}: ${e}`);
      continue;
    }
    const bind = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [a, b, c].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    const run = async (times: number) => {
      const t0 = now();
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bind);
      for (let i = 0; i < times; i++) pass.dispatchWorkgroups(x, y);
      pass.end();
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
      return (now() - t0) / times;
    };
    device.queue.writeBuffer(c, 0, zeros);
    await run(2);
    const t = median([await run(k), await run(k), await run(k)]);
    const got = await readF32(c, bytes);
    let err = 0;
    for (const [i, sum, abs] of sample) err = Math.max(err, Math.abs(got[i] - sum) / abs);
    const tflops = (2 * n * n * n) / t / 1e9;
    console.log(
      `${f.padEnd(44)} ${t.toFixed(3)} ms ${tflops.toFixed(1)} TFLOP/s (error / Σ|a·b|: ${err.toExponential(1)})`,
    );
  }
  [a, b, c].forEach((buf) => buf.destroy());
}

device.destroy();
