// Faults of the wasm device's worker pool (Node worker_threads): a worker that throws, and a
// pool that cannot start, leave the device on the calling thread with the reason in
// `wasmThreadInfo()`, never a lost or wrong result; the pool starts again once asked.
// `globalThis.__oxjaxWasmPoolFault` is the pool's test switch, read when workers start.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { ox, np, checkLeaksAroundEachTest, scoped } from "./helpers.mjs";

checkLeaksAroundEachTest();
after(async () => {
  delete globalThis.__oxjaxWasmPoolFault;
  delete globalThis.__oxjaxWasmPoolWorkersOnly;
  await ox.init({ wasmThreads: 1 });
});

const N = 200_003;
const xs = Float32Array.from({ length: N }, (_, i) => ((i * 37) % 1000) / 125 - 4);

/** exp(x)·sin(x) + x² on the wasm device: its bytes, and the split-kernel count it added. */
function workload() {
  const before = ox.wasmThreadInfo().splitKernels;
  const bytes = scoped((k) => {
    const x = k(np.array(xs));
    return k(k(k(np.exp(x)).mul(k(np.sin(x)))).add(k(x.mul(x)))).dataSync();
  });
  return { bytes, split: ox.wasmThreadInfo().splitKernels - before };
}

async function reference() {
  delete globalThis.__oxjaxWasmPoolFault;
  await ox.init({ wasmThreads: 1 });
  return workload().bytes;
}

test("a worker that throws: the result is computed on the calling thread, the pool stops", async () => {
  const want = await reference();
  globalThis.__oxjaxWasmPoolFault = "throw";
  await ox.init({ wasmThreads: 3 });
  assert.equal(ox.wasmThreadInfo().state, "ready");
  // Every chunk goes to a worker, which throws: the calling thread computes them all again.
  globalThis.__oxjaxWasmPoolWorkersOnly = true;
  const { bytes, split } = workload();
  delete globalThis.__oxjaxWasmPoolWorkersOnly;
  assert.ok(split > 0, "the kernel was handed to the workers");
  assert.deepEqual(bytes, want);
  const info = ox.wasmThreadInfo();
  assert.equal(info.state, "failed");
  assert.equal(info.threads, 1);
  assert.match(info.reason, /worker \d threw: injected worker fault/);
  // From now on kernels stay on the calling thread, with the same result.
  const again = workload();
  assert.equal(again.split, 0);
  assert.deepEqual(again.bytes, want);
});

test("a pool that cannot start: kernels run on the calling thread, the reason is reported", async () => {
  const want = await reference();
  globalThis.__oxjaxWasmPoolFault = "start";
  await ox.init({ wasmThreads: 3 });
  const info = ox.wasmThreadInfo();
  assert.equal(info.state, "failed");
  assert.equal(info.threads, 1);
  assert.match(info.reason, /the worker pool failed to start: .*injected start fault/);
  const { bytes, split } = workload();
  assert.equal(split, 0);
  assert.deepEqual(bytes, want);
});

test("the pool starts again after a fault, and init checks wasmThreads", async () => {
  const want = await reference();
  await ox.init({ wasmThreads: 2 });
  assert.equal(ox.wasmThreadInfo().state, "ready");
  const { bytes, split } = workload();
  assert.ok(split > 0);
  assert.deepEqual(bytes, want);
  for (const bad of [0, -1, 1.5, NaN, "2"]) {
    await assert.rejects(
      ox.init({ wasmThreads: bad }),
      /init: wasmThreads must be a positive integer/,
    );
  }
  // Turning the pool off terminates its workers.
  await ox.init({ wasmThreads: 1 });
  const off = ox.wasmThreadInfo();
  assert.deepEqual([off.state, off.threads], ["off", 1]);
});
