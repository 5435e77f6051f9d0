// Recovery: a Rust panic traps without unwinding, and a stack
// overflow inside a call abandons Rust frames the same way. The bridge rewinds the shadow stack
// and voids the abandoned borrows before the next call, and traces whose function threw are
// closed even when their abort ran out of stack: so any number of traps and overflows leave
// the instance working, with nothing held open.
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, SYNC, errorMessage, scoped, scopedAsync } from "./helpers.mjs";
import { call, wasm } from "../../pkg/bridge.js";

/** A known-good call gives the right value. */
function assertWorks() {
  scoped((k) => {
    const x = k(np.array([1, 2, 3], SYNC));
    assert.deepEqual(k(x.add(1)).js(), [2, 3, 4]);
    assert.deepEqual(k(ox.jit((v) => v.mul(2))(x)).js(), [2, 4, 6]);
  });
}

test("10,000 traps in a loop leave the library working", () => {
  const before = ox.memoryStats().wasmMemoryBytes;
  for (let i = 0; i < 10000; i++) {
    const err = errorMessage(() => call(() => wasm.debugPanic(`trap ${i}`)));
    assert.ok(err instanceof Error);
    if (i % 1000 === 0) assert.match(err.message, new RegExp(`oxjax internal error[^]*trap ${i}$`));
  }
  for (let i = 0; i < 10000; i++) {
    errorMessage(() => call(() => wasm.debugPanicHoldingState(`held ${i}`)));
  }
  assertWorks();
  const grown = ox.memoryStats().wasmMemoryBytes - before;
  assert.ok(grown < 8 << 20, `wasm memory grew by ${grown} bytes over 20,000 traps`);
});

test("random.choice of a 0-d array is a count, as in JAX (was a panic)", () =>
  scopedAsync(async (k) => {
    const key = k(ox.random.key(0));
    const n = k(np.array(3, { dtype: "int32", ...SYNC }));
    for (let i = 0; i < 700; i++) {
      const s = k(ox.random.choice(key, n, [4]));
      assert.deepEqual(s.shape, [4]);
      if (i % 100 === 0) assert.ok((await s.jsAsync()).every((v) => v >= 0 && v < 3));
    }
    assertWorks();
  }));

/** `f` recursing forever through `x.add(0)`; every array it made, to dispose afterwards. */
function runaway() {
  const made = [];
  const rec = (v) => {
    const w = v.add(0);
    made.push(w);
    return rec(w);
  };
  return { rec, made };
}

test("a stack overflow inside jit, grad, vmap, makeJaxpr or scan closes the trace", () =>
  scoped((k) => {
    const x = k(np.array([1, 2, 3], SYNC));
    const { rec, made } = runaway();
    const sum = (v) => rec(v).sum();
    const cases = {
      jit: () => ox.jit(rec)(x),
      grad: () => ox.grad(sum)(x),
      vmap: () => ox.vmap(rec)(x),
      makeJaxpr: () => ox.makeJaxpr(rec)(x),
      scan: () => ox.lax.scan((c, _) => [rec(c), c], x, null, { length: 2 }),
    };
    for (const [name, f] of Object.entries(cases)) {
      for (let i = 0; i < 3; i++) {
        const err = errorMessage(f);
        assert.ok(err instanceof RangeError, `${name}: ${err}`);
        // Tracers made before the overflow are dead with their trace.
        made.length = 0;
        // No trace is left open: eager operations compute and read again.
        assert.deepEqual(k(x.add(1)).js(), [2, 3, 4], name);
      }
    }
    assertWorks();
  }));

test("hundreds of eager stack overflows leave the instance working", () => {
  for (let i = 0; i < 300; i++) {
    const rec = () => (np.promoteTypes("float32", "int32"), rec());
    assert.ok(errorMessage(rec) instanceof RangeError);
  }
  scoped((k) => {
    const x = k(np.array([1, 2, 3], SYNC));
    for (let i = 0; i < 20; i++) {
      const { rec, made } = runaway();
      assert.ok(errorMessage(() => rec(x)) instanceof RangeError);
      for (const a of made) a.dispose();
    }
  });
  assertWorks();
});
