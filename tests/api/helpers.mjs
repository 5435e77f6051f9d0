// Shared helpers of the API tests: the built package, a leak check run after every test, and
// float32 oracles computed independently of oxjax (JS arithmetic rounded with Math.fround).
import { afterEach, beforeEach } from "node:test";
import assert from "node:assert/strict";
import * as ox from "../../pkg/index.js";

export { ox };
export const np = ox.numpy;

let baseline = null;

function snapshot() {
  const s = ox.memoryStats();
  const buffers = Object.values(s.devices).reduce((n, d) => n + d.liveBuffers, 0);
  const bytes = Object.values(s.devices).reduce((n, d) => n + d.liveBytes, 0);
  return { liveArrays: s.liveArrays, liveJaxprs: s.liveJaxprs, buffers, bytes };
}

/** Registers a leak check: live arrays, buffers and device bytes return to their baseline. */
export function checkLeaksAroundEachTest() {
  beforeEach(() => {
    baseline = snapshot();
  });
  afterEach(() => {
    assert.deepEqual(snapshot(), baseline, "leaked arrays or device buffers");
  });
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
