// Read-back benchmarks on WebGPU in Deno (`deno run -A --unstable-webgpu bench/reads.ts
// [pkg dir]`, default ../pkg): how long reading results back takes when several arrays are
// read together. Each workload computes its arrays (one small eager op each, so every read
// waits for fresh work), then reads them; median of R repetitions after one warm-up. Rows:
// one read, N reads awaited one after another, N reads through `Promise.all`, and large
// reads (the copy from the mapped range into the user's typed array). The raw WebGPU
// copy-4-bytes-and-map round trip is printed beside them: the floor under every map in Deno.
// Prints a markdown table and the maps counted per row (`readbackMaps`, where the package
// has it).
// deno-lint-ignore no-explicit-any
type Any = any;
const dir = Deno.args[0] ?? "../pkg";
const ox: Any = await import(new URL(`${dir}/index.js`, import.meta.url).href);

const devices = await ox.init();
if (!devices.includes("webgpu")) throw new Error(`no webgpu (${ox.webgpuUnavailableReason()})`);
ox.defaultDevice("webgpu");
const np = ox.numpy;

const now = () => performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const maps = () => ox.memoryStats().devices.webgpu.readbackMaps ?? NaN;

async function mapAsyncFloor(): Promise<number> {
  const adapter = await (navigator as Any).gpu.requestAdapter();
  const device = await adapter.requestDevice();
  const G = globalThis as Any;
  const src = device.createBuffer({ size: 4, usage: G.GPUBufferUsage.STORAGE | 4 });
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = now();
    const dst = device.createBuffer({ size: 4, usage: G.GPUBufferUsage.MAP_READ | 8 });
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, dst, 0, 4);
    device.queue.submit([enc.finish()]);
    await dst.mapAsync(G.GPUMapMode.READ);
    dst.unmap();
    dst.destroy();
    times.push(now() - t0);
  }
  device.destroy();
  return median(times);
}

/**
 * Raw WebGPU read of `bytes` (a storage buffer copied into a mappable one): the median total,
 * and its parts after the submit — the map, `getMappedRange`, and the copy out of it.
 */
async function rawRead(bytes: number): Promise<string> {
  const adapter = await (navigator as Any).gpu.requestAdapter();
  const device = await adapter.requestDevice({ requiredLimits: adapter.limits });
  const G = globalThis as Any;
  const src = device.createBuffer({ size: bytes, usage: G.GPUBufferUsage.STORAGE | 4 });
  const dst = device.createBuffer({ size: bytes, usage: G.GPUBufferUsage.MAP_READ | 8 });
  const parts: number[][] = [[], [], [], []];
  for (let i = 0; i < 7; i++) {
    const t0 = now();
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, dst, 0, bytes);
    device.queue.submit([enc.finish()]);
    await dst.mapAsync(G.GPUMapMode.READ);
    const t1 = now();
    const range = dst.getMappedRange();
    const t2 = now();
    const out = new Float32Array(range.slice(0));
    const t3 = now();
    dst.unmap();
    if (out.length * 4 !== bytes) throw new Error("raw read");
    [t3 - t0, t1 - t0, t2 - t1, t3 - t2].forEach((t, k) => parts[k].push(t));
  }
  dst.destroy();
  src.destroy();
  device.destroy();
  const [total, map, range, copy] = parts.map((p) => median(p).toFixed(2));
  return `raw ${bytes} B: ${total} ms (map ${map}, getMappedRange ${range}, copy ${copy})`;
}

/** `count` arrays of `size` float32 elements, each freshly computed from `base`. */
function fresh(bases: Any[]): Any[] {
  return bases.map((b) => b.mul(1.5));
}

async function row(
  what: string,
  count: number,
  size: number,
  read: (xs: Any[]) => Promise<unknown>,
  reps = 15,
): Promise<string> {
  const bases = Array.from({ length: count }, (_, k) => np.full([size], k + 0.25));
  const times: number[] = [];
  let m = 0;
  for (let r = 0; r <= reps; r++) {
    const xs = fresh(bases);
    const m0 = maps();
    const t0 = now();
    await read(xs);
    const t = now() - t0;
    if (r > 0) times.push(t);
    m = maps() - m0;
    for (const x of xs) x.dispose();
  }
  for (const b of bases) b.dispose();
  return `| ${what} | ${count} × ${size} f32 | ${median(times).toFixed(2)} ms | ${m} |`;
}

const floor = await mapAsyncFloor();
const rows = [
  "| reads | arrays | median | maps |",
  "| --- | --- | --- | --- |",
  await row("one `data()`", 1, 200, (xs) => xs[0].data()),
  await row("`await` each `data()` in turn", 6, 200, async (xs) => {
    for (const x of xs) await x.data();
  }),
  await row("`Promise.all` of `data()`", 6, 200, (xs) => Promise.all(xs.map((x) => x.data()))),
  await row("`tree.data`", 6, 200, (xs) => ox.tree.data(xs)),
  await row("`Promise.all` of `data()`", 20, 200, (xs) => Promise.all(xs.map((x) => x.data()))),
  await row("one `data()`", 1, 1 << 24, (xs) => xs[0].data(), 5),
  await row(
    "`Promise.all` of `data()`",
    6,
    1 << 20,
    (xs) => Promise.all(xs.map((x) => x.data())),
    5,
  ),
];
console.log(`package ${dir}; raw copy-and-map floor ${floor.toFixed(2)} ms`);
console.log(await rawRead(1 << 26));
console.log(rows.join("\n"));
