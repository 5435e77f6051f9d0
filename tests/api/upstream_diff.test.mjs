// Differential test: every function exported by both oxjax and upstream @jax-js/jax 0.1.25
// runs on the same generated inputs in both libraries (upstream on its wasm device in the same
// process), and oxjax must give upstream's dtype, shape and values (float32 within a stated
// relative tolerance: summation order and transcendentals differ by a few ulp). Upstream is the
// oracle only where JAX agrees with it: FEATURES.md's "Intended differences" are not compared.
// The last test checks that the cases called every shared export, or that EXCLUDED says why
// one is not compared. Cases: upstream_diff/cases_*.mjs; machinery: upstream_diff/harness.mjs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest } from "./helpers.mjs";
import { called, sharedExports } from "./upstream_diff/harness.mjs";
import { registerCore } from "./upstream_diff/cases_core.mjs";
import { registerNumpy } from "./upstream_diff/cases_numpy.mjs";
import { registerNamespaces } from "./upstream_diff/cases_namespaces.mjs";
import { registerTransforms } from "./upstream_diff/cases_transforms.mjs";

checkLeaksAroundEachTest();

/** Shared exports not compared value for value, and why. */
const EXCLUDED = {
  init: "starts backends: oxjax has cpu, wasm and webgpu, upstream also webgl; no values",
  getWebGPUDevice: "needs WebGPU, absent in Node (the webgpu suites test it)",
  setDebug: "logging switch; no values",
  makeJaxpr: "the printed Jaxprs differ (oxjax's primitives are not upstream's); tests/api/trace",
  "profiler.startTrace": "profiling; no values",
  "profiler.stopTrace": "profiling; no values",
};

describe("oxjax matches upstream @jax-js/jax on generated inputs", () => {
  registerCore();
  registerNumpy();
  registerNamespaces();
  registerTransforms();
});

test("every export both packages share is compared above or excluded with a reason", () => {
  const shared = sharedExports();
  const missing = shared.filter((name) => !called.has(name) && !(name in EXCLUDED));
  assert.deepEqual(missing, [], "shared exports neither compared nor excluded");
  const stale = Object.keys(EXCLUDED).filter((name) => !shared.includes(name) || called.has(name));
  assert.deepEqual(stale, [], "exclusions that are not shared exports, or are compared");
  assert.ok(shared.length > 350, `${shared.length} shared exports`);
});
