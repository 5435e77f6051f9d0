// Per-dispatch GPU times of one steady MLE step of the seeds' workload (Deno, webgpu):
//   KALMAN_M=5 KALMAN_N=1000 deno run -A --unstable-webgpu bench/gpu_profile.ts
// The device is opened with `timestamp-query`; during the profiled step every compute pass is
// recorded and replayed with each dispatch in a pass of its own with timestamp writes, so the
// printed times (µs per dispatch, with its workgroups, WGSL size, kernels and barriers) include
// one pass boundary each. Needs an adapter with timestamp queries.
// deno-lint-ignore-file no-explicit-any
const g: any = globalThis;
const codeOf = new WeakMap<object, string>();
const pipeCode = new WeakMap<object, string>();
const AP = g.GPUAdapter.prototype,
  rd = AP.requestDevice;
AP.requestDevice = function (d: any = {}) {
  return rd.call(this, {
    ...d,
    requiredFeatures: [...(d.requiredFeatures ?? []), "timestamp-query"],
  });
};
const DP = g.GPUDevice.prototype;
const csm = DP.createShaderModule;
DP.createShaderModule = function (d: any) {
  const m = csm.call(this, d);
  codeOf.set(m, d.code);
  return m;
};
const ccp = DP.createComputePipeline;
DP.createComputePipeline = function (d: any) {
  const p = ccp.call(this, d);
  pipeCode.set(p, codeOf.get(d.compute.module) ?? "?");
  return p;
};
let on = false;
let device: any = null;
const records: { code: string; groups: number[]; q: number }[] = [];
let qs: any = null;
let qn = 0;
const EP = g.GPUCommandEncoder.prototype,
  bcp = EP.beginComputePass;
EP.beginComputePass = function (d: any) {
  if (!on) return bcp.call(this, d);
  const enc = this;
  const cmds: any[][] = [];
  return new Proxy(
    {},
    {
      get: (_t, k: string) => {
        if (k === "end")
          return () => {
            let pipe: any = null;
            const bgs: any[] = [];
            for (const [m, ...a] of cmds) {
              if (m === "setPipeline") pipe = a[0];
              else if (m === "setBindGroup") bgs[a[0]] = a;
              else if (m === "dispatchWorkgroups") {
                const p = bcp.call(enc, {
                  timestampWrites: {
                    querySet: qs,
                    beginningOfPassWriteIndex: qn,
                    endOfPassWriteIndex: qn + 1,
                  },
                });
                p.setPipeline(pipe);
                for (const b of bgs) if (b) p.setBindGroup(...b);
                p.dispatchWorkgroups(...a);
                p.end();
                records.push({ code: pipeCode.get(pipe) ?? "?", groups: a, q: qn });
                qn += 2;
              }
            }
          };
        return (...a: any[]) => {
          cmds.push([k, ...a]);
        };
      },
    },
  );
};
const ox: any = await import("../pkg/index.js");
const optax: any = await import("../pkg/optax/index.js");
const { dlmModel, mleLoop, parallelKalman } = await import("../tests/shared/kalman_parallel.mjs");
await ox.init();
ox.defaultDevice("webgpu");
const m = Number(Deno.env.get("KALMAN_M") ?? 5),
  n = Number(Deno.env.get("KALMAN_N") ?? 1000);
const model = dlmModel(m, n, 1);
const pk = parallelKalman(ox, model, { device: "webgpu" });
const mle = mleLoop(ox, optax, model, pk.loss, { device: "webgpu" });
const step = mle.iterate;
for (let i = 0; i < 3; i++) await step();
// find the device: patch createQuerySet lazily through a fresh call on the device oxjax uses
const dev = await new Promise<any>((res) => {
  const cb = DP.createCommandEncoder;
  DP.createCommandEncoder = function (...a: any[]) {
    DP.createCommandEncoder = cb;
    res(this);
    return cb.apply(this, a);
  };
  step();
});
await new Promise((r) => setTimeout(r, 200));
device = dev;
qs = dev.createQuerySet({ type: "timestamp", count: 4096 });
on = true;
qn = 0;
records.length = 0;
await step();
on = false;
const B = g.GPUBufferUsage;
const res = dev.createBuffer({ size: qn * 8, usage: B.QUERY_RESOLVE | B.COPY_SRC });
const out = dev.createBuffer({ size: qn * 8, usage: B.MAP_READ | B.COPY_DST });
const e = dev.createCommandEncoder();
e.resolveQuerySet(qs, 0, qn, res, 0);
e.copyBufferToBuffer(res, 0, out, 0, qn * 8);
dev.queue.submit([e.finish()]);
await out.mapAsync(g.GPUMapMode.READ);
const ts = new BigUint64Array(out.getMappedRange());
let total = 0;
const rows: [number, string][] = [];
for (const r of records) {
  const us = Number(ts[r.q + 1] - ts[r.q]) / 1000;
  total += us;
  const members = (r.code.match(/\n  if \(lid >= /g) ?? []).length;
  const routine = /fn ld\d*_/.test(r.code) ? " routine" : "";
  rows.push([
    us,
    `${us.toFixed(1)} us  groups ${r.groups.join("x")}  ${r.code.length} B  members ${members}  barriers ${(r.code.match(/storageBarrier/g) ?? []).length}${routine}`,
  ]);
}
console.log(
  `m=${m} n=${n}: ${records.length} dispatches, GPU total ${(total / 1000).toFixed(2)} ms`,
);
rows.forEach(([, s], i) => console.log(`#${i} ${s}`));
Deno.exit(0);
