// Library compositions called eagerly run as cached compiled programs from their second call
// with the same operands (src/transform/eager_jit.rs; on webgpu operands kept on the device,
// from their first: see the last test). Every generated NumPy/JAX case (random
// draws, numpy compositions, activations, calls with parameters) is run three times on each
// device after `clearCaches()`: the first call runs eagerly, the later ones compiled where the
// composition compiles, and all give the same bits (the eager results are checked against the
// oracles by numpy.test.mjs and jax_more.test.mjs). The counters of `memoryStats().compiledCalls`
// show which path ran; the cache stays bounded; leak-checked after every test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  DEVICES,
  ON_WEBGPU,
  np,
  ox,
  checkLeaksAroundEachTest,
  scoped,
  scopedAsync,
} from "./helpers.mjs";
import { caseLabel, caseOutputs } from "../shared/numpy_cases.mjs";
import { wasm } from "../../pkg/bridge.js";

checkLeaksAroundEachTest();
// On webgpu a composition compiles on its first call (its eager run would compile a shader per
// operation); these tests compare the eager first call with the compiled later ones, so they
// run with the second-call rule everywhere. The last test checks the default, and restores it.
wasm.debugCompileFirstOnWebgpu(false);

const load = (name) =>
  JSON.parse(readFileSync(new URL(`../data/${name}`, import.meta.url), "utf8")).cases;
const cases = [
  ...load("numpy_expected.json"),
  ...load("jax_expected.json"),
  ...load("jax_more_expected.json"),
  ...load("numpy_more_expected.json"),
].filter((c) => !(ON_WEBGPU && c.args?.some((a) => a.dtype === "float64")));

