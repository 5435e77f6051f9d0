// lax.scan: results against plain JS loops of the same body (cpu and wasm), pytrees, reverse,
// xs = null, ys = null, length 0 (identity), option errors, acceptPath, path reports and
// counters; gradients (checkpoint true / false / a segment length) against float64 central
// finite differences, jvp, and `using`-style disposal everywhere in the body. Leak-checked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  COMPILED,
  DEVICES,
  EXACT,
  np,
  ON_WEBGPU,
  ox,
  checkLeaksAroundEachTest,
  errorMessage,
  scoped as scope,
  webgpuSkip,
} from "./helpers.mjs";

checkLeaksAroundEachTest();
const { lax } = ox;

const close = (got, want, tol, what) => {
  const g = got.flat(Infinity);
  const w = want.flat(Infinity);
  assert.equal(g.length, w.length, `${what}: length`);
  g.forEach((v, i) =>
    assert.ok(Math.abs(v - w[i]) <= tol * (1 + Math.abs(w[i])), `${what}[${i}]: ${v} vs ${w[i]}`),
  );
};

// carry c (vector), x row: c' = c * 0.9 + sin(x); y = c' * x
function step(c, x) {
  return scope((u) => {
    const s = u(np.sin(x));
    const next = u(u(c.mul(0.9)).add(s)); // `using` on the returned carry too
    return [next, next.mul(x)];
  });
}
function jsLoop(c0, xs, reverse = false) {
  let c = c0.slice();
  const ys = xs.map(() => null);
  const order = xs.map((_, i) => (reverse ? xs.length - 1 - i : i));
  for (const i of order) {
    c = c.map((v, k) => Math.fround(Math.fround(v * 0.9) + Math.fround(Math.sin(xs[i][k]))));
    ys[i] = c.map((v, k) => Math.fround(v * xs[i][k]));
  }
  return [c, ys];
}

const xs0 = [
  [0.1, 0.2, -0.3],
  [0.5, -1.0, 2.0],
  [1.5, 0.25, -0.75],
  [-2.0, 0.3, 0.9],
  [0.7, 0.7, 0.1],
];

for (const device of DEVICES) {
  describe(`lax.scan on ${device}`, () => {
    for (const reverse of [false, true]) {
      test(`matches a JS loop${reverse ? " (reverse)" : ""}`, async () => {
        const init = np.array([1, -1, 0.5], { device });
        const xs = np.array(xs0, { device });
        const [c, ys] = lax.scan(step, init, xs, { reverse });
        const [wc, wys] = jsLoop([1, -1, 0.5], xs0, reverse);
        close(await c.jsAsync(), wc, 1e-5, "carry");
        close(await ys.jsAsync(), wys, 1e-5, "ys");
        assert.equal(c.device, device);
        for (const a of [init, xs, c, ys]) a.dispose();
      });
    }

    test("pytree carry, xs and ys; closed-over arrays; arrays created in the body", async () => {
      const w = np.array([2, 3], { device });
      const init = { total: np.zeros([2], { device }), count: [np.array(0, { device })] };
      const xs = {
        a: np.array(
          [
            [1, 2],
            [3, 4],
            [5, 6],
          ],
          { device },
        ),
        b: np.array([1, 0, 1], { device }),
      };
      const [carry, ys] = lax.scan(
        (c, x) =>
          scope((u) => {
            const k = u(np.array([10, 10], { device })); // created inside: scan-owned
            const t = u(u(x.a.mul(w)).add(c.total));
            return [{ total: t, count: [u(c.count[0].add(x.b))] }, [u(t.add(k)), null]];
          }),
        init,
        xs,
      );
      assert.deepEqual(await carry.total.jsAsync(), [9 * 2, 12 * 3]);
      assert.equal(await carry.count[0].jsAsync(), 2);
      assert.equal(ys[1], null);
      assert.deepEqual(await ys[0].jsAsync(), [
        [12, 16],
        [18, 28],
        [28, 46],
      ]);
      ox.tree.dispose([w, init, xs, carry, ys]);
    });

    test("xs = null with length; y = null gives ys = null", async () => {
      const init = np.array([1, 2], { device });
      const [c, ys] = lax.scan((c) => [c.mul(2), null], init, null, { length: 4 });
      assert.deepEqual(await c.jsAsync(), [16, 32]);
      assert.equal(ys, null);
      const [c2, ys2] = lax.scan((c) => [c.add(1), c], init, null, { length: 3 });
      assert.deepEqual(await ys2.jsAsync(), [
        [1, 2],
        [2, 3],
        [3, 4],
      ]);
      ox.tree.dispose([init, c, c2, ys2]);
    });

    test("length 0 returns the init leaves themselves and empty ys", () => {
      const init = { a: np.array([1, 2], { device }) };
      const xs = np.zeros([0, 3], { device });
      const [c, ys] = lax.scan((c, x) => [c, x.sum()], init, xs);
      assert.equal(c, init);
      assert.equal(c.a.refCount, 1);
      assert.deepEqual(ys.shape, [0]);
      ox.tree.dispose([init, xs, ys]);
    });
  });
}

