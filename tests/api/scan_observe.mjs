// What the wasm scan tests (scan-fused, scan-routines, scan-nested) observe around a call: the
// scan paths reported through setScanPathCallback (split into outer and nested scans) and the
// wasm device's loop counters; and their tolerance check over nested lists.
import assert from "node:assert/strict";
import { ox } from "./helpers.mjs";

/** Asserts |got − want| ≤ tol·(1 + |want|) elementwise over (nested) lists or numbers. */
export const close = (got, want, tol, what) => {
  const g = [got].flat(Infinity);
  const w = [want].flat(Infinity);
  assert.equal(g.length, w.length, `${what}: length`);
  g.forEach((v, i) =>
    assert.ok(Math.abs(v - w[i]) <= tol * (1 + Math.abs(w[i])), `${what}[${i}]: ${v} vs ${w[i]}`),
  );
};

/** The detail of a scan that ran nested in another scan's compiled loop. */
export const NESTED = /^nested in a fused loop: ran (\d+) times/;

/** Runs `fn` and returns its result with the scan events and wasm counters it caused. */
export function observe(fn) {
  const events = [];
  ox.setScanPathCallback((path, device, info) => events.push({ path, device, ...info }));
  const before = ox.memoryStats();
  let result;
  try {
    result = fn();
  } finally {
    ox.setScanPathCallback(null);
  }
  const after = ox.memoryStats();
  const d = (k) => after.devices.wasm[k] - before.devices.wasm[k];
  return {
    result,
    events,
    // Scans nested in a compiled loop report after it (detail "nested in a fused loop: ran K
    // times …", one event per run of the outer loop); `outer` are the others, one module call
    // each on wasm.
    outer: events.filter((e) => !NESTED.test(e.detail)),
    nested: events.filter((e) => NESTED.test(e.detail)),
    loopRuns: d("loopRuns"),
    dispatches: d("dispatches"),
    fused: after.scan.fusedRuns - before.scan.fusedRuns,
    fallback: after.scan.fallbackRuns - before.scan.fallbackRuns,
  };
}
