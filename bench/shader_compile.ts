// Where a WebGPU driver spends the first call's shader compilation, for the seeds' workload:
//   deno run -A --unstable-webgpu bench/shader_compile.ts dump DIR     (capture)
//   deno run -A --unstable-webgpu bench/shader_compile.ts VARIANT DIR  (compile a variant)
// `dump` runs the first MLE iteration of tests/shared/kalman_parallel.mjs (m = KALMAN_M,
// default 2; n = KALMAN_N, default 100; float32) on the webgpu device and writes every WGSL
// module it creates to DIR. A variant compiles those modules afresh (each made unique by a
// `SALT` statement, so no driver cache answers) and prints the module count, bytes and total
// milliseconds: `orig` as emitted; `direct` with the stage parameters read from the parameter
// buffer at each use instead of private copies; `uniform` with them in a uniform buffer;
// `funcs` with each kernel of a stage in a function of its own; `split` with each stage cut
// into shaders of about CHUNK_KB (default 12) KB of kernels. Run each variant in a process of
// its own, with the driver's disk cache off (NVIDIA: `__GL_SHADER_DISK_CACHE=0`).
import * as ox from "../pkg/index.js";
import * as optax from "../pkg/optax/index.js";
import { dlmModel, mleLoop, parallelKalman } from "../tests/shared/kalman_parallel.mjs";

// deno-lint-ignore no-explicit-any
type Any = any;
const [what = "orig", dir = "/tmp/oxjax-wgsl"] = Deno.args;
const salt = Deno.env.get("SALT") ?? String(Date.now() % 1000000);

if (what === "dump") {
  const P: Any = (globalThis as Any).GPUDevice.prototype;
  const create = P.createShaderModule;
  let n = 0;
  Deno.mkdirSync(dir, { recursive: true });
  P.createShaderModule = function (d: Any) {
    Deno.writeTextFileSync(`${dir}/${n++}.wgsl`, d.code);
    return create.call(this, d);
  };
  await ox.init();
  ox.defaultDevice("webgpu");
  const m = Number(Deno.env.get("KALMAN_M") ?? 2),
    len = Number(Deno.env.get("KALMAN_N") ?? 100);
  const model = dlmModel(m, len, 1);
  const pk = parallelKalman(ox, model, { device: "webgpu" });
  const mle = mleLoop(ox, optax, model, pk.loss, { device: "webgpu" });
  const t0 = performance.now();
  const loss = await mle.iterate();
  console.log(
    `first iteration ${(performance.now() - t0).toFixed(0)} ms, loss ${loss}, ${n} modules`,
  );
  mle.dispose();
  pk.dispose();
  Deno.exit(0);
}

const files = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".wgsl"));
const sources = files.map((e) => Deno.readTextFileSync(`${dir}/${e.name}`));
const direct = (s: string) =>
  s
    .replace(/^var<private> ox_p\d+: u32;\n/gm, "")
    .replace(/^\s*ox_p\d+ = ox_p\[\d+\];\n/gm, "")
    .replace(/\box_p(\d+)\b/g, "ox_p[$1]");
const uniform = (s: string) =>
  direct(s)
    .replace("var<storage, read> ox_p: array<u32>;", "var<uniform> ox_p: array<vec4<u32>, 1024>;")
    .replace(/ox_p\[(\d+)\]/g, (_, k) => `ox_p[${Number(k) >> 2}][${Number(k) & 3}]`);
/** The `if (lid >= …) { … }` blocks of a stage's `main`, as [start, end) offsets. */
function members(rest: string): [number, number][] {
  const re = /\n  if \(lid >= [^{]*\{/g;
  const out: [number, number][] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(rest))) {
    let i = m.index + m[0].length,
      depth = 1;
    while (depth > 0 && i < rest.length) {
      const c = rest[i++];
      if (c === "{") depth++;
      else if (c === "}") depth--;
    }
    out.push([m.index, i]);
    re.lastIndex = i;
  }
  return out;
}
function funcs(s: string): string[] {
  const at = s.indexOf("fn main(");
  if (at < 0) return [s];
  const rest = s.slice(at);
  let body = "",
    fns = "",
    last = 0;
  members(rest).forEach(([a, b], k) => {
    const open = rest.indexOf("{", a) + 1;
    body += rest.slice(last, open) + ` ox_m${k}(lid, ox_g, step, row); }`;
    fns += `fn ox_m${k}(lid: u32, ox_g: i32, step: u32, row: u32) {${rest.slice(open, b - 1)}}\n`;
    last = b;
  });
  return [s.slice(0, at) + body + rest.slice(last) + "\n" + fns];
}
function split(s: string): string[] {
  const at = s.indexOf("fn main(");
  const rest = s.slice(at);
  const blocks = at < 0 ? [] : members(rest);
  if (blocks.length < 2) return [s];
  const chunk = Number(Deno.env.get("CHUNK_KB") ?? 12) * 1024;
  const pre = s.slice(0, at) + rest.slice(0, blocks[0][0]);
  const post = rest.slice(rest.indexOf("\n}\n", blocks[blocks.length - 1][1]));
  const out: string[] = [];
  let cur = "";
  for (const [a, b] of blocks) {
    cur += rest.slice(a, b);
    if (cur.length > chunk) [out.push(pre + cur + post), (cur = "")];
  }
  if (cur) out.push(pre + cur + post);
  return out;
}
const variants: Record<string, (s: string) => string[]> = {
  orig: (s) => [s],
  direct: (s) => [direct(s)],
  uniform: (s) => [uniform(s)],
  funcs,
  split,
};
const variant = variants[what];
if (!variant) throw new Error(`unknown variant ${what}: dump, ${Object.keys(variants).join(", ")}`);
const salted = (s: string) =>
  s.includes("local_invocation_index")
    ? s.replace(/(@compute[^{]*\{)/, (m) => `${m}\n  if (lid == 99999u) { ox_buf[0] = ${salt}u; }`)
    : s;
const adapter = await (navigator as Any).gpu.requestAdapter();
const device = await adapter.requestDevice();
let total = 0,
  bytes = 0,
  count = 0,
  errors = 0;
for (const source of sources) {
  for (const code of variant(source).map(salted)) {
    device.pushErrorScope("validation");
    const t = performance.now();
    const module = device.createShaderModule({ code });
    device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: "main" } });
    total += performance.now() - t;
    bytes += code.length;
    count++;
    if (await device.popErrorScope()) errors++;
  }
}
console.log(
  `${what}: ${count} shaders, ${(bytes / 1024).toFixed(0)} KB, ${total.toFixed(0)} ms, ${errors} errors`,
);
Deno.exit(0);