test("foriLoop runs body(i, carry) for i in [lower, upper)", async () => {
  const init = { s: np.array(0, { dtype: "int32" }), p: np.array(1, { dtype: "int32" }) };
  const out = lax.foriLoop(2, 6, (i, c) => ({ s: c.s.add(i), p: c.p.mul(i) }), init);
  assert.equal(await out.s.jsAsync(), 2 + 3 + 4 + 5);
  assert.equal(await out.p.jsAsync(), 2 * 3 * 4 * 5);
  assert.equal(
    lax.foriLoop(3, 3, (i, c) => c, init),
    init,
  );
  ox.tree.dispose([init, out]);
});

test("vmap of a scan (batched xs and init, an unbatched const) equals a loop over members", async () => {
  const w = np.array([0.5, -0.25]);
  const f = (init, xs) =>
    lax.scan(
      (c, x) =>
        scope((u) => {
          const nc = u(np.tanh(u(u(c.mul(w)).add(x))));
          return [nc, u(nc.mul(2))];
        }),
      init,
      xs,
    );
  const inits = np.array([
    [0.1, 0.2],
    [0.3, -0.4],
    [1, 1],
  ]);
  const xss = np.array([
    [
      [1, 2],
      [3, 4],
    ],
    [
      [0, 1],
      [1, 0],
    ],
    [
      [-1, 0.5],
      [0.25, 2],
    ],
  ]);
  const [c, ys] = ox.vmap(f, [0, 0])(inits, xss);
  assert.deepEqual(c.shape, [3, 2]);
  assert.deepEqual(ys.shape, [3, 2, 2]);
  for (let k = 0; k < 3; k++) {
    const [i, x] = [inits.slice(k), xss.slice(k)];
    const [ck, yk] = f(i, x);
    close((await c.jsAsync())[k], await ck.jsAsync(), 1e-6, `carry ${k}`);
    close((await ys.jsAsync())[k], await yk.jsAsync(), 1e-6, `ys ${k}`);
    ox.tree.dispose([i, x, ck, yk]);
  }
  // xs batched along axis 1 of the argument, init unbatched.
  const i0 = inits.slice(0);
  const [c2, ys2] = ox.vmap(f, [null, 1])(i0, xss);
  for (let k = 0; k < 2; k++) {
    const x = xss.slice([], k);
    const [ck, yk] = f(i0, x);
    close((await c2.jsAsync())[k], await ck.jsAsync(), 1e-6, `carry2 ${k}`);
    close((await ys2.jsAsync())[k], await yk.jsAsync(), 1e-6, `ys2 ${k}`);
    ox.tree.dispose([x, ck, yk]);
  }
  ox.tree.dispose([w, inits, xss, c, ys, i0, c2, ys2]);
});

