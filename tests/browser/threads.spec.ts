// The wasm device's worker pool in Chromium: `npm start`'s server sends COOP/COEP, so the page
// is crossOriginIsolated, the data memory is shared, and large kernels (elementwise, a matrix
// product, a reduction) and a batched routine (Cholesky) are split across workers with the same
// bits as on one thread; a compiled scan loop (which runs on the calling thread) and the large
// kernel after it give the same bits too. Counters, not timings: the pool's test switch
// `__oxjaxWasmPoolWorkersOnly` leaves every chunk to the workers, so `workerChunks` counts work
// done off the main thread. The main thread cannot block in Atomics.wait, so this also covers
// the pool's spinning wait.
import { expect, test } from "@playwright/test";

test("crossOriginIsolated page: large wasm kernels run on several threads, same bits", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/tests/browser/blank.html");
  const r = await page.evaluate(async () => {
    const ox = await import("/pkg/index.js");
    const np = ox.numpy;
    const wave = (n: number, m: number) =>
      Float32Array.from({ length: n }, (_, i) => ((i * 37) % m) / (m / 8) - 4);
    // Each workload returns its output's values; `k` collects every array it makes, disposed
    // after the read.
    type Arr = ReturnType<typeof np.array>;
    const scoped = (f: (k: (a: Arr) => Arr) => Arr): number[] => {
      const made: Arr[] = [];
      try {
        return Array.from(f((a) => (made.push(a), a)).dataSync());
      } finally {
        for (const a of made) a.dispose();
      }
    };
    const workloads: Record<string, () => number[]> = {
      elementwise: () =>
        scoped((k) => {
          const x = k(np.array(wave(300_007, 1000)));
          return k(k(np.exp(x)).mul(k(np.sin(x))));
        }),
      matmul: () =>
        scoped((k) => {
          const flat = k(np.array(Float32Array.from({ length: 96 * 96 }, (_, i) => (i % 13) - 6)));
          const a = k(flat.reshape([96, 96]));
          return k(np.matmul(a, a));
        }),
      reduction: () =>
        scoped((k) => k(np.sum(k(k(np.array(wave(1001 * 517, 997))).reshape([1001, 517])), 1))),
      routine: () =>
        scoped((k) => {
          const flat = k(np.array(Float64Array.from(wave(40 * 48 * 48, 101))));
          const a = k(flat.reshape([40, 48, 48]));
          const aat = k(np.matmul(a, k(a.transpose([0, 2, 1]))));
          const d = k(k(np.eye(48, undefined, { dtype: "float64" })).mul(48));
          return k(np.linalg.cholesky(k(aat.add(d))));
        }),
      scan: () =>
        scoped((k) => {
          const xs = k(k(np.array(wave(8 * 40_000, 211))).reshape([8, 40_000]));
          const c0 = k(np.array(wave(40_000, 89)));
          const body = (c: Arr, x: Arr) => [c.mul(0.5).add(x), c.sub(x)];
          const [c, ys] = (ox.lax.scan(body as any, c0, k(xs.mul(xs))) as Arr[]).map(k);
          return k(k(c.mul(k(ys.sum(0)))).add(k(c.mul(c))));
        }),
    };
    const live = ox.memoryStats().liveArrays;
    const loopRuns = () => ox.memoryStats().devices.wasm.loopRuns;
    await ox.init({ wasmThreads: 1 });
    const one: Record<string, string> = {};
    for (const [name, f] of Object.entries(workloads)) one[name] = JSON.stringify(f());
    await ox.init({ wasmThreads: 4 });
    const ready = ox.wasmThreadInfo();
    const g = globalThis as { __oxjaxWasmPoolWorkersOnly?: boolean };
    const each: Record<string, { same: boolean; workerChunks: number; split: number }> = {};
    const loopsBefore = loopRuns();
    for (const [name, f] of Object.entries(workloads)) {
      const before = ox.wasmThreadInfo();
      g.__oxjaxWasmPoolWorkersOnly = true;
      const four = JSON.stringify(f());
      delete g.__oxjaxWasmPoolWorkersOnly;
      const now = ox.wasmThreadInfo();
      each[name] = {
        same: four === one[name],
        workerChunks: now.workerChunks - before.workerChunks,
        split: now.splitKernels + now.splitRoutines - before.splitKernels - before.splitRoutines,
      };
    }
    const after = ox.wasmThreadInfo();
    const loops = loopRuns() - loopsBefore;
    await ox.init({ wasmThreads: 1 });
    return {
      isolated: globalThis.crossOriginIsolated,
      ready,
      after,
      each,
      loops,
      leaked: ox.memoryStats().liveArrays - live,
    };
  });
  expect(r.isolated).toBe(true);
  expect(r.ready.sharedMemory).toBe(true);
  expect(r.ready.state).toBe("ready");
  expect(r.ready.threads).toBe(4);
  for (const [name, e] of Object.entries(r.each)) {
    expect(e.same, `${name}: 4 threads vs 1`).toBe(true);
    expect(e.split, `${name}: split dispatches`).toBeGreaterThan(0);
    expect(e.workerChunks, `${name}: chunks computed by workers`).toBeGreaterThan(0);
  }
  expect(r.after.splitRoutines).toBeGreaterThan(r.ready.splitRoutines);
  expect(r.loops, "the scan ran as a compiled loop").toBeGreaterThan(0);
  expect(r.after.state).toBe("ready");
  expect(r.leaked).toBe(0);
  expect(errors).toEqual([]);
});
