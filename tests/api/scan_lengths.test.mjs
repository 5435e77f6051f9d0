// A jitted lax.scan (case 2's RTS step, reverse) and a jitted lax.associativeScan (case 1's
// Kalman composition) called at several sequence lengths: every result matches the same call
// on the cpu device (the oracle), and on webgpu (the Deno and Chromium API suites) later
// lengths compile no shader (memoryStats().devices.webgpu.shaderCompiles): the length is a
// parameter of the compiled scan's shader from the first length on. An associativeScan longer
// than 256 is one lax.scan: one dispatch a call on webgpu (issue 22's bound: at most 3 at
// N = 1600) and one module call on wasm, whose compiled loop later lengths reuse
// (memoryStats().devices.wasm.loopCacheEntries). Leak-checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, checkLeaksAroundEachTest, DEVICES, assertClose, scoped } from "./helpers.mjs";
import { kalmanCompose, rtsStep } from "../shared/scan_bodies.mjs";
import { xorshiftFloats } from "../shared/rng.mjs";

checkLeaksAroundEachTest();

const random = xorshiftFloats;

/** Stacked elements (A [n,2,2], b [n,2,1], S [n,2,2]) of length `n` on `device`. */
function elements(n, device) {
  const arr = (data, shape) => scoped((k) => k(np.array(data, { device })).reshape(shape));
  const scaled = (data, k) => data.map((v) => v * k);
  return {
    A: arr(scaled(random(4 * n, 5), 0.3), [n, 2, 2]),
    b: arr(random(2 * n, 6), [n, 2, 1]),
    S: arr(scaled(random(4 * n, 7), 0.1), [n, 2, 2]),
  };
}

const compiles = () => ox.memoryStats().devices.webgpu?.shaderCompiles ?? 0;
const dispatches = () => ox.memoryStats().devices.webgpu?.dispatches ?? 0;
const wasmCalls = () => ox.memoryStats().devices.wasm.dispatches;
const wasmLoops = () => ox.memoryStats().devices.wasm.loopCacheEntries;

/**
 * Calls `run(elements)` at each of `lengths` on `device` and on cpu, compares, and returns
 * the shaders each call compiled and the dispatches of each call (webgpu; zeros elsewhere).
 */
async function atLengths(lengths, device, run) {
  // Pipelines of an earlier test (another file in the same process) must not make the first
  // length look compiled.
  ox.clearCaches();
  const counts = [];
  for (const n of lengths) {
    const cpuIn = elements(n, "cpu");
    const ref = run(cpuIn, "cpu");
    const want = await ref.data();
    const xs = elements(n, device);
    const [c0, d0, w0, l0] = [compiles(), dispatches(), wasmCalls(), wasmLoops()];
    const out = run(xs, device);
    const got = await out.data();
    counts.push({
      n,
      compiles: compiles() - c0,
      dispatches: dispatches() - d0,
      wasmCalls: wasmCalls() - w0,
      wasmLoops: wasmLoops() - l0,
    });
    assertClose(Array.from(got), Array.from(want), 1e-4, `n = ${n} on ${device}`);
    ox.tree.dispose([cpuIn, ref, xs, out]);
  }
  return counts;
}

test("a jitted scan at a new length matches cpu and compiles nothing", async () => {
  const step = rtsStep(np);
  const f = ox.jit((init, xs) => ox.lax.scan(step, init, xs, { reverse: true }));
  const run = (xs, device) => {
    const init = { r: np.zeros([2, 1], { device }), N: np.zeros([2, 2], { device }) };
    const [carry, ys] = f(init, xs);
    ox.tree.dispose([init, carry]);
    return ys;
  };
  for (const device of DEVICES) {
    const counts = await atLengths([50, 51, 200, 37, 1], device, run);
    if (device !== "webgpu") continue;
    assert.ok(counts[0].compiles > 0, JSON.stringify(counts));
    for (const c of counts.slice(1)) assert.equal(c.compiles, 0, JSON.stringify(counts));
  }
  f.dispose();
});

test("a jitted associativeScan at a new length matches cpu: one dispatch, nothing compiled", async () => {
  const compose = kalmanCompose(np);
  const f = ox.jit((x) => ox.lax.associativeScan(compose, x));
  const run = (xs) => {
    const out = f(xs);
    ox.tree.dispose([out.A, out.b]);
    return out.S;
  };
  for (const device of DEVICES) {
    // The first call traces and compiles; the later lengths reuse the compiled loop.
    const counts = await atLengths([300, 1600, 301, 1000], device, run);
    const all = JSON.stringify(counts);
    if (device === "wasm") {
      for (const c of counts) assert.equal(c.wasmCalls, 1, all);
      assert.ok(counts[0].wasmLoops > 0, all);
      for (const c of counts.slice(1)) assert.equal(c.wasmLoops, 0, all);
    }
    if (device !== "webgpu") continue;
    assert.ok(counts[0].compiles > 0, all);
    for (const c of counts) assert.ok(c.dispatches >= 1 && c.dispatches <= 3, all);
    for (const c of counts.slice(1)) assert.equal(c.compiles, 0, all);
  }
  f.dispose();
});
