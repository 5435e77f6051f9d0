// jit keeps each kernel step's compiled id with its program: a repeated call (and a fresh
// closure of the same code, which finds the cached program) does no compile-cache lookups on
// the kernel cache, while still dispatching every kernel. Checked through memoryStats()
// counters, with values against the same function in float64 JavaScript.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEVICES, np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";

checkLeaksAroundEachTest();

const counters = (device) => {
  const d = ox.memoryStats().devices[device];
  return { lookups: d.kernelCacheHits + d.kernelCacheMisses, dispatches: d.dispatches };
};

/** A few kernels: a fused chain, a reduction and a product with its result. */
const f = (x) => {
  const e = np.exp(x.mul(0.5).add(1));
  return e.mul(np.sum(e)).sub(np.max(x));
};

const fJs = (xs) => {
  const e = xs.map((v) => Math.exp(v * 0.5 + 1));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v * s - Math.max(...xs));
};

for (const device of DEVICES) {
  test(`repeated jit calls do no kernel-cache lookups on ${device}`, async () => {
    const xs = [0.5, -1, 2, 0, 3];
    const x = np.array(xs, { device });
    const jf = ox.jit(f);
    jf(x).dispose(); // traces, lowers and compiles
    const c1 = counters(device);
    const outs = [];
    for (let i = 0; i < 3; i++) outs.push(jf(x));
    const c2 = counters(device);
    assert.equal(c2.lookups - c1.lookups, 0, "no lookups on repeated calls");
    assert.ok(c2.dispatches - c1.dispatches >= 3 * 2, "every kernel still runs");
    // A fresh closure of the same code finds the program and its compiled ids.
    const fresh = ox.jit((y) => f(y));
    outs.push(fresh(x));
    assert.equal(counters(device).lookups - c2.lookups, 0, "fresh closure");
    const want = fJs(xs);
    for (const o of outs) {
      const got = Array.from(await o.data());
      for (let i = 0; i < want.length; i++)
        assert.ok(
          Math.abs(got[i] - want[i]) <= 1e-5 * Math.abs(want[i]),
          `${got[i]} vs ${want[i]}`,
        );
    }
    for (const t of [x, jf, fresh, ...outs]) t.dispose();
  });
}