const counters = () => ({ ...ox.memoryStats().compiledCalls });
const bytes = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
/** Byte-for-byte equality of two typed arrays (no Node `Buffer`: the suite runs in browsers). */
const sameBytes = (a, b) => {
  const [x, y] = [bytes(a), bytes(b)];
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

function assertSameBits(got, want, label) {
  assert.equal(got.length, want.length, `${label}: result count`);
  got.forEach((g, i) =>
    assert.ok(
      sameBytes(g, want[i]),
      `${label}: result ${i} differs: ${[...g].slice(0, 8)} vs ${[...want[i]].slice(0, 8)}`,
    ),
  );
}

for (const device of DEVICES) {
  describe(`compiled eager compositions on ${device} give the eager bits`, () => {
    cases.forEach((c, i) =>
      test(caseLabel(c, i), async () => {
        ox.clearCaches();
        const before = counters();
        const eager = await caseOutputs(ox, c, device);
        assert.equal(counters().runs, before.runs, "the first call runs eagerly");
        const second = await caseOutputs(ox, c, device);
        const third = await caseOutputs(ox, c, device);
        assertSameBits(second, eager, "second call");
        assertSameBits(third, eager, "third call");
        const after = counters();
        // A compiled composition answers both later calls.
        assert.equal(after.runs - before.runs, 2 * (after.compiles - before.compiles));
      }),
    );
  });
}

// Compositions that feed a computed value into a float reduction (a sum of squares, a product
// with a drawn vector) compile with a fusion barrier before the reduction
// (src/lower/barrier.rs): the compiled bits are the eager ones, and on cpu and wasm the cpu
// interpreter's eager bits where the draw is all kernels (webgpu's transcendentals, and the
// Cholesky routines of the devices, are within a few ulp of the interpreter's).
const spd = (n, device, k) =>
  np.add(k(np.multiply(k(np.eye(n, n, { device })), n)), k(np.full([n, n], 0.5, { device })));
const REDUCING = [
  ["maxwell [100]", (k) => ox.random.maxwell(k, [100])],
  ["maxwell [10000]", (k) => ox.random.maxwell(k, [10000])],
  ["doubleSidedMaxwell [100]", (k) => ox.random.doubleSidedMaxwell(k, 1, 2, [100])],
  ["doubleSidedMaxwell [3, 50]", (k) => ox.random.doubleSidedMaxwell(k, -1, 0.5, [3, 50])],
  ...[16, 64].map((n) => [
    `multivariateNormal n=${n}`,
    (key, device) =>
      scoped((k) => {
        const mean = k(np.linspace(-1, 1, n, true, { device }));
        return ox.random.multivariateNormal(key, mean, k(spd(n, device, k)), [4]);
      }),
  ]),
];

async function draw(f, device) {
  const key = ox.random.key(11, { device });
  const r = f(key, device);
  const out = await r.data();
  r.dispose();
  key.dispose();
  return out;
}

for (const device of DEVICES) {
  describe(`compositions over a float reduction compile on ${device} with the eager bits`, () => {
    for (const [name, f] of REDUCING)
      test(name, async () => {
        ox.clearCaches();
        // On cpu as the default device too (webgpu is Deno's): every step on the interpreter.
        const placed = ox.defaultDevice();
        ox.defaultDevice("cpu");
        const oracle = await draw(f, "cpu").finally(() => ox.defaultDevice(placed));
        ox.clearCaches();
        const before = counters();
        const runs = [];
        for (let i = 0; i < 3; i++) runs.push(await draw(f, device));
        const after = counters();
        assert.equal(after.compiles - before.compiles, 1, "compiled once");
        assert.equal(after.runs - before.runs, 2, "the later calls ran compiled");
        assertSameBits(runs.slice(1), [runs[0], runs[0]], name);
        // Against the interpreter within float32 transcendental tolerance (wasm's vector log is
        // within 1 ulp, not bit for bit; `tests/integration/wasm_kernels/vmath.rs`).
        runs[2].forEach((x, i) =>
          assert.ok(Math.abs(x - oracle[i]) <= 1e-5 * (1 + Math.abs(oracle[i])), `${name}[${i}]`),
        );
      });
  });
}

const device = DEVICES.at(-1);

test("a random draw compiles once per shape and then runs compiled", async () => {
  ox.clearCaches();
  const key = ox.random.key(7, { device });
  const key2 = ox.random.key(8, { device });
  const before = counters();
  const draws = [];
  for (let i = 0; i < 3; i++) {
    const u = ox.random.normal(key, [5]);
    draws.push(await u.data());
    u.dispose();
  }
  let now = counters();
  assert.equal(now.compiles - before.compiles, 1);
  assert.equal(now.runs - before.runs, 2);
  assertSameBits(draws.slice(1), [draws[0], draws[0]], "normal");
  // Another shape is another program; the first draw of it is eager.
  const v = ox.random.normal(key, [6]);
  assert.equal(counters().compiles, now.compiles);
  // Another key of the same shape reuses the program.
  const w = ox.random.normal(key2, [5]);
  now = counters();
  assert.equal(now.runs - before.runs, 3);
  assert.notDeepEqual(await w.data(), draws[0]);
  assert.equal((await v.data()).length, 6);
  for (const a of [key, key2, v, w]) a.dispose();
});

test("inside jit nothing is compiled separately, and clearCaches forgets every call", () => {
  ox.clearCaches();
  const key = ox.random.key(1, { device });
  const f = ox.jit((k) => ox.random.uniform(k, [4]));
  const before = counters();
  for (let i = 0; i < 3; i++) f(key).dispose();
  f.dispose();
  assert.deepEqual(counters(), before);
  ox.random.uniform(key, [4]).dispose();
  ox.random.uniform(key, [4]).dispose();
  assert.equal(counters().entries, before.entries + 1);
  ox.clearCaches();
  assert.equal(counters().entries, 0);
  key.dispose();
});

test("the cache of compiled calls is bounded", () => {
  ox.clearCaches();
  const x = np.ones([2], { device });
  const { capacity } = counters();
  for (let n = 1; n <= capacity + 10; n++) ox.numpy.power(x, n + 0.5).dispose();
  assert.equal(counters().entries, capacity);
  ox.clearCaches();
  x.dispose();
});

test("large compositions compile, transcendental or not, with the eager bits", async () => {
  ox.clearCaches();
  const n = (1 << 16) + 1;
  const x = np.linspace(-4, 4, n, true, { device });
  const key = ox.random.key(3, { device });
  const before = counters();
  // Compositions over log and exp (the second and third calls run compiled).
  for (const [name, f] of [
    ["power", () => ox.numpy.power(x, 2.5)],
    ["arcsinh", () => ox.numpy.arcsinh(x)],
    ["arctan2", () => ox.numpy.arctan2(x, 0.5)],
  ]) {
    const outs = [];
    for (let i = 0; i < 3; i++) {
      const y = f();
      outs.push(await y.data());
      y.dispose();
    }
    assertSameBits(outs.slice(1), [outs[0], outs[0]], name);
  }
  assert.equal(counters().compiles, before.compiles + 3);
  // A composition of comparisons and selects (NaN-ignoring maximum).
  const maxed = [];
  for (let i = 0; i < 3; i++) {
    const r = ox.numpy.fmax(x, 0.5);
    maxed.push(await r.data());
    r.dispose();
  }
  assert.equal(counters().compiles, before.compiles + 4);
  assertSameBits(maxed.slice(1), [maxed[0], maxed[0]], "fmax");
  for (let i = 0; i < 3; i++) ox.random.uniform(key, [n]).dispose();
  assert.equal(counters().compiles, before.compiles + 5);
  x.dispose();
  key.dispose();
});

test("oneHot and leftShift by an array run as one kernel once compiled", async () => {
  ox.clearCaches();
  const labels = np.array([3, 0, 9, 3, 12, -1, 7], { dtype: "int32", device });
  const x = np.array([1, -2, 3, 0x40000000, 5, -6, 7], { dtype: "int32", device });
  const s = np.array([0, 1, 31, 1, 32, 40, -1], { dtype: "int32", device });
  for (const [name, f] of [
    ["oneHot", () => ox.nn.oneHot(labels, 10)],
    ["leftShift", () => np.leftShift(x, s)],
  ]) {
    const before = counters();
    const outs = [];
    const dispatches = [];
    for (let i = 0; i < 3; i++) {
      const d = ox.memoryStats().devices[device].dispatches;
      const y = f();
      dispatches.push(ox.memoryStats().devices[device].dispatches - d);
      outs.push(await y.data());
      y.dispose();
    }
    assert.equal(counters().compiles, before.compiles + 1, `${name}: compiled once`);
    assert.deepEqual(dispatches.slice(1), [1, 1], `${name}: one kernel per compiled call`);
    assertSameBits(outs.slice(1), [outs[0], outs[0]], name);
  }
  for (const a of [labels, x, s]) a.dispose();
});

test("compiled calls place results where eager calls do", { skip: ON_WEBGPU }, () => {
  ox.clearCaches();
  const before = ox.defaultDevice();
  ox.defaultDevice("cpu");
  const key = ox.random.key(0); // uncommitted, on cpu
  const x = np.array([1.5, -2.5, 3.5]);
  ox.defaultDevice("wasm");
  try {
    const placed = [];
    for (let i = 0; i < 3; i++) {
      const u = ox.random.uniform(key, [3]);
      const r = np.fmax(x, 0.5);
      placed.push(`${u.device} ${r.device}`);
      u.dispose();
      r.dispose();
    }
    assert.deepEqual(placed, [placed[0], placed[0], placed[0]]);
  } finally {
    ox.defaultDevice(before);
    key.dispose();
    x.dispose();
  }
});

test("a composition that fails keeps failing with its own error", () => {
  const key = ox.random.key(0, { device });
  const x = np.ones([2, 3], { device });
  for (let i = 0; i < 3; i++) {
    assert.throws(() => ox.nn.glu(x), /glu: axis -1 has odd length 3/);
    assert.throws(() => ox.random.uniform(key, [2], { minval: 1, maxval: 0 }), /uniform/);
  }
  key.dispose();
  x.dispose();
});

test("on webgpu operands a composition compiles on its first call, with the eager bits", async () => {
  const device = DEVICES.at(-1);
  // 2048 elements: past the host-held size, so the operands stay on the device.
  const values = Float32Array.from({ length: 2048 }, (_, i) => Math.sin(i) * 3);
  const run = async () =>
    scopedAsync(async (k) => {
      const x = k(np.array(values, { device }));
      const s = k(k(np.signbit(x)).astype("float32"));
      const y = k(np.logaddexp(s, x));
      return [await y.data()];
    });
  try {
    ox.clearCaches();
    wasm.debugCompileFirstOnWebgpu(false);
    const before = counters();
    const eager = await run();
    assert.equal(counters().runs, before.runs, "with the hook off the first call runs eagerly");
    ox.clearCaches();
    wasm.debugCompileFirstOnWebgpu(true);
    const start = counters();
    const first = await run();
    const after = counters();
    const compiled = ON_WEBGPU ? 2 : 0; // signbit and logaddexp; elsewhere the second call
    assert.equal(after.compiles - start.compiles, compiled, "compiled on the first call");
    assert.equal(after.runs - start.runs, compiled, "ran compiled");
    assertSameBits(first, eager, "first call");
  } finally {
    wasm.debugCompileFirstOnWebgpu(true);
  }
});
