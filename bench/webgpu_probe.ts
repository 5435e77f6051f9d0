// Raw WebGPU probes in Deno (`deno run -A --unstable-webgpu bench/webgpu_probe.ts`), no library:
// what the platform gives for (1) an elementwise kernel over 16M f32 written into the same
// buffer, into a fresh buffer per dispatch, with oxjax's exact-arithmetic WGSL form, and (2)
// tiled matmul variants (register blocking, vec4 shared tiles, BK, register prefetch), each as
// K dispatches in one submit then one wait, divided by K (median of 3). Used to choose the
// shapes `wgsl_matmul` emits and to find per-call costs; prints one line per probe. (Its 8×8
// vec4 variants store through a dynamically indexed vector, which spills on NVIDIA: the
// emitter, with static indices, is much faster than they are.)
// deno-lint-ignore-file no-explicit-any
const now = () => performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const adapter = await (navigator as any).gpu.requestAdapter();
const device = await adapter.requestDevice({ requiredLimits: adapter.limits });
const U = (globalThis as any).GPUBufferUsage;
console.log(
  `adapter ${JSON.stringify(adapter.info)} workgroup storage ${adapter.limits.maxComputeWorkgroupStorageSize}`,
);
const only = Deno.args[0] ?? "";

function pipeline(code: string) {
  const module = device.createShaderModule({ code });
  return device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: "main" } });
}
function bind(p: any, bufs: any[]) {
  return device.createBindGroup({
    layout: p.getBindGroupLayout(0),
    entries: bufs.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
}
/** K dispatches (each from `next()`: [pipeline, bindgroup, x, y]) in one submit, then a wait. */
async function timeK(k: number, next: () => [any, any, number, number], perCallSubmit = false) {
  const go = async () => {
    const t0 = now();
    let enc = device.createCommandEncoder();
    for (let i = 0; i < k; i++) {
      const [p, bg, x, y] = next();
      const pass = enc.beginComputePass();
      pass.setPipeline(p);
      pass.setBindGroup(0, bg);
      pass.dispatchWorkgroups(x, y);
      pass.end();
      if (perCallSubmit) {
        device.queue.submit([enc.finish()]);
        enc = device.createCommandEncoder();
      }
    }
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    return (now() - t0) / k;
  };
  await go();
  return median([await go(), await go(), await go()]);
}

// ---- elementwise ----
if (only === "" || only === "ew") {
  const n = 1 << 24;
  const x = device.createBuffer({ size: 4 * n, usage: U.STORAGE | U.COPY_DST });
  const y = device.createBuffer({ size: 4 * n, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
  const groups = n / 256;
  const [gx, gy] = [65535, Math.ceil(groups / 65535)];
  const raw = pipeline(`@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>,
    @builtin(num_workgroups) n: vec3<u32>) {
  let i = g.x + g.y * n.x * 256u;
  if (i < ${n}u) { y[i] = (x[i] * 1.5 + 0.5) * x[i] - 2.0; }
}`);
  // Four elements per invocation: as vec4 loads and stores, as four scalars in a row, and
  // as four scalars a quarter of the array apart (every load coalesced).
  const quarter = n / 4;
  const qGroups = quarter / 256;
  const [qx, qy] = [Math.min(qGroups, 65535), Math.ceil(qGroups / 65535)];
  const vec4 = pipeline(`@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> y: array<vec4<f32>>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>,
    @builtin(num_workgroups) n: vec3<u32>) {
  let i = g.x + g.y * n.x * 256u;
  if (i < ${quarter}u) { let v = x[i]; y[i] = (v * 1.5 + 0.5) * v - 2.0; }
}`);
  const four = (stride: string) =>
    pipeline(`@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>,
    @builtin(num_workgroups) n: vec3<u32>) {
  let q = g.x + g.y * n.x * 256u;
  if (q >= ${quarter}u) { return; }
  for (var j = 0u; j < 4u; j++) { let i = ${stride}; y[i] = (x[i] * 1.5 + 0.5) * x[i] - 2.0; }
}`);
  const rowOf4 = four("q * 4u + j");
  const apart = four(`q + j * ${quarter}u`);
  const oxsrc = `@group(0) @binding(0) var<storage, read> in0: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<private> ox_zp: u32;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let idx = gid.x + gid.y * groups.x * 256u;
  if (idx >= ${n}u) { return; }
  let i = i32(idx);
  ox_zp = gid.z;
  let v0: f32 = in0[u32(i)];
  let v1: f32 = bitcast<f32>(0x3fc00000u ^ ox_zp);
  let v2: f32 = ox_keep(v0 * v1);
  let v3: f32 = bitcast<f32>(0x3f000000u ^ ox_zp);
  let v4: f32 = ox_keep(v2 + v3);
  let v5: f32 = in0[u32(i)];
  let v6: f32 = ox_keep(v4 * v5);
  let v7: f32 = bitcast<f32>(0x40000000u ^ ox_zp);
  let v8: f32 = ox_keep(v6 - v7);
  out[idx] = v8;
}
fn ox_keep(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) ^ ox_zp); }`;
  const ox = pipeline(oxsrc);
  const gbs = (n * 8) / 1e6;
  const report = (name: string, ms: number) =>
    console.log(`ew ${name}: ${ms.toFixed(3)} ms/dispatch (${(gbs / ms).toFixed(0)} GB/s)`);
  const rawBg = bind(raw, [x, y]);
  report("raw same-out", await timeK(50, () => [raw, rawBg, gx, gy]));
  const oxBg = bind(ox, [x, y]);
  report("oxjax-form same-out", await timeK(50, () => [ox, oxBg, gx, gy]));
  const [vBg, rBg, aBg] = [bind(vec4, [x, y]), bind(rowOf4, [x, y]), bind(apart, [x, y])];
  report("vec4 same-out", await timeK(50, () => [vec4, vBg, qx, qy]));
  report("4-in-a-row same-out", await timeK(50, () => [rowOf4, rBg, qx, qy]));
  report("4-apart same-out", await timeK(50, () => [apart, aBg, qx, qy]));
  const [hx, hy] = [32768, 2];
  report("raw same-out, 32768x2 groups", await timeK(50, () => [raw, rawBg, hx, hy]));
  report("raw same-out submit-each", await timeK(50, () => [raw, rawBg, gx, gy], true));
  const fresh: any[] = [];
  const freshNext = (p: any) => (): [any, any, number, number] => {
    const o = device.createBuffer({ size: 4 * n, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
    fresh.push(o);
    return [p, bind(p, [x, o]), gx, gy];
  };
  report("raw fresh-out", await timeK(50, freshNext(raw)));
  fresh.splice(0).forEach((b) => b.destroy());
  report("oxjax-form fresh-out", await timeK(50, freshNext(ox)));
  fresh.splice(0).forEach((b) => b.destroy());
  // Fresh buffers, destroyed right after use (as a pool would not): allocation cost alone.
  const t0 = now();
  for (let i = 0; i < 50; i++) {
    fresh.push(device.createBuffer({ size: 4 * n, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST }));
  }
  console.log(`ew createBuffer 64MB host: ${((now() - t0) / 50).toFixed(3)} ms`);
  fresh.splice(0).forEach((b) => b.destroy());
  x.destroy();
  y.destroy();
}

// ---- matmul variants ----
interface Mm {
  name: string;
  tm: number;
  tn: number;
  bk: number;
  vec: boolean;
  pre: boolean;
}
function mmSource(v: Mm, M: number, N: number, K: number): string {
  const { tm, tn, bk } = v;
  const bm = 16 * tm,
    bn = 16 * tn;
  const la = (bm * bk) / 256,
    lb = (bn * bk) / 256;
  const aLoad = (
    l: number,
  ) => `{ let el = lane + ${l * 256}u; let mm = el / ${bk}u; let kk = el % ${bk}u;
      let grow = row0 + mm; let gk = k0 + kk; var v: f32 = 0.0f;
      if (grow < ${M}u && gk < ${K}u) { v = a[grow * ${K}u + gk]; } ra${l} = v; }`;
  const bLoad = (
    l: number,
  ) => `{ let el = lane + ${l * 256}u; let kk = el / ${bn}u; let nn = el % ${bn}u;
      let gcol = col0 + nn; let gk = k0 + kk; var v: f32 = 0.0f;
      if (gcol < ${N}u && gk < ${K}u) { v = b[gk * ${N}u + gcol]; } rb${l} = v; }`;
  const aStore = (l: number) => {
    const el = `(lane + ${l * 256}u)`;
    return v.vec
      ? `ta[${el} % ${bk}u][(${el} / ${bk}u) >> 2u][(${el} / ${bk}u) & 3u] = ra${l};`
      : `ta[${el} % ${bk}u][${el} / ${bk}u] = ra${l};`;
  };
  const bStore = (l: number) => {
    const el = `(lane + ${l * 256}u)`;
    return v.vec
      ? `tb[${el} / ${bn}u][(${el} % ${bn}u) >> 2u][(${el} % ${bn}u) & 3u] = rb${l};`
      : `tb[${el} / ${bn}u][${el} % ${bn}u] = rb${l};`;
  };
  const decl: string[] = [],
    loads: string[] = [],
    stores: string[] = [];
  for (let l = 0; l < la; l++) {
    decl.push(`var ra${l}: f32;`);
    loads.push(aLoad(l));
    stores.push(aStore(l));
  }
  for (let l = 0; l < lb; l++) {
    decl.push(`var rb${l}: f32;`);
    loads.push(bLoad(l));
    stores.push(bStore(l));
  }
  const acc: string[] = [],
    step: string[] = [],
    out: string[] = [];
  if (!v.vec) {
    for (let x = 0; x < tm; x++) step.push(`let a${x} = ta[kk][lid.y + ${x * 16}u];`);
    for (let y = 0; y < tn; y++) step.push(`let b${y} = tb[kk][lid.x + ${y * 16}u];`);
    for (let x = 0; x < tm; x++)
      for (let y = 0; y < tn; y++) {
        acc.push(`var c${x}_${y}: f32 = 0.0f;`);
        step.push(`c${x}_${y} = fma(a${x}, b${y}, c${x}_${y});`);
        out.push(`{ let r = row0 + lid.y + ${x * 16}u; let c = col0 + lid.x + ${y * 16}u;
  if (r < ${M}u && c < ${N}u) { out[r * ${N}u + c] = c${x}_${y}; } }`);
      }
  } else {
    const gm = tm / 4,
      gn = tn / 4;
    for (let g = 0; g < gm; g++) step.push(`let a${g} = ta[kk][${g * 16}u + lid.y];`);
    for (let h = 0; h < gn; h++) step.push(`let b${h} = tb[kk][${h * 16}u + lid.x];`);
    for (let g = 0; g < gm; g++)
      for (let i = 0; i < 4; i++)
        for (let h = 0; h < gn; h++) {
          acc.push(`var c${g}${i}_${h}: vec4<f32> = vec4<f32>(0.0f);`);
          step.push(`c${g}${i}_${h} = fma(vec4<f32>(a${g}[${i}]), b${h}, c${g}${i}_${h});`);
          out.push(`{ let r = row0 + ${g * 64}u + lid.y * 4u + ${i}u; let c = col0 + ${h * 64}u + lid.x * 4u;
  if (r < ${M}u) { for (var j: u32 = 0u; j < 4u; j = j + 1u) { if (c + j < ${N}u) { out[r * ${N}u + c + j] = c${g}${i}_${h}[j]; } } } }`);
        }
  }
  const ty = v.vec ? "vec4<f32>" : "f32";
  const aw = v.vec ? bm / 4 + 1 : bm + 1,
    bw = v.vec ? bn / 4 : bn;
  const body = v.pre
    ? `{ let k0 = 0u; ${loads.join("\n    ")} }
  for (var k0: u32 = 0u; k0 < ${K}u; k0 = k0 + ${bk}u) {
    ${stores.join("\n    ")}
    workgroupBarrier();
    if (k0 + ${bk}u < ${K}u) { let k0 = k0 + ${bk}u; ${loads.join("\n    ")} }
    for (var kk: u32 = 0u; kk < ${bk}u; kk = kk + 1u) { ${step.join("\n      ")} }
    workgroupBarrier();
  }`
    : `for (var k0: u32 = 0u; k0 < ${K}u; k0 = k0 + ${bk}u) {
    ${loads.join("\n    ")}
    ${stores.join("\n    ")}
    workgroupBarrier();
    for (var kk: u32 = 0u; kk < ${bk}u; kk = kk + 1u) { ${step.join("\n      ")} }
    workgroupBarrier();
  }`;
  return `@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
var<workgroup> ta: array<array<${ty}, ${aw}>, ${bk}>;
var<workgroup> tb: array<array<${ty}, ${bw}>, ${bk}>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) lane: u32) {
  let row0 = wid.y * ${bm}u;
  let col0 = wid.x * ${bn}u;
  ${decl.join(" ")}
  ${acc.join("\n  ")}
  ${body}
  ${out.join("\n  ")}
}`;
}
if (only === "" || only === "mm") {
  const variants: Mm[] = [];
  for (const [tm, tn] of [
    [8, 8],
    [4, 4],
    [8, 4],
  ])
    for (const bk of [8, 16])
      for (const vec of [false, true])
        for (const pre of [false, true]) {
          if (tm === 4 && tn === 4 && bk === 8) continue;
          variants.push({
            name: `${tm}x${tn} bk${bk}${vec ? " vec4" : ""}${pre ? " prefetch" : ""}`,
            tm,
            tn,
            bk,
            vec,
            pre,
          });
        }
  const sizes = (Deno.env.get("PROBE_SIZES") ?? "1024,2048,4096").split(",").map(Number);
  for (const n of sizes) {
    const a = device.createBuffer({ size: 4 * n * n, usage: U.STORAGE | U.COPY_DST });
    const b = device.createBuffer({ size: 4 * n * n, usage: U.STORAGE | U.COPY_DST });
    const o = device.createBuffer({ size: 4 * n * n, usage: U.STORAGE | U.COPY_SRC });
    const rnd = new Float32Array(n * n).map((_, i) => ((i * 2654435761) % 1000) / 1000 - 0.5);
    device.queue.writeBuffer(a, 0, rnd);
    device.queue.writeBuffer(b, 0, rnd);
    const k = n >= 4096 ? 10 : n >= 2048 ? 40 : 100;
    for (const v of variants) {
      try {
        device.pushErrorScope("validation");
        const p = pipeline(mmSource(v, n, n, n));
        const bg = bind(p, [a, b, o]);
        const err = await device.popErrorScope();
        if (err) {
          console.log(`mm ${n} ${v.name}: error ${err.message.slice(0, 200)}`);
          continue;
        }
        const ms = await timeK(k, () => [p, bg, n / (16 * v.tn), n / (16 * v.tm)]);
        // Check one output element against the CPU.
        const st = device.createBuffer({ size: 4 * n, usage: U.MAP_READ | U.COPY_DST });
        const enc = device.createCommandEncoder();
        const row = n - 3;
        enc.copyBufferToBuffer(o, 4 * row * n, st, 0, 4 * n);
        device.queue.submit([enc.finish()]);
        await st.mapAsync(1);
        const got = new Float32Array(st.getMappedRange().slice(0));
        st.destroy();
        let maxErr = 0;
        for (const c of [0, 5, n - 1]) {
          let s = 0;
          for (let q = 0; q < n; q++) s += rnd[row * n + q] * rnd[q * n + c];
          maxErr = Math.max(maxErr, Math.abs(got[c] - s) / Math.max(1, Math.abs(s)));
        }
        console.log(
          `mm ${n} ${v.name}: ${ms.toFixed(3)} ms ${((2 * n ** 3) / ms / 1e9).toFixed(2)} TFLOP/s err ${maxErr.toExponential(1)}`,
        );
      } catch (e) {
        console.log(`mm ${n} ${v.name}: threw ${String(e).slice(0, 200)}`);
      }
    }
    a.destroy();
    b.destroy();
    o.destroy();
  }
}
device.destroy();
