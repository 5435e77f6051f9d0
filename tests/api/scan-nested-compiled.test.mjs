// Nested scans on the device that compiles loops (wasm in Node; webgpu in the Deno and Chromium
// API suites, 8 storage buffers): jit(valueAndGrad) of a float32 loss over case 2's RTS-style
// reverse lax.scan (bench/README.md), whose backward pass is √N-checkpointed — an outer scan
// over segments whose body re-runs the forward segment and a reverse scan over it. Every scan
// reports path "fused", the scans over segments say they run nested loops, each outer scan is
// one compiled loop run (loopRuns), and a call's dispatches are the same at two N of whole
// segments. Oracle: the same program on the cpu device (host loops). Leak-checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, assertClose, checkLeaksAroundEachTest, np, ox, scoped } from "./helpers.mjs";
import { rtsStep } from "../shared/scan_bodies.mjs";
import { NESTED } from "./scan_observe.mjs";

checkLeaksAroundEachTest();

/** jit(valueAndGrad) of Σ final N + Σ ys over θ = [a, s] (A·a, S·s), called twice on `device`. */
async function run(n, checkpoint, device) {
  const arr = (count, seed, scale, shape) =>
    scoped((k) => {
      const v = Array.from({ length: count }, (_, i) => scale * Math.sin(1.618 * (i + seed)));
      return k(np.array(v, { device })).reshape(shape);
    });
  const A = arr(n * 4, 1, 0.6, [n, 2, 2]);
  const b = arr(n * 2, 2, 0.5, [n, 2, 1]);
  const S = arr(n * 4, 3, 0.2, [n, 2, 2]);
  const r0 = arr(2, 4, 1, [2, 1]);
  const N0 = np.zeros([2, 2], { device });
  const theta = np.array([0.9, 1.1], { device });
  const loss = (t) =>
    scoped((u) => {
      const As = u(A.mul(u(t.slice(0))));
      const Ss = u(S.mul(u(t.slice(1))));
      const [c, rs] = ox.lax.scan(
        rtsStep(np),
        { r: r0, N: N0 },
        { A: As, b, S: Ss },
        { reverse: true, checkpoint },
      );
      u(c.r);
      u(c.N);
      u(rs);
      return u(np.sum(c.N)).add(u(np.sum(rs)));
    });
  const f = ox.jit(ox.valueAndGrad(loss));
  const events = [];
  const counters = () => ox.memoryStats().devices[device] ?? { dispatches: 0, loopRuns: 0 };
  let counts;
  let out;
  try {
    for (let call = 0; call < 2; call++) {
      if (call === 1) {
        ox.setScanPathCallback((path, backend, info) =>
          events.push({ path, backend, detail: info.detail }),
        );
      }
      const s0 = counters();
      const [v, g] = f(theta);
      const s1 = counters();
      ox.setScanPathCallback(null);
      if (call === 1) {
        counts = { dispatches: s1.dispatches - s0.dispatches, loopRuns: s1.loopRuns - s0.loopRuns };
        out = [...(await v.data()), ...(await g.data())];
      }
      ox.tree.dispose([v, g]);
    }
  } finally {
    ox.setScanPathCallback(null);
    f.dispose();
    ox.tree.dispose([A, b, S, r0, N0, theta]);
  }
  return { out, ...counts, events: events.filter((e) => e.backend === device) };
}

test(`jit(valueAndGrad) of a checkpointed RTS scan on ${COMPILED}: nested loops, one run per scan`, async () => {
  const perCall = [];
  for (const [n, checkpoint] of [
    [64, true],
    [144, true],
    [45, 4],
  ]) {
    const what = `N=${n} checkpoint=${checkpoint}`;
    const want = await run(n, checkpoint, "cpu");
    const got = await run(n, checkpoint, COMPILED);
    assertClose(got.out, want.out, 2e-4, what);
    assert.ok(got.events.length > 0, what);
    assert.ok(
      got.events.every((e) => e.path === "fused"),
      `${what}: ${JSON.stringify(got.events)}`,
    );
    const outer = got.events.filter((e) => !NESTED.test(e.detail));
    // The forward pass keeping checkpoints and the backward pass: loops over segments.
    const withNested = outer.filter((e) => /nested loops/.test(e.detail));
    assert.ok(withNested.length >= 2, `${what}: ${JSON.stringify(outer)}`);
    assert.equal(got.loopRuns, outer.length, `${what}: one loop run per outer scan`);
    perCall.push(got.dispatches);
  }
  // Another N of whole segments: the same dispatches (each scan one, whatever its length).
  assert.equal(perCall[0], perCall[1], `dispatches per call ${perCall}`);
});