describe("lax.scan errors and paths", () => {
  test("bad carries, lengths and options name scan", async () => {
    const init = np.array([1, 2]);
    const xs = np.ones([3, 2]);
    let e = errorMessage(() => lax.scan((c, x) => [c.sum(), x], init, xs));
    assert.match(
      e.message,
      /^scan: .*carry leaf 0 is Array:float32\[2\] initially but Array:float32\[\] after a step/,
    );
    e = errorMessage(() => lax.scan((c, x) => [[c, c], x], init, xs));
    assert.match(e.message, /^scan: the body must return a carry with the structure of init/);
    e = errorMessage(() => lax.scan((c, x) => [c.astype("int32"), x], init, xs));
    assert.match(e.message, /carry leaf 0 is Array:float32\[2\] initially but Array:int32\[2\]/);
    e = errorMessage(() => lax.scan((c) => [c, null], init, null));
    assert.match(e.message, /^scan: length is required/);
    e = errorMessage(() => lax.scan((c, x) => [c, x], init, xs, { length: 4 }));
    assert.match(
      e.message,
      /^scan: xs leaf 0 is Array:float32\[3,2\]: every xs leaf needs a leading axis of length 4/,
    );
    e = errorMessage(() => lax.scan((c, x) => [c, x], init, xs, { checkpoint: 0 }));
    assert.match(e.message, /^scan: checkpoint must be/);
    e = errorMessage(() => lax.scan((c, x) => [c, x], init, xs, { acceptPath: "warp" }));
    assert.match(e.message, /^scan: unknown path "warp"/);
    e = errorMessage(() => lax.scan((c, x) => [c, x], init, xs, { bogus: 1 }));
    assert.match(e.message, /^scan: unknown option\(s\) bogus/);
    e = errorMessage(() => lax.scan(() => c, init, xs));
    assert.ok(e instanceof Error);
    const thrower = () => {
      throw new Error("boom");
    };
    e = errorMessage(() => lax.scan(thrower, init, xs));
    assert.equal(e.message, "boom");
    // After all these failures the trace stack is clean: a plain scan still works.
    const [c, ys] = lax.scan((c, x) => [c.add(x), null], init, xs);
    assert.deepEqual(await c.jsAsync(), [4, 5]);
    ox.tree.dispose([init, xs, c, ys]);
  });

  // wasm and webgpu (the compiled device) run this scan as one compiled loop ("fused", one
  // loop run per call); the cpu interpreter runs the host loop ("fallback") and is the oracle.
  for (const reverse of [false, true]) {
    test(`under jit (reverse ${reverse}): fused on ${COMPILED}, one loop run per call, equal to the cpu host loop`, async () => {
      const rows = xs0.map((r) => r.slice(0, 2));
      const run = async (device) => {
        const init = np.array([1, 2], { device });
        const xs = np.array(rows, { device });
        const f = ox.jit((i, x) => lax.scan(step, i, x, { reverse }));
        const seen = [];
        ox.setScanPathCallback((path, backend, info) => seen.push([path, backend, info.length]));
        const before = ox.memoryStats().devices[device].loopRuns;
        const outs = [f(init, xs), f(init, xs)];
        const runs = ox.memoryStats().devices[device].loopRuns - before;
        ox.setScanPathCallback(null);
        const vals = [];
        for (const [c, ys] of outs) vals.push([await c.jsAsync(), await ys.jsAsync()]);
        ox.tree.dispose([init, xs, outs]);
        f.dispose();
        return { seen, runs, vals };
      };
      const got = await run(COMPILED);
      assert.deepEqual(got.seen, [
        ["fused", COMPILED, 5],
        ["fused", COMPILED, 5],
      ]);
      assert.equal(got.runs, 2, "one compiled loop run per call");
      assert.deepEqual(got.vals[1], got.vals[0]);
      const want = await run("cpu");
      assert.deepEqual(
        want.seen.map((e) => e[0]),
        ["fallback", "fallback"],
      );
      assert.equal(want.runs, 0);
      const [c, ys] = jsLoop([1, 2], rows, reverse);
      close(got.vals[0], want.vals[0], 1e-6, "vs cpu");
      close(got.vals[0], [c, ys], 1e-6, "vs JS loop");
    });
  }

  test("under jit: same results as eager, gradients included", async () => {
    const init = np.array([1, 2]);
    const xs = np.array(xs0.map((r) => r.slice(0, 2)));
    const f = ox.jit((i, x) => lax.scan(step, i, x));
    const [c, ys] = f(init, xs);
    const [c2, ys2] = f(init, xs);
    const [ce, yse] = lax.scan(step, init, xs);
    assert.deepEqual(
      [await c.jsAsync(), await ys.jsAsync()],
      [await ce.jsAsync(), await yse.jsAsync()],
    );
    assert.deepEqual(
      [await c2.jsAsync(), await ys2.jsAsync()],
      [await ce.jsAsync(), await yse.jsAsync()],
    );
    // grad of a jitted scan and jit of a grad of a scan agree with the bare gradient.
    const loss = (t) => {
      const [cc, yy] = lax.scan((c, x) => [c.mul(t).add(x), c], init, xs);
      const s = np.sum(yy);
      const r = s.add(np.sum(cc));
      ox.tree.dispose([cc, yy, s]);
      return r;
    };
    const t = np.array(0.7);
    const gj = ox.jit(ox.grad(loss));
    const [a, b] = [ox.grad(loss)(t), gj(t)];
    assert.ok(
      Math.abs((await a.jsAsync()) - (await b.jsAsync())) < 1e-5 * Math.abs(await a.jsAsync()),
    );
    ox.tree.dispose([init, xs, c, ys, c2, ys2, ce, yse, t, a, b]);
    f.dispose();
    gj.dispose();
  });

  test("acceptPath and requirePath: the cpu host loop is 'fallback'; reports and counters", () => {
    const init = np.array([1, 2], { device: "cpu" });
    const xs = np.ones([3, 2], { device: "cpu" });
    const body = (c, x) => [c.add(x), null];
    for (const acceptPath of ["fused", ["compiled-loop", "preencoded-routine"], []]) {
      const e = errorMessage(() => lax.scan(body, init, xs, { acceptPath }));
      assert.match(e.message, /^scan: the chosen execution path is 'fallback'/);
    }
    const e = errorMessage(() => lax.scan(body, init, xs, { requirePath: "fused" }));
    assert.match(e.message, /'fallback'/);
    const seen = [];
    ox.setScanPathCallback((path, backend, info) => seen.push([path, backend, info.length]));
    const before = ox.memoryStats().scan;
    const [c] = lax.scan(body, init, xs, { acceptPath: ["fused", "fallback"] });
    const after = ox.memoryStats().scan;
    ox.setScanPathCallback(null);
    assert.deepEqual(seen, [["fallback", init.device, 3]]);
    assert.equal(after.fallbackRuns - before.fallbackRuns, 1);
    assert.equal(after.fallbackSteps - before.fallbackSteps, 3);
    ox.tree.dispose([init, xs, c]);
  });
});

