// The garbage-collection safety net (js/reclaim.ts): arrays and jitted functions a program
// drops without disposing are released once the collector reclaims them, while leak checks
// still see them (memoryStats().reclaimedArrays, checkLeaks). The collector is driven with
// V8's gc(), exposed through a flag set at run time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ox, np } from "./helpers.mjs";
import * as consuming from "../../pkg/consuming/index.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

/** Collects until `done()` holds (finalizers run in later tasks), at most 50 rounds. */
async function collectUntil(done) {
  for (let i = 0; i < 50 && !done(); i++) {
    gc();
    await new Promise((r) => setTimeout(r, 0));
  }
}

test("dropped arrays are released by the collector, and counted", async () => {
  const base = ox.memoryStats();
  const kept = np.arange(4);
  (() => {
    for (let i = 0; i < 100; i++) {
      const a = np.ones([64]).add(i); // two arrays, neither disposed
      if (i % 10 === 0) void a.ref.ref; // extra references die with the object too
    }
  })();
  assert.equal(ox.memoryStats().liveArrays, base.liveArrays + 201);
  await collectUntil(() => ox.memoryStats().liveArrays === base.liveArrays + 1);
  const now = ox.memoryStats();
  assert.equal(now.liveArrays, base.liveArrays + 1, "only the kept array is alive");
  assert.equal(now.reclaimedArrays - base.reclaimedArrays, 200, "each one counted as a leak");
  assert.deepEqual(kept.js(), [0, 1, 2, 3], "a referenced array is untouched");
  kept.dispose();
  assert.equal(ox.memoryStats().reclaimedArrays, now.reclaimedArrays, "dispose is not reclaiming");
});

test("checkLeaks reports an array the collector reclaimed", async () => {
  const base = ox.memoryStats().reclaimedArrays;
  ox.checkLeaks.start();
  (() => void np.zeros([3]))();
  await collectUntil(() => ox.memoryStats().reclaimedArrays > base);
  const report = ox.checkLeaks.stop();
  assert.equal(report.leaked, 1, report.summary);
  assert.match(report.details[0], /reclaimed by the garbage collector, never disposed/);
});

test("consuming-entry arrays dropped undisposed are reclaimed too", async () => {
  const base = ox.memoryStats();
  (() => {
    const x = consuming.numpy.array([1, 2, 3]);
    void x.ref.mul(2); // the product and x's extra reference are dropped
  })();
  await collectUntil(() => ox.memoryStats().liveArrays === base.liveArrays);
  assert.equal(ox.memoryStats().liveArrays, base.liveArrays);
  assert.equal(ox.memoryStats().reclaimedArrays - base.reclaimedArrays, 2);
});

test("a jitted function dropped undisposed frees its compiled programs", async () => {
  const base = ox.memoryStats();
  (() => {
    const f = ox.jit((x) => x.mul(2).add(1));
    for (let n = 1; n <= 3; n++) {
      const x = np.ones([n]);
      const y = f(x);
      x.dispose();
      y.dispose();
    }
    assert.equal(ox.memoryStats().jitFunctions, base.jitFunctions + 3);
  })();
  await collectUntil(() => ox.memoryStats().jitFunctions === base.jitFunctions);
  assert.equal(ox.memoryStats().jitFunctions, base.jitFunctions);
  assert.equal(ox.memoryStats().liveArrays, base.liveArrays);
  assert.equal(ox.memoryStats().reclaimedArrays, base.reclaimedArrays, "no array was dropped");
});

test("disposed arrays and tracers are never released twice", async () => {
  const base = ox.memoryStats();
  (() => {
    const x = np.array([1, 2]);
    x.dispose();
    const g = ox.grad((t) => t.mul(t).sum());
    const a = np.array([3, 4]);
    g(a).dispose();
    a.dispose();
  })();
  const other = np.array([5]); // may reuse a freed slot: a new generation, not reclaimed
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 0));
  }
  assert.equal(ox.memoryStats().reclaimedArrays, base.reclaimedArrays);
  assert.deepEqual(other.js(), [5]);
  other.dispose();
  assert.equal(ox.memoryStats().liveArrays, base.liveArrays);
});

test("vjp and linearize functions and makeJaxpr results dropped undisposed are freed", async () => {
  const base = ox.memoryStats();
  const x = np.array([1, 2, 3]);
  (() => {
    const [y, vjpFn] = ox.vjp((t) => t.mul(t).sum(), [x]);
    const ct = np.array(1);
    const [g] = vjpFn(ct);
    const [z, fLin] = ox.linearize((t) => t.mul(2), [x]);
    const dx = np.ones([3]);
    const dz = fLin(dx);
    const { jaxpr } = ox.makeJaxpr((t) => t.add(1))(x);
    for (const a of [y, ct, g, z, dx, dz]) a.dispose();
    assert.ok(String(jaxpr).includes("add"));
    assert.equal(ox.memoryStats().liveJaxprs, base.liveJaxprs + 3);
  })();
  await collectUntil(() => ox.memoryStats().liveJaxprs === base.liveJaxprs);
  assert.equal(ox.memoryStats().liveJaxprs, base.liveJaxprs);
  x.dispose();
  assert.equal(ox.memoryStats().liveArrays, base.liveArrays);
  assert.equal(ox.memoryStats().reclaimedArrays, base.reclaimedArrays, "no array was dropped");
});

test("a disposed vjp function is not freed again when collected", async () => {
  const base = ox.memoryStats();
  const x = np.array([1, 2]);
  let kept;
  (() => {
    const [y, vjpFn] = ox.vjp((t) => t.mul(3), [x]);
    y.dispose();
    vjpFn.dispose();
    // A later program must survive the first one's collection.
    kept = ox.vjp((t) => t.mul(5), [x]);
  })();
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 0));
  }
  const [y2, vjpFn2] = kept;
  const ct = np.ones([2]);
  const [g] = vjpFn2(ct);
  assert.deepEqual(g.js(), [5, 5]);
  for (const a of [y2, g, ct, x]) a.dispose();
  vjpFn2.dispose();
  assert.equal(ox.memoryStats().liveJaxprs, base.liveJaxprs);
  assert.equal(ox.memoryStats().liveArrays, base.liveArrays);
});
