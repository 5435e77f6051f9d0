// oxjax/optax against Python optax (tests/data/optax_expected.json, made by
// scripts/gen_optax_expected.py): trajectories of adam, adamw and sgd (with and without
// momentum) and a clipping chain on a small quadratic over a pytree, to 1e-6, with gradients
// from oxjax's valueAndGrad. Also the non-consuming rules (updates and params are never
// consumed; stateful transforms dispose the previous state's arrays), the
// identity returns, and leaks after every test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  COMPILED,
  DEVICES,
  ON_WEBGPU,
  item,
  np,
  ox,
  checkLeaksAroundEachTest,
} from "./helpers.mjs";
import * as optax from "../../pkg/optax/index.js";

checkLeaksAroundEachTest();

const expected = JSON.parse(
  readFileSync(new URL("../data/optax_expected.json", import.meta.url), "utf8"),
);
const { tree } = ox;

function setup(device) {
  const P = expected.problem;
  const consts = Object.fromEntries(
    Object.entries(P).map(([k, v]) => [k, np.array(v, { device })]),
  );
  const params = {
    w: np.array(expected.params0.w, { device }),
    b: np.array(expected.params0.b, { device }),
  };
  // sum(cw * (w - tw)^2) + sum(cb * (b - tb)^2), disposing its intermediates.
  const term = (x, c, t) => {
    const d = x.sub(t);
    const d2 = d.mul(d);
    const e = d2.mul(c);
    const s = np.sum(e);
    for (const a of [d, d2, e]) a.dispose();
    return s;
  };
  const loss = (p) => {
    const a = term(p.w, consts.cw, consts.tw);
    const b = term(p.b, consts.cb, consts.tb);
    try {
      return a.add(b);
    } finally {
      a.dispose();
      b.dispose();
    }
  };
  return { consts, params, grad: ox.grad(loss) };
}

function assertClose(got, want, label) {
  got.forEach((g, i) =>
    assert.ok(Math.abs(g - want[i]) <= 1e-6, `${label}[${i}]: got ${g}, want ${want[i]}`),
  );
}

/** Runs `opt` for the recorded number of steps, comparing the params after each. */
async function run(opt, trajectory, device, label) {
  const { consts, params, grad } = setup(device);
  let p = params;
  let state = opt.init(p);
  try {
    for (const [step, want] of trajectory.entries()) {
      const g = grad(p);
      const [updates, newState] = opt.update(g, state, p);
      const next = optax.applyUpdates(p, updates);
      tree.dispose([g, updates, p, state]);
      state = newState;
      p = next;
      assertClose(await p.w.data(), want.w, `${label} step ${step} w`);
      assertClose(await p.b.data(), want.b, `${label} step ${step} b`);
    }
  } finally {
    tree.dispose([p, state, consts]);
  }
}

for (const device of DEVICES) {
  describe(`optax matches Python optax on ${device}`, () => {
    expected.cases.forEach((c, i) => {
      test(`${c.fn}#${i}(${JSON.stringify(c.args)})`, () =>
        run(optax[c.fn](...c.args), c.trajectory, device, c.fn));
    });
    test("chain(clipByGlobalNorm(1), scaleByAdam(), scale(-0.1))", () =>
      run(
        optax.chain(optax.clipByGlobalNorm(1), optax.scaleByAdam(), optax.scale(-0.1)),
        expected.chain,
        device,
        "chain",
      ));
  });
}

