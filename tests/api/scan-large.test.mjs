// lax.scan bodies too large for one compiled loop: a body of more than 65,536
// equations per step (lower/scan_plan.rs MAX_BODY_EQNS; a 64×64 eigh or SVD has 128,000-219,000)
// is neither lowered nor emitted as a wasm loop module — emitting bodies that size took the wasm
// heap to its 4 GB limit — and runs as the host loop: path "fallback" with the reason in its
// detail, values equal to a float32 oracle in JS (Math.fround, the body's operations in order). With acceptPath ["fused"] the same scan throws a JS
// Error naming scan and the reason. The module limits themselves (V8's 50,000 locals per
// function, 7 MiB per module) are tested in tests/integration/scan_limits.rs. Leak-checked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, np, ox } from "./helpers.mjs";
import { close, observe } from "./scan_observe.mjs";
import { rng } from "../shared/rng.mjs";

checkLeaksAroundEachTest();
const { lax } = ox;

/** Two equations per round and one for the y: 65,539 equations, just over the cap. */
const ROUNDS = 32_769;
const r = rng(8);
const xs = Array.from({ length: 2 }, () => Array.from({ length: 4 }, () => r()));
const init = [0.5, -0.25, 0.125, 1];

// v ← 0.99995·v + x, ROUNDS times (0.99995^32769 ≈ 0.19: the carry still matters).
const body = (c, x) => {
  let v = c;
  for (let k = 0; k < ROUNDS; k++) {
    const next = v.mul(0.99995).add(x);
    if (v !== c) v.dispose();
    v = next;
  }
  return [v, v.mul(2)];
};

/** The scan in JS float32: [final carry, ys]. */
function oracle() {
  const f = Math.fround;
  let c = init.map(f);
  const ys = [];
  for (const x of xs) {
    c = c.map((v, j) => {
      for (let k = 0; k < ROUNDS; k++) v = f(f(v * f(0.99995)) + f(x[j]));
      return v;
    });
    ys.push(c.map((v) => f(2 * v)));
  }
  return [c, ys];
}

const run = (device, opts) => {
  const c0 = np.array(init, { device });
  const x = np.array(xs, { device });
  try {
    return observe(() => lax.scan(body, c0, x, opts));
  } finally {
    ox.tree.dispose([c0, x]);
  }
};

describe("lax.scan: a body over the compiled loop's size cap", () => {
  test("runs as the host loop on wasm, reports why, equals the oracle", () => {
    const got = run("wasm");
    try {
      assert.deepEqual(
        got.events.map((e) => [e.path, e.device, e.length]),
        [["fallback", "wasm", 2]],
      );
      assert.match(got.events[0].detail, /host loop: the body has 65539 equations per step/);
      assert.equal(got.fallback, 1);
      assert.equal(got.fused, 0);
      assert.equal(got.loopRuns, 0, "no loop module ran");
      const want = oracle();
      ox.tree.leaves(got.result).forEach((a, i) => close(a.js(), want[i], 1e-6, `leaf ${i}`));
    } finally {
      ox.tree.dispose(got.result);
    }
  });

  test("acceptPath ['fused'] throws an Error naming scan and the reason", () => {
    assert.throws(
      () => run("wasm", { acceptPath: ["fused"] }),
      (e) =>
        e instanceof Error &&
        /scan/.test(e.message) &&
        /fallback/.test(e.message) &&
        /65539 equations per step/.test(e.message),
    );
  });
});
