// lax.scan's compiled path on wasm (ARCHITECTURE.md, decision 6): one emitted module runs the
// whole loop, so every scan below reports path "fused" on wasm and costs exactly one module call
// (memoryStats().devices.wasm.loopRuns and dispatches). Oracle: the same scan on the cpu device
// (its host loop, the interpreter), and plain JS loops. Forward and reverse, xs null, ys null,
// length 0, routines (cholesky, triangular solve) in the body, under jit and valueAndGrad (the
// backward scans are fused too), a nested scan (one module runs both loops), caches.
// Leak-checked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, np, ox, scoped as scope } from "./helpers.mjs";
import { close, observe } from "./scan_observe.mjs";

checkLeaksAroundEachTest();
const { lax } = ox;

// carry (c, s), x row: c' = tanh(c·w + x), s' = s + sum(c'); y = c'·x
function body(w) {
  return (carry, x) =>
    scope((u) => {
      const c = np.tanh(u(u(carry.c.mul(w)).add(x)));
      const s = carry.s.add(u(np.sum(c)));
      return [{ c, s }, c.mul(x)];
    });
}

const X = [
  [0.1, 0.2, -0.3],
  [0.5, -1.0, 2.0],
  [1.5, 0.25, -0.75],
  [-2.0, 0.3, 0.9],
  [0.7, 0.7, 0.1],
  [0.05, -0.4, 0.6],
];

function runOn(device, opts, dtype = "float32") {
  const w = np.array([0.9, -0.5, 1.2], { device, dtype });
  const xs = np.array(X, { device, dtype });
  const init = {
    c: np.array([0.3, -0.2, 0.1], { device, dtype }),
    s: np.zeros([], { device, dtype }),
  };
  const o = observe(() => lax.scan(body(w), init, xs, opts));
  const [c, ys] = o.result;
  const out = { c: c.c.js(), s: c.s.js(), ys: ys.js(), o };
  ox.tree.dispose([w, xs, init, c, ys]);
  return out;
}

