// The differential test's cases in upstream's ownership style, run in oxjax through
// `oxjax/consuming` (see harness.mjs): the transformations, tree helpers, devicePut and
// blockUntilReady, and random: the functions whose values equal upstream's for one key
// compared value for value, the others (different samplers: FEATURES.md) by the quantiles of
// many samples.
import { test } from "node:test";
import assert from "node:assert/strict";
import { consumingLibs, differential, fc, shapeOf, tensor } from "./harness.mjs";

const opts = { runs: 6, consuming: true };

/** sum(sin(x)·x): a scalar function with an easy gradient (cos(x)·x + sin(x)). */
const f = (lib) => (x) => lib.numpy.sum(lib.numpy.sin(x.ref).mul(x));
/** Elementwise: sin(x)·x. */
const g = (lib) => (x) => lib.numpy.sin(x.ref).mul(x);

/** Random functions whose values equal upstream's for the same key, with their arguments. */
const SAME_STREAM = {
  uniform: (shape) => [shape, { minval: -2, maxval: 3 }],
  bits: (shape) => [shape],
  bernoulli: (shape) => [0.3, shape],
  exponential: (shape) => [shape],
  logistic: (shape) => [shape],
  rademacher: (shape) => [{ shape }],
  cauchy: (shape) => [shape],
  split: () => [3],
};
/**
 * The others (different samplers: FEATURES.md), with their arguments for 16384 samples:
 * continuous laws compared by quartiles, discrete ones (`mean: true`) by their means.
 */
const N = 16384;
const SAME_LAW = {
  normal: { args: [[N]] },
  lognormal: { args: [0.5, [N]] },
  gumbel: { args: [[N]] },
  laplace: { args: [[N]] },
  maxwell: { args: [[N]] },
  doubleSidedMaxwell: { args: [0, 1, [N]] },
  weibullMin: { args: [1.5, 2, [N]] },
  pareto: { args: [3, [N]] },
  rayleigh: { args: [1, [N]] },
  triangular: { args: [0, 1, 3, [N]] },
  ball: { args: [3, { shape: [N / 2] }] },
  multivariateNormal: {
    args: (lib) => [
      lib.numpy.array([0, 1]),
      lib.numpy.array([
        [2, 1],
        [1, 2],
      ]),
      [N / 2],
    ],
  },
  geometric: { args: [0.3, { shape: [N] }], mean: true },
  randint: { args: [{ minval: -3, maxval: 9, shape: [N] }], mean: true },
  categorical: { args: (lib) => [lib.numpy.array([0, 1, 2]), { shape: [N] }], mean: true },
};

/** The 25th, 50th and 75th percentiles of `xs`. */
function quartiles(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return [0.25, 0.5, 0.75].map((p) => s[Math.floor(p * (s.length - 1))]);
}

/** Mean and variance of `xs`. */
function moments(xs) {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return [m, xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length];
}

