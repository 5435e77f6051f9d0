// Shared helpers of the API tests: the built package, the devices under test, a leak check run
// after every test, and float32 oracles computed independently of oxjax (JS arithmetic rounded
// with Math.fround).
//
// The same files run on `webgpu` (Deno + lavapipe: `OXJAX_TEST_DEVICE=webgpu deno test ...`;
// Chromium + SwiftShader: tests/browser/api.spec.ts sets `globalThis.OXJAX_TEST_DEVICE`). Then
// WebGPU starts with the spec minimum of 8 storage buffers and small operations on the GPU
// (`smallOnHost: false`, so small arrays exercise its kernels), becomes the default device, and
// `DEVICES` is `["webgpu"]` instead of `["cpu", "wasm"]`. Reads are `await x.data()` /
// `jsAsync()` in every test, because WebGPU has no synchronous read there.
import { afterEach, beforeEach } from "node:test";
import assert from "node:assert/strict";
import * as ox from "../../pkg/index.js";
import { WEBGPU_SKIPS } from "./webgpu_skips.mjs";
import { scoped } from "../shared/scoped.mjs";

export { scoped, scopedAsync } from "../shared/scoped.mjs";

export { ox };
export const np = ox.numpy;

const mode = globalThis.OXJAX_TEST_DEVICE ?? globalThis.process?.env?.OXJAX_TEST_DEVICE;
/** True when the suite runs on webgpu (Deno or Chromium) rather than cpu and wasm (Node). */
export const ON_WEBGPU = mode === "webgpu";
if (ON_WEBGPU) {
  const have = await ox.init({ maxStorageBuffers: 8, smallOnHost: false });
  if (!have.includes("webgpu")) {
    throw new Error(`OXJAX_TEST_DEVICE=webgpu: ${ox.webgpuUnavailableReason() ?? "no WebGPU"}`);
  }
  ox.defaultDevice("webgpu");
} else if (mode !== undefined) {
  throw new Error(`OXJAX_TEST_DEVICE must be "webgpu" or unset, not ${mode}`);
}

/** The devices each device-parametrised test runs on. */
export const DEVICES = ON_WEBGPU ? ["webgpu"] : ["cpu", "wasm"];

/** The compiled device of tests that run on one: wasm in Node, webgpu when the suite runs there. */
export const COMPILED = ON_WEBGPU ? "webgpu" : "wasm";

/**
 * Array options of tests written in float64 on cpu whose values are exact in float32 too
 * (transformation plumbing, not precision): float32 on webgpu when the suite runs there.
 */
export const EXACT = ON_WEBGPU ? { device: "webgpu" } : { dtype: "float64", device: "cpu" };

/** Options of a float64 array on the default device, or on cpu where that is webgpu. */
export const F64 = ON_WEBGPU ? { dtype: "float64", device: "cpu" } : { dtype: "float64" };

/** Options of arrays a test reads synchronously (allclose, `+x`): on cpu where WebGPU is default. */
export const SYNC = ON_WEBGPU ? { device: "cpu" } : {};

/** The absolute tolerance of EXACT tests: 1e-12 in float64, 2e-6 in float32 on webgpu. */
export const EXACT_TOL = ON_WEBGPU ? 2e-6 : 1e-12;

/**
 * `assert.deepEqual` of (nested) numbers computed with EXACT: equal in float64, within
 * 1e-6·(1 + |want|) per element in float32 on webgpu (a few float32 ulps).
 */
export function assertExact(got, want, message) {
  if (!ON_WEBGPU) return assert.deepEqual(got, want, message);
  const [g, w] = [[got].flat(Infinity), [want].flat(Infinity)];
  assert.equal(g.length, w.length, message);
  g.forEach((v, i) =>
    assert.ok(
      Math.abs(v - w[i]) <= 1e-6 * (1 + Math.abs(w[i])),
      `${message ?? ""}[${i}]: ${v} vs ${w[i]}`,
    ),
  );
}

/**
 * The `skip` option of a test that cannot run on webgpu: `false` off webgpu, else the reason
 * listed under `key` in tests/api/webgpu_skips.mjs (the one list of such gaps).
 */
