// checkLeaks reports exactly the arrays created in its window and still alive, with where they
// were created; `using`-style disposal and tracers leave nothing behind.
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox } from "./helpers.mjs";

test("checkLeaks reports exactly the leaked arrays, with creation sites", () => {
  const outside = np.array([1, 2]); // created before start: never reported
  ox.checkLeaks.start();
  assert.equal(ox.checkLeaks.active, true);
  const a = np.array([1, 2, 3]);
  const b = a.add(1);
  const kept = b.mul(2); // leaked
  const alsoKept = np.zeros([2, 2]); // leaked
  a.dispose();
  b[Symbol.dispose]();
  const snap = ox.checkLeaks.snapshot();
  assert.deepEqual(snap.map((e) => e.desc).sort(), ["Array:float32[2,2]", "Array:float32[3]"]);
  assert.ok(
    snap.every((e) => e.location.includes("leaks.test.mjs")),
    JSON.stringify(snap),
  );
  const report = ox.checkLeaks.stop("guard argument is ignored");
  assert.equal(report.leaked, 2);
  assert.equal(report.details.length, 2);
  assert.match(report.summary, /^2 arrays leaked:/);
  assert.equal(ox.checkLeaks.active, false);
  kept.dispose();
  alsoKept.dispose();
  outside.dispose();
});

test("checkLeaks finds nothing when everything is disposed; stop without start is a no-op", () => {
  assert.deepEqual(ox.checkLeaks.stop(), { leaked: 0, details: [], summary: "No leaks detected." });
  ox.checkLeaks.start({ trackRefs: true });
  const x = np.array([1, 2]);
  const y = x.ref;
  y.dispose();
  const { jaxpr } = ox.makeJaxpr((t) => t.add(t).mul(3))(x);
  jaxpr.dispose();
  x.dispose();
  const report = ox.checkLeaks.stop();
  assert.deepEqual(report, { leaked: 0, details: [], summary: "No leaks detected." });
});

test("trackRefs records the last .ref site of a leaked array", () => {
  ox.checkLeaks.start({ trackRefs: true });
  const x = np.array([5]);
  x.ref; // leaks a reference
  x.dispose();
  const [entry] = ox.checkLeaks.snapshot();
  assert.equal(entry.rc, 1);
  assert.match(entry.lastRef ?? "", /leaks\.test\.mjs/);
  assert.equal(ox.checkLeaks.stop().leaked, 1);
  x.dispose();
});