// Loss: sum of ys² plus the final carry, through a nonlinear body with a captured constant.
function makeLoss(opts) {
  return (theta, xs) =>
    scope((u) => {
      const [c, ys] = lax.scan(
        (c, x) =>
          scope((u) => {
            const h = u(np.tanh(u(u(c.mul(theta)).add(x))));
            const nc = u(h.mul(u(np.cos(c))));
            return [nc, u(nc.mul(x))];
          }),
        u(xs.slice(0)),
        xs,
        opts,
      );
      u(c);
      u(ys);
      return u(np.sum(u(ys.mul(ys)))).add(u(np.sum(c)));
    });
}

describe("lax.scan under grad", () => {
  const x64 = [
    [0.3, -0.2],
    [0.8, 0.1],
    [-0.5, 0.6],
    [0.2, 0.2],
    [1.1, -0.9],
    [0.4, 0.05],
    [-0.3, -0.7],
  ];

  test(
    "gradients are equal for checkpoint true / false / 3 and match finite differences",
    { skip: webgpuSkip("float64") },
    () => {
      const theta = np.array([0.7, -1.2], { dtype: "float64", device: "cpu" });
      const xs = np.array(x64, { dtype: "float64", device: "cpu" });
      const results = [];
      for (const checkpoint of [true, false, 3, 7, 100]) {
        for (const reverse of [false, true]) {
          const [v, [gt, gx]] = ox.valueAndGrad(makeLoss({ checkpoint, reverse }), {
            argnums: [0, 1],
          })(theta, xs);
          results.push({
            key: `${checkpoint}/${reverse}`,
            reverse,
            v: v.js(),
            gt: gt.js(),
            gx: gx.js(),
          });
          ox.tree.dispose([v, gt, gx]);
        }
      }
      for (const r of results) {
        const ref = results.find((q) => q.reverse === r.reverse);
        close([r.v], [ref.v], 1e-12, `value ${r.key}`);
        close(r.gt, ref.gt, 1e-12, `dtheta ${r.key}`);
        close(r.gx, ref.gx, 1e-12, `dxs ${r.key}`);
      }
      // Central finite differences on theta for both directions.
      for (const reverse of [false, true]) {
        const loss = makeLoss({ reverse });
        const ref = results.find((q) => q.reverse === reverse);
        const t0 = [0.7, -1.2];
        t0.forEach((_, i) => {
          const at = (h) => {
            const t = np.array(
              t0.map((v, k) => (k === i ? v + h : v)),
              { dtype: "float64", device: "cpu" },
            );
            const l = loss(t, xs);
            const value = l.js();
            ox.tree.dispose([t, l]);
            return value;
          };
          const h = 1e-6;
          close(
            [ref.gt[i]],
            [(at(h) - at(-h)) / (2 * h)],
            1e-6,
            `fd theta[${i}] reverse=${reverse}`,
          );
        });
      }
      ox.tree.dispose([theta, xs]);
    },
  );

  test(`grad on ${COMPILED} matches cpu`, async () => {
    const loss = makeLoss({});
    const grads = [];
    for (const device of ["cpu", COMPILED]) {
      const theta = np.array([0.7, -1.2], { device });
      const xs = np.array(x64, { device });
      const g = ox.grad(loss)(theta, xs);
      grads.push(await g.jsAsync());
      ox.tree.dispose([theta, xs, g]);
    }
    close(grads[1], grads[0], 1e-5, `${COMPILED} vs cpu`);
  });

  test("jvp matches finite differences", { skip: webgpuSkip("float64") }, () => {
    const loss = makeLoss({});
    const theta = np.array([0.7, -1.2], { dtype: "float64", device: "cpu" });
    const xs = np.array(x64, { dtype: "float64", device: "cpu" });
    const dir = np.array([0.3, -0.4], { dtype: "float64", device: "cpu" });
    const [out, tan] = ox.jvp((t) => loss(t, xs), [theta], [dir]);
    const at = (h) => {
      const t = np.array([0.7 + 0.3 * h, -1.2 - 0.4 * h], { dtype: "float64", device: "cpu" });
      const l = loss(t, xs);
      const v = l.js();
      ox.tree.dispose([t, l]);
      return v;
    };
    close([tan.js()], [(at(1e-6) - at(-1e-6)) / 2e-6], 1e-6, "jvp");
    ox.tree.dispose([theta, xs, dir, out, tan]);
  });

  test("vjp of a scan with pytree carry and int carry leaves", async () => {
    const xs = np.array([1, 2, 3, 4], EXACT);
    const f = (a) =>
      lax.scan(
        (c, x) => [{ s: c.s.mul(a).add(x), n: c.n.add(1) }, c.s.mul(x)],
        {
          s: np.array(1, EXACT),
          n: np.array(0, { dtype: "int32", device: EXACT.device }),
        },
        xs,
      );
    const a = np.array(0.5, EXACT);
    const [out, vjpFn] = ox.vjp(f, [a]);
    const ct = [
      {
        s: np.array(1, EXACT),
        n: np.array(0, { dtype: "int32", device: EXACT.device }),
      },
      np.ones([4], EXACT),
    ];
    const [ga] = vjpFn(ct);
    // Oracle: finite differences of s_final + sum(ys).
    const total = (av) => {
      let s = 1;
      let sum = 0;
      for (const x of [1, 2, 3, 4]) {
        sum += s * x;
        s = s * av + x;
      }
      return s + sum;
    };
    const tol = ON_WEBGPU ? 1e-5 : 1e-6; // float32 on webgpu
    close([await ga.jsAsync()], [(total(0.5 + 1e-6) - total(0.5 - 1e-6)) / 2e-6], tol, "vjp");
    assert.equal(await out[0].n.jsAsync(), 4);
    vjpFn.dispose();
    ox.tree.dispose([xs, a, out, ct, ga]);
  });
});