export function registerTransforms() {
  differential(
    "grad, valueAndGrad, jacfwd, jacrev, jacobian, hessian",
    tensor(1, 1),
    (lib, make, t) => [
      lib.grad(f(lib))(make(t.data)),
      lib.valueAndGrad(f(lib))(make(t.data)),
      lib.jacfwd(g(lib))(make(t.data)),
      lib.jacrev(g(lib))(make(t.data)),
      lib.jacobian(g(lib))(make(t.data)),
      lib.hessian(f(lib))(make(t.data)),
    ],
    { ...opts, tol: 1e-4 },
  );
  differential(
    "jvp, vjp, linearize, vmap, jit",
    tensor(1, 2),
    (lib, make, t) => {
      const [y, vjpFn] = lib.vjp(g(lib), [make(t.data)]);
      const ct = vjpFn(lib.numpy.onesLike(make(t.data)));
      vjpFn.dispose();
      const [yl, lin] = lib.linearize(g(lib), [make(t.data)]);
      const tl = lin(lib.numpy.onesLike(make(t.data)));
      lin.dispose();
      const jitted = lib.jit(g(lib));
      const out = jitted(make(t.data));
      jitted.dispose();
      return [
        lib.jvp(g(lib), [make(t.data)], [lib.numpy.onesLike(make(t.data))]),
        y,
        ct,
        yl,
        tl,
        lib.vmap(g(lib))(make(t.data)),
        out,
      ];
    },
    { ...opts, tol: 1e-4 },
  );
  differential(
    "tree helpers",
    fc.tuple(tensor(0, 2), tensor(0, 2)),
    (lib, make, [a, b]) => {
      const t = () => [make(a.data), { only: make(b.data) }];
      const [leaves, def] = lib.tree.flatten(t());
      const rebuilt = lib.tree.unflatten(def, leaves);
      const u = t();
      const size = lib.tree.structure(u).size;
      lib.tree.dispose(u);
      const r = lib.tree.ref(make(a.data));
      return [lib.tree.map((x) => x.mul(2), t()), lib.tree.leaves(t()), rebuilt, size, r, r];
    },
    opts,
  );
  for (const [name, args] of Object.entries(SAME_STREAM)) {
    differential(
      `random.${name} (same stream)`,
      fc.tuple(fc.integer({ min: 0, max: 999 }), shapeOf(1, 2)),
      (lib, make, [seed, shape]) => lib.random[name](lib.random.key(seed), ...args(shape, lib)),
      opts,
    );
  }
  test("random samplers that differ from upstream's draw the same law", () => {
    const { oxc, up } = consumingLibs();
    for (const [name, { args, mean }] of Object.entries(SAME_LAW)) {
      const draw = (lib) => {
        const a = typeof args === "function" ? args(lib) : args;
        return lib.random[name](lib.random.key(42), ...a)
          .js()
          .flat(Infinity);
      };
      const [xo, xu] = [draw(oxc), draw(up)];
      if (mean) {
        // Five standard errors of the difference of the two sample means.
        const [[mo, vo], [mu, vu]] = [moments(xo), moments(xu)];
        const se = Math.sqrt(vo / xo.length + vu / xu.length);
        assert.ok(Math.abs(mo - mu) <= 5 * se, `${name}: mean ${mo} vs ${mu} (se ${se})`);
        continue;
      }
      // A quartile of 16384 samples has a standard error of at most ~1.5% of the
      // interquartile range for these laws: 10% of it is about five of the difference.
      const [qo, qu] = [quartiles(xo), quartiles(xu)];
      const iqr = qu[2] - qu[0];
      qo.forEach((q, i) =>
        assert.ok(Math.abs(q - qu[i]) <= 0.1 * iqr, `${name}: quartile ${i}: ${q} vs ${qu[i]}`),
      );
    }
  });
  test("random.permutation and choice draw permutations and distinct values, as upstream", () => {
    const { oxc, up } = consumingLibs();
    const run = (lib) => {
      const p = lib.random.permutation(lib.random.key(3), 6);
      const c = lib.random.choice(lib.random.key(3), 5, { shape: [3], replace: false });
      const [pd, cd, cs] = [p.dtype, c.dtype, c.shape];
      const [pv, cv] = [p.js(), c.js()];
      return {
        permutation: [pd, [...pv].sort((a, b) => a - b)],
        choice: [cd, cs, new Set(cv).size, cv.every((v) => v >= 0 && v < 5)],
      };
    };
    assert.deepEqual(run(oxc), run(up));
  });
  test("devicePut, blockUntilReady and defaultDevice give upstream's values", async () => {
    const { oxc, up } = consumingLibs();
    const run = async (lib) => {
      const [x] = await lib.devicePut([lib.numpy.array([1, 2.5])], "cpu");
      const y = await lib.blockUntilReady(lib.numpy.multiply(x.ref, 2));
      return { x: [x.device, x.js()], y: y.js(), d: typeof lib.defaultDevice() };
    };
    assert.deepEqual(await run(oxc), await run(up));
  });
}