describe("lax.scan compiled on wasm", () => {
  for (const reverse of [false, true]) {
    test(`reverse=${reverse}: one module call, path "fused", equal to the cpu host loop`, () => {
      const got = runOn("wasm", { reverse });
      const want = runOn("cpu", { reverse });
      assert.deepEqual(
        got.o.events.map((e) => [e.path, e.device, e.length]),
        [["fused", "wasm", X.length]],
      );
      assert.match(got.o.events[0].detail, /wasm loop module/);
      assert.equal(want.o.events[0].path, "fallback");
      assert.equal(got.o.loopRuns, 1);
      assert.equal(got.o.dispatches, 1, "one module call for the whole scan");
      close(got.c, want.c, 1e-6, "carry c");
      close(got.s, want.s, 1e-6, "carry s");
      close(got.ys, want.ys, 1e-6, "ys");
    });
  }

  test("float64 bodies match the cpu interpreter to rounding", () => {
    const got = runOn("wasm", { reverse: true }, "float64");
    const want = runOn("cpu", { reverse: true }, "float64");
    assert.equal(got.o.events[0].path, "fused");
    close(got.ys, want.ys, 1e-14, "ys");
    close(got.s, want.s, 1e-14, "s");
  });

  test('acceptPath "fused" succeeds on wasm; "fallback" alone runs the host loop', () => {
    const got = runOn("wasm", { acceptPath: "fused" });
    assert.equal(got.o.fused, 1);
    const host = runOn("wasm", { acceptPath: "fallback" });
    assert.equal(host.o.events[0].path, "fallback");
    assert.match(host.o.events[0].detail, /acceptPath/);
    assert.equal(host.o.loopRuns, 0);
    close(host.ys, got.ys, 1e-6, "ys");
  });

  test("xs null with length, ys null, and length 0", () => {
    const init = np.array([1, 2], { device: "wasm" });
    const o = observe(() => lax.scan((c) => [c.mul(0.5).add(1), null], init, null, { length: 7 }));
    const [c, ys] = o.result;
    assert.equal(ys, null);
    let want = [1, 2];
    for (let i = 0; i < 7; i++) want = want.map((v) => v * 0.5 + 1);
    close(c.js(), want, 1e-6, "carry");
    assert.deepEqual([o.loopRuns, o.dispatches, o.events[0].path], [1, 1, "fused"]);
    c.dispose();
    // Length 0: the carry is the init, ys are empty; still the compiled path.
    const xs = np.zeros([0, 2], { device: "wasm" });
    const z = observe(() => lax.scan((c, x) => [c.add(x), c.mul(x)], init, xs));
    const [c0, y0] = z.result;
    assert.deepEqual(c0.js(), [1, 2]);
    assert.deepEqual(y0.shape, [0, 2]);
    assert.equal(z.events[0].path, "fused");
    ox.tree.dispose([init, xs, c0, y0]);
  });

  test("carries and xs passed straight through, and a y returned twice", () => {
    const init = { a: np.array([1, 2], { device: "wasm" }), b: np.array(3, { device: "wasm" }) };
    const xs = np.array(
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
      { device: "wasm" },
    );
    const o = observe(() =>
      lax.scan(
        (c, x) => {
          const t = x.add(c.a);
          return [{ a: c.a, b: c.b }, [t, t, x]];
        },
        init,
        xs,
      ),
    );
    const [c, [y1, y2, y3]] = o.result;
    assert.equal(o.events[0].path, "fused");
    assert.deepEqual(c.a.js(), [1, 2]);
    assert.equal(c.b.js(), 3);
    const want = [
      [2, 4],
      [4, 6],
      [6, 8],
    ];
    assert.deepEqual(y1.js(), want);
    assert.deepEqual(y2.js(), want);
    assert.deepEqual(y3.js(), xs.js());
    ox.tree.dispose([init, xs, c, y1, y2, y3]);
  });

  test("a body with cholesky and triangularSolve runs in the loop module and matches cpu", () => {
    const m = 3;
    const run = (device) => {
      const A = np.array(
        [
          [0.9, 0.1, 0],
          [0.05, 0.8, 0.1],
          [0, 0.2, 0.7],
        ],
        { device },
      );
      const I = np.eye(m, undefined, { device });
      const Q = I.mul(0.3);
      I.dispose();
      const ys = np.array(
        Array.from({ length: 8 }, (_, t) => [[Math.sin(t)], [Math.cos(t)], [0.1 * t]]),
        { device },
      );
      const P0 = np.eye(m, undefined, { device });
      const o = observe(() =>
        lax.scan(
          (P, y) =>
            scope((u) => {
              const APA = u(np.matmul(u(np.matmul(A, P)), u(np.matrixTranspose(A))));
              const Pn = APA.add(Q);
              const L = u(lax.linalg.cholesky(Pn));
              const z = lax.linalg.triangularSolve(L, y, { leftSide: true, lower: true });
              return [Pn, z];
            }),
          P0,
          ys,
        ),
      );
      const [P, zs] = o.result;
      const out = { P: P.js(), zs: zs.js(), o };
      ox.tree.dispose([A, Q, ys, P0, P, zs]);
      return out;
    };
    const got = run("wasm");
    const want = run("cpu");
    assert.equal(got.o.events[0].path, "fused");
    assert.match(got.o.events[0].detail, /2 routines/);
    assert.equal(got.o.loopRuns, 1);
    close(got.P, want.P, 1e-5, "P");
    close(got.zs, want.zs, 1e-5, "zs");
  });

  test("under jit: fused, one module call per call, equal to eager", () => {
    const w = np.array([0.9, -0.5, 1.2], { device: "wasm" });
    const xs = np.array(X, { device: "wasm" });
    const init = {
      c: np.array([0.3, -0.2, 0.1], { device: "wasm" }),
      s: np.zeros([], { device: "wasm" }),
    };
    const f = ox.jit((i, x) => lax.scan(body(w), i, x, { reverse: true }));
    f(init, xs).forEach((t) => ox.tree.dispose(t)); // trace and compile
    const o = observe(() => f(init, xs));
    const [c, ys] = o.result;
    assert.deepEqual(
      o.events.map((e) => e.path),
      ["fused"],
    );
    assert.equal(o.loopRuns, 1);
    const [ce, yse] = lax.scan(body(w), init, xs, { reverse: true });
    close(ys.js(), yse.js(), 1e-6, "ys");
    close(c.s.js(), ce.s.js(), 1e-6, "s");
    f.dispose();
    ox.tree.dispose([w, xs, init, c, ys, ce, yse]);
  });

  for (const checkpoint of [false, 2]) {
    test(`under valueAndGrad (checkpoint ${checkpoint}): the step scans are fused; gradients equal cpu's`, () => {
      const grads = {};
      for (const device of ["wasm", "cpu"]) {
        const xs = np.array(X, { device });
        const loss = (w) =>
          scope((u) => {
            const init = { c: u(np.zeros([3], { device })), s: u(np.zeros([], { device })) };
            const [c, ys] = lax.scan(body(w), init, xs, { checkpoint });
            u(c.c);
            u(ys);
            return u(np.sum(u(ys.mul(ys)))).add(c.s);
          });
        const w = np.array([0.9, -0.5, 1.2], { device });
        const o = observe(() => ox.valueAndGrad(loss)(w));
        const [v, g] = o.result;
        grads[device] = { v: v.js(), g: g.js(), o };
        ox.tree.dispose([xs, w, v, g]);
      }
      const { o } = grads.wasm;
      const fused = o.outer.filter((e) => e.path === "fused");
      const host = o.events.filter((e) => e.path === "fallback");
      assert.ok(fused.length >= 2, JSON.stringify(o.events));
      assert.equal(o.loopRuns, fused.length, "one module call per fused scan");
      // Every carry kept, or segments (whose loops nest scans): all compiled.
      assert.equal(host.length, 0, JSON.stringify(host));
      close(grads.wasm.v, grads.cpu.v, 1e-5, "value");
      close(grads.wasm.g, grads.cpu.g, 1e-4, "gradient");
    });
  }

  test("a nested scan: the outer loop's module runs the inner loop too (one module call)", () => {
    const run = (device) => {
      const init = np.array([0.5, -0.5], { device });
      const xs = np.array(
        Array.from({ length: 4 }, (_, i) => Array.from({ length: 3 }, (_, j) => [i - j, 0.5 * j])),
        { device },
      );
      const inner = (c, x) => [c.mul(0.5).add(x), c.mul(x)];
      const o = observe(() =>
        lax.scan(
          (c, x) => {
            const [ci, ys] = lax.scan(inner, c, x, { reverse: true });
            return [ci, ys];
          },
          init,
          xs,
        ),
      );
      const [c, ys] = o.result;
      const out = { c: c.js(), ys: ys.js(), o };
      ox.tree.dispose([init, xs, c, ys]);
      return out;
    };
    const got = run("wasm");
    const want = run("cpu");
    // The outer scan, then the inner one, which ran 4 times inside the outer scan's module.
    assert.deepEqual(
      got.o.events.map((e) => [e.path, e.length]),
      [
        ["fused", 4],
        ["fused", 3],
      ],
    );
    assert.match(got.o.events[0].detail, /1 nested loops/);
    assert.match(got.o.events[1].detail, /^nested in a fused loop: ran 4 times/);
    assert.deepEqual([got.o.loopRuns, got.o.dispatches], [1, 1]);
    assert.equal(want.o.events.length, 5, "cpu: the outer host loop and 4 inner ones");
    // memoryStats().scan counts every run, as the cpu's host loops do.
    assert.deepEqual([got.o.fused, got.o.fallback], [5, 0]);
    assert.deepEqual([want.o.fused, want.o.fallback], [0, 5]);
    // Exact in float32 (halvings and small integers): equal to the cpu host loops.
    assert.deepEqual(got.c, want.c);
    assert.deepEqual(got.ys, want.ys);
  });

  test("a nested scan's acceptPath / requirePath holds for the path it reports", () => {
    const init = np.array([0.5, -0.5], { device: "wasm" });
    const xs = np.array(
      Array.from({ length: 4 }, (_, i) => Array.from({ length: 3 }, (_, j) => [i - j, j])),
      { device: "wasm" },
    );
    const inner = (c, x) => [c.mul(0.5).add(x), c.mul(x)];
    const nested = (opts) => (c, x) => lax.scan(inner, c, x, opts);
    const run = (opts) => {
      const o = observe(() => lax.scan(nested(opts), init, xs));
      ox.tree.dispose(o.result);
      return o;
    };
    try {
      // Accepting "fused": it runs inside the outer scan's module and reports "fused" there.
      for (const opts of [{ acceptPath: ["fused"] }, { requirePath: "fused" }]) {
        const o = run(opts);
        assert.deepEqual(
          o.events.map((e) => [e.path, e.length]),
          [
            ["fused", 4],
            ["fused", 3],
          ],
        );
        assert.match(o.nested[0].detail, /ran 4 times/);
        assert.equal(o.loopRuns, 1);
      }
      // Only "fallback": the outer scan cannot run it compiled, so it is a host loop and the
      // nested scan takes its own (host) path at each of the 4 steps.
      const o = run({ acceptPath: ["fallback"] });
      assert.deepEqual(
        o.events.map((e) => e.path),
        ["fallback", "fallback", "fallback", "fallback", "fallback"],
      );
      assert.match(o.outer.at(-1).detail, /a nested scan's acceptPath does not list 'fused'/);
      assert.equal(o.loopRuns, 0);
      // Nothing accepted: the error names scan and the path.
      assert.throws(
        () => run({ acceptPath: [] }),
        (e) => e instanceof Error && /scan/.test(e.message) && /acceptPath/.test(e.message),
      );
    } finally {
      ox.tree.dispose([init, xs]);
    }
  });

  test("plans and loop modules are cached (a fresh closure hits) and emptied by clearCaches", () => {
    ox.clearCaches();
    const s0 = ox.memoryStats();
    assert.equal(s0.scan.planCacheEntries, 0);
    assert.equal(s0.devices.wasm.loopCacheEntries, 0);
    runOn("wasm", {});
    const s1 = ox.memoryStats();
    assert.equal(s1.scan.planCacheEntries, 1);
    assert.equal(s1.devices.wasm.loopCacheEntries, 1);
    runOn("wasm", {}); // a fresh closure of the same body: no new plan or module
    runOn("wasm", { reverse: true }); // direction is an argument of the module
    const s2 = ox.memoryStats();
    assert.equal(s2.scan.planCacheEntries, 1);
    assert.equal(s2.devices.wasm.loopCacheEntries, 1);
    assert.ok(s2.scan.planCacheCapacity >= 1);
    ox.clearCaches();
    const s3 = ox.memoryStats();
    assert.equal(s3.scan.planCacheEntries, 0);
    assert.equal(s3.devices.wasm.loopCacheEntries, 0);
  });
});
