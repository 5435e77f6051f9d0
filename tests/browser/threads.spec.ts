// The wasm device's worker pool in Chromium: `npm start`'s server sends COOP/COEP, so the page
// is crossOriginIsolated, the data memory is shared, and a large kernel is split across
// workers (a counter, not a timing) with the same bits as on one thread. The main thread
// cannot block in Atomics.wait, so this also covers the pool's spinning wait.
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
    const n = 300_007;
    const xs = Float32Array.from({ length: n }, (_, i) => ((i * 37) % 1000) / 125 - 4);
    const work = () => {
      const x = np.array(xs);
      const e = np.exp(x);
      const s = np.sin(x);
      const p = e.mul(s);
      const flat = np.array(Float32Array.from({ length: 96 * 96 }, (_, i) => (i % 13) - 6));
      const a = flat.reshape([96, 96]);
      const m = np.matmul(a, a);
      const out = [Array.from(p.dataSync()), Array.from(m.dataSync())];
      for (const t of [x, e, s, p, flat, a, m]) t.dispose();
      return JSON.stringify(out);
    };
    const live = ox.memoryStats().liveArrays;
    await ox.init({ wasmThreads: 1 });
    const one = work();
    await ox.init({ wasmThreads: 4 });
    const ready = ox.wasmThreadInfo();
    const four = work();
    const after = ox.wasmThreadInfo();
    await ox.init({ wasmThreads: 1 });
    return {
      isolated: globalThis.crossOriginIsolated,
      ready,
      after,
      same: one === four,
      leaked: ox.memoryStats().liveArrays - live,
    };
  });
  expect(r.isolated).toBe(true);
  expect(r.ready.sharedMemory).toBe(true);
  expect(r.ready.state).toBe("ready");
  expect(r.ready.threads).toBe(4);
  expect(r.after.splitKernels).toBeGreaterThan(r.ready.splitKernels);
  expect(r.after.threadsUsed).toBeGreaterThan(1);
  expect(r.same).toBe(true);
  expect(r.leaked).toBe(0);
  expect(errors).toEqual([]);
});