describe("optax ownership", () => {
  test("update consumes neither updates nor params; adam frees its old state", async () => {
    const params = { w: np.array([1, 2]) };
    const grads = { w: np.array([0.5, -1]) };
    const opt = optax.adam(0.1);
    const state0 = opt.init(params);
    const [updates, state1] = opt.update(grads, state0, params);
    assert.equal(grads.w.refCount, 1);
    assert.equal(params.w.refCount, 1);
    // The previous state's arrays were disposed; tree.dispose tolerates that.
    assert.equal(state0[0].count.refCount, 0);
    assert.equal(state0[0].mu.w.refCount, 0);
    tree.dispose(state0);
    assert.deepEqual(await state1[0].count.jsAsync(), 1);
    tree.dispose([params, grads, updates, state1]);
  });

  test("identity and stateless transforms return their inputs", async () => {
    const g = { w: np.array([1, 2]) };
    const state = optax.identity().init(g);
    const [u, s] = optax.identity().update(g, state);
    assert.equal(u, g);
    assert.equal(s, state);
    const [u2, s2] = optax.scale(2).update(g, state);
    assert.equal(s2, state);
    assert.deepEqual(await u2.w.jsAsync(), [2, 4]);
    tree.dispose([g, u2]);
  });

  test("chain frees intermediate updates, not the caller's or passed-through ones", async () => {
    const g = { w: np.array([3, 4]) };
    const opt = optax.chain(optax.scale(2), optax.identity(), optax.scale(0.5));
    const state = opt.init(g);
    const [u] = opt.update(g, state);
    assert.deepEqual(await u.w.jsAsync(), [3, 4]);
    assert.equal(g.w.refCount, 1);
    tree.dispose([g, u]);
  });

  test("losses and tree helpers", async () => {
    const a = np.array([1, 2, 3]);
    const b = np.array([1, 0, 5]);
    const se = optax.squaredError(a, b);
    const l2 = optax.l2Loss(a, b);
    assert.deepEqual(await se.jsAsync(), [0, 4, 4]);
    assert.deepEqual(await l2.jsAsync(), [0, 2, 2]);
    const z = np.zeros([2]);
    assert.throws(() => optax.squaredError(a, z), /squaredError: shape mismatch/);
    const t = { x: a, y: [b] };
    const norms = [
      optax.treeNorm(t),
      optax.treeNorm(t, 1),
      optax.treeNorm(t, "inf"),
      optax.treeNorm(t, 2, true),
      optax.treeSum(t),
      optax.treeMax(t),
    ];
    const want = [Math.sqrt(40), 12, 5, 40, 12, 5];
    for (const [i, n] of norms.entries()) {
      assert.ok(Math.abs((await item(n)) - want[i]) < 1e-5, `norm ${i}`);
    }
    assert.throws(() => optax.treeNorm(t, 3), /treeNorm: unsupported ord 3/);
    tree.dispose([a, b, z, se, l2, norms]);
  });
});

describe("optax under jit", () => {
  for (const i of [0, 5]) {
    const c = expected.cases[i];
    test(`jit(step) with ${c.fn}(${JSON.stringify(c.args)}) follows Python optax`, async () => {
      const { consts, params, grad } = setup(COMPILED);
      const opt = optax[c.fn](...c.args);
      // One optimisation step, traced once: the count-dependent bias correction is in the graph.
      const step = ox.jit((p, s) => {
        const g = grad(p);
        const [u, s2] = opt.update(g, s, p);
        const next = optax.applyUpdates(p, u);
        tree.dispose([g, u]);
        return [next, s2];
      });
      let p = params;
      let state = opt.init(p);
      let compiled = null;
      try {
        for (const [k, want] of c.trajectory.entries()) {
          const [next, s2] = step(p, state);
          // Traced and compiled on the first step only (the count is data, not a constant).
          if (k === 0) compiled = ox.getCacheSizes().jitCompile;
          else assert.equal(ox.getCacheSizes().jitCompile, compiled, "no recompilation");
          tree.dispose([p, state]);
          p = next;
          state = s2;
          assertClose(await p.w.data(), want.w, `jit ${c.fn} step ${k} w`);
          assertClose(await p.b.data(), want.b, `jit ${c.fn} step ${k} b`);
        }
      } finally {
        step.dispose();
        tree.dispose([p, state, consts]);
      }
    });
  }
});

test("optimiser state lives on the device of the parameters (was: the default device)", async () => {
  // Parameters off the default device: cpu with wasm as the default; on the webgpu suite, the
  // issue's case (webgpu parameters, wasm default: float64 bias correction failed there).
  const other = ON_WEBGPU ? "webgpu" : "cpu";
  const saved = ox.defaultDevice();
  ox.defaultDevice("wasm");
  try {
    await stateFollowsParams(other);
  } finally {
    ox.defaultDevice(saved);
  }
});

async function stateFollowsParams(other) {
  const th = np.array([1, 2], { device: other });
  for (const opt of [
    optax.adam(0.1),
    optax.adamw(0.1),
    optax.chain(optax.scaleBySchedule((n) => 0.1 / (n + 1))),
  ]) {
    const state = opt.init(th);
    const counts = ox.tree.leaves(state).filter((l) => l.dtype === "uint32");
    assert.ok(counts.length > 0 && counts.every((c) => c.device === other));
    ox.tree.dispose(state);
  }
  const o = optax.adam(0.1);
  const s0 = o.init(th);
  const update = ox.jit((t, s) => o.update(t, s));
  const [u, s1] = update(th, s0);
  const count = ox.tree.leaves(s1).find((l) => l.dtype === "uint32");
  assert.equal(u.device, other);
  assert.equal(count.device, other);
  assert.equal(await item(count), 1);
  ox.tree.dispose([th, s0, u, s1]);
  update.dispose();
}
