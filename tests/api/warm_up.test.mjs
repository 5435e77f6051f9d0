// The warm-up `init()` runs once per process on the wasm device (js/warm-up.ts): it leaves no
// live array, buffer, pending read or Jaxpr, keeps the default device, compiles no kernel, and
// a second `init()` does none of it again. In Node this file is the first to call `init()` in
// its process, so the first call's counters show the workload ran; on webgpu helpers.mjs has
// called `init()` before (the workload ran then) and only the rest is checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ON_WEBGPU, ox, checkLeaksAroundEachTest } from "./helpers.mjs";

checkLeaksAroundEachTest();

/** What must not change (live objects) and what records work, per host device. */
function snapshot() {
  const s = ox.memoryStats();
  const work = (d) => ({
    uploads: d.uploads,
    readbacks: d.readbacks,
    dispatches: d.dispatches,
    kernelCacheMisses: d.kernelCacheMisses,
  });
  return {
    live: {
      liveArrays: s.liveArrays,
      liveJaxprs: s.liveJaxprs,
      pendingReads: s.pendingReads,
      buffers: Object.values(s.devices).reduce((n, d) => n + d.liveBuffers, 0),
      bytes: Object.values(s.devices).reduce((n, d) => n + d.liveBytes, 0),
    },
    cpu: work(s.devices.cpu),
    wasm: work(s.devices.wasm),
  };
}

test("init() warms up on wasm once, whatever the default device, leaving nothing alive", async () => {
  const prev = ox.defaultDevice();
  ox.defaultDevice("cpu");
  try {
    const before = snapshot();
    await ox.init();
    const after = snapshot();
    assert.deepEqual(after.live, before.live, "init() left arrays, buffers or reads alive");
    assert.equal(ox.defaultDevice(), "cpu", "init() changed the default device");
    assert.deepEqual(after.cpu, before.cpu, "the warm-up worked on cpu");
    assert.equal(after.wasm.dispatches, before.wasm.dispatches, "the warm-up ran a kernel");
    assert.equal(after.wasm.kernelCacheMisses, before.wasm.kernelCacheMisses, "it compiled one");
    if (!ON_WEBGPU) {
      // The workload made wasm arrays from host data and read results back.
      assert.ok(after.wasm.uploads > before.wasm.uploads, "no upload: the warm-up did not run");
      assert.ok(after.wasm.readbacks > before.wasm.readbacks, "no read: it did not run");
    }
    await ox.init();
    assert.deepEqual(snapshot(), after, "a second init() ran the workload again");
  } finally {
    ox.defaultDevice(prev);
  }
});