export function webgpuSkip(key) {
  if (!(key in WEBGPU_SKIPS)) throw new Error(`webgpuSkip: no entry ${key}`);
  return ON_WEBGPU ? `webgpu: ${WEBGPU_SKIPS[key]}` : false;
}

/** The `skip` option of a generated case (tests/data/*.json): float64 cases skip on webgpu. */
export const caseSkip = (c) =>
  (c.args ?? []).some((a) => a.dtype === "float64") && webgpuSkip("float64");

/** `x.item()` that works on every device. */
export async function item(x) {
  if (x.size !== 1) throw new Error(`item: ${x.size} elements`);
  return (await x.data())[0];
}

let baseline = null;

function snapshot() {
  const s = ox.memoryStats();
  const buffers = Object.values(s.devices).reduce((n, d) => n + d.liveBuffers, 0);
  const bytes = Object.values(s.devices).reduce((n, d) => n + d.liveBytes, 0);
  // reclaimedArrays: a leak the garbage collector released mid-test is still a leak.
  const { liveArrays, liveJaxprs, pendingReads, reclaimedArrays } = s;
  return { liveArrays, liveJaxprs, pendingReads, reclaimedArrays, buffers, bytes };
}

/**
 * Registers a leak check: live arrays, unsettled reads, buffers and device bytes return to
 * their baseline.
 */
export function checkLeaksAroundEachTest() {
  const check = () => assert.deepEqual(snapshot(), baseline, "leaked arrays or device buffers");
  // Deno's node:test runs afterEach hooks but ignores what they throw; a failing `t.after`
  // hook does fail its test there, so under Deno each test checks through its own.
  const deno = globalThis.Deno !== undefined;
  beforeEach((t) => {
    baseline = snapshot();
    if (deno) t.after(check);
  });
  if (!deno) afterEach(check);
}

/** Asserts `got` and `want` (flat or nested) agree within `tol · (1 + |want|)` each. */
export function assertClose(got, want, tol, what) {
  const g = [got].flat(Infinity);
  const w = [want].flat(Infinity);
  assert.equal(g.length, w.length, `${what}: sizes`);
  g.forEach((x, i) =>
    assert.ok(Math.abs(x - w[i]) <= tol * (1 + Math.abs(w[i])), `${what}[${i}]: ${x} vs ${w[i]}`),
  );
}

/** Elementwise float32 oracle with NumPy broadcasting over nested JS arrays. */
export function f32Broadcast(a, b, op) {
  const shape = (x) => (Array.isArray(x) ? [x.length, ...shape(x[0])] : []);
  const [sa, sb] = [shape(a), shape(b)];
  const rank = Math.max(sa.length, sb.length);
  const pad = (s) => [...Array(rank - s.length).fill(1), ...s];
  const [pa, pb] = [pad(sa), pad(sb)];
  const out = pa.map((d, i) => Math.max(d, pb[i]));
  const at = (x, s, idx) =>
    idx.slice(rank - s.length).reduce((v, k, i) => v[s[i] === 1 ? 0 : k], x);
  const build = (prefix) =>
    prefix.length === rank
      ? Math.fround(op(Math.fround(at(a, sa, prefix)), Math.fround(at(b, sb, prefix))))
      : Array.from({ length: out[prefix.length] }, (_, k) => build([...prefix, k]));
  return build([]);
}

export function errorMessage(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail("expected an error");
}

/**
 * Asserts that `got` (the gradient of the scalar function `f` at the point `x0`, a flat list)
 * matches central finite differences (step 1e-6) within `tol · (1 + |fd|)`; `make(values)`
 * builds the perturbed argument (float64 on cpu, so the differences are exact enough).
 */
export function assertGradMatchesFd(label, f, x0, make, got, tol = 1e-6) {
  const h = 1e-6;
  x0.forEach((_, i) => {
    const at = (d) => scoped((k) => k(f(k(make(x0.map((v, j) => (j === i ? v + d : v)))))).item());
    const fd = (at(h) - at(-h)) / (2 * h);
    assert.ok(
      Math.abs(got[i] - fd) <= tol * (1 + Math.abs(fd)),
      `${label}[${i}]: ${got[i]} vs ${fd}`,
    );
  });
}
