// The differential test's first cases (see harness.mjs): elementwise math, reductions, joins,
// products, einsum, activations, linalg, sorting, random bits. Upstream is the oracle only
// where JAX agrees with it; FEATURES.md's "Intended differences" are not compared.
import {
  arrayOf,
  broadcastPair,
  dim,
  differential,
  fc,
  shapeOf,
  tensor,
  value,
  withAxis,
} from "./harness.mjs";

// The functions -------------------------------------------------------------------------------
const unary = {
  abs: value(),
  negative: value(),
  square: value(),
  sin: value(),
  cos: value(),
  tanh: value(),
  arctan: value(),
  sinh: value(-3, 3),
  cosh: value(-3, 3),
  exp: value(),
  exp2: value(),
  expm1: value(),
  floor: value(),
  ceil: value(),
  sign: value(),
  cbrt: value(),
  log: value(1 / 8, 8),
  log2: value(1 / 8, 8),
  log10: value(1 / 8, 8),
  log1p: value(0, 8),
  sqrt: value(0, 8),
  reciprocal: value(1 / 8, 8),
};
const binary = {
  add: [value(), value()],
  subtract: [value(), value()],
  multiply: [value(), value()],
  divide: [value(), value(1 / 8, 4)],
  maximum: [value(), value()],
  minimum: [value(), value()],
  power: [value(1 / 8, 4), value(-2, 2)],
  arctan2: [value(), value(1 / 8, 4)],
  atan2: [value(), value(1 / 8, 4)],
  hypot: [value(), value()],
};
const reductions = ["sum", "mean", "max", "min", "prod"];
const activations = ["relu", "sigmoid", "silu", "softplus", "elu", "leakyRelu", "relu6"];

/** The first cases: elementwise math, reductions, joins, products, linalg, random bits. */
export function registerCore() {
  for (const [name, v] of Object.entries(unary)) {
    differential(`numpy.${name}`, tensor(0, 3, v), (lib, make, t) => lib.numpy[name](make(t.data)));
  }
  for (const [name, [v1, v2]] of Object.entries(binary)) {
    // jax-js's power is exp(y·log x) in float32 (a relative error up to ~2e-5); oxjax's is
    // within a few ulp, as JAX's.
    differential(
      `numpy.${name}`,
      broadcastPair(v1, v2),
      (lib, make, [a, b]) => lib.numpy[name](make(a), make(b)),
      { tol: name === "power" ? 5e-5 : 1e-5 },
    );
  }
  differential(
    "numpy.power with a number base",
    fc.tuple(value(1 / 2, 3), tensor(0, 2, value(-3, 3))),
    (lib, make, [b, t]) => lib.numpy.power(b, make(t.data)),
    { tol: 5e-5 },
  );
  for (const name of reductions) {
    differential(`numpy.${name}`, fc.tuple(withAxis(), fc.boolean()), (lib, make, [t, keepdims]) =>
      lib.numpy[name](make(t.data), t.axis, { keepdims }),
    );
  }
  differential(
    "numpy.mean of int32",
    withAxis(true, fc.integer({ min: -9, max: 9 })),
    (lib, make, t) => lib.numpy.mean(make(t.data, { dtype: "int32" }), t.axis),
  );
  for (const name of ["argmax", "argmin", "cumsum"]) {
    differential(`numpy.${name}`, withAxis(false), (lib, make, t) =>
      lib.numpy[name](make(t.data), t.axis),
    );
  }
  differential("numpy.var_ and std", withAxis(), (lib, make, t) => [
    lib.numpy.var_(make(t.data), t.axis),
    lib.numpy.std(make(t.data), t.axis),
  ]);
  differential("numpy.transpose, flip, ravel", tensor(1, 3), (lib, make, t) => [
    lib.numpy.transpose(make(t.data)),
    lib.numpy.flip(make(t.data), 0),
    lib.numpy.ravel(make(t.data)),
  ]);
  for (const name of ["concatenate", "stack", "hstack", "vstack", "dstack"]) {
    const arb = shapeOf(name === "concatenate" ? 1 : 0, 3).chain((s) =>
      fc.array(arrayOf(s), { minLength: 1, maxLength: 3 }),
    );
    differential(`numpy.${name}`, arb, (lib, make, xs) => lib.numpy[name](xs.map((x) => make(x))));
  }
  differential(
    "numpy.dot",
    fc
      .tuple(shapeOf(1, 3), shapeOf(0, 2), dim)
      .chain(([sa, sbLead, n]) =>
        fc.tuple(
          arrayOf(sa),
          arrayOf(sbLead.length === 0 ? [sa.at(-1)] : [...sbLead.slice(1), sa.at(-1), n]),
        ),
      ),
    (lib, make, [a, b]) => lib.numpy.dot(make(a), make(b)),
  );
  differential(
    "numpy.matmul",
    fc
      .tuple(dim, dim, dim, fc.array(dim, { maxLength: 1 }))
      .chain(([m, k, n, batch]) => fc.tuple(arrayOf([...batch, m, k]), arrayOf([k, n]))),
    (lib, make, [a, b]) => lib.numpy.matmul(make(a), make(b)),
  );
  differential(
    "numpy.einsum (traces, diagonals, ellipses, contractions)",
    fc
      .tuple(dim, dim, dim)
      .chain(([n, m, b]) =>
        fc.tuple(arrayOf([b, n, n]), arrayOf([b, n, m]), fc.integer({ min: 0, max: 4 })),
      ),
    (lib, make, [sq, rect, which]) => {
      const specs = ["bii->b", "bii->bi", "...ij,...jk->...ik", "bij,bjk", "bij->j"];
      const spec = specs[which];
      return which >= 2 && which <= 3
        ? lib.numpy.einsum(spec, make(sq), make(rect))
        : lib.numpy.einsum(spec, make(which === 4 ? rect : sq));
    },
  );
  differential("numpy.where and clip", broadcastPair(), (lib, make, [a, b], keep) => [
    lib.numpy.where(keep(lib.numpy.greater(make(a), make(b))), make(a), make(b)),
    lib.numpy.clip(make(a), -1, 1),
    lib.numpy.where(true, make(a), make(b)),
    lib.numpy.where(false, make(a), 0.5),
  ]);
  for (const name of activations) {
    differential(`nn.${name}`, tensor(0, 3), (lib, make, t) => lib.nn[name](make(t.data)));
  }
  differential("nn.gelu (both forms)", tensor(0, 3), (lib, make, t) => [
    lib.nn.gelu(make(t.data)),
    lib.nn.gelu(make(t.data), { approximate: false }),
  ]);
  for (const name of ["softmax", "logSoftmax", "logsumexp"]) {
    differential(`nn.${name}`, withAxis(false), (lib, make, t) =>
      lib.nn[name](make(t.data), t.axis),
    );
  }
  differential(
    "numpy.linalg.cholesky (positive definite or not)",
    fc.tuple(dim, fc.boolean()).chain(([n, spd]) => arrayOf([n, n]).map((m) => ({ m, spd, n }))),
    (lib, make, { m, spd, n }) => {
      // M Mᵀ + n·I is positive definite; M + Mᵀ usually is not.
      const sym = m.map((row, i) =>
        row.map((_, j) =>
          spd ? row.reduce((s, x, q) => s + x * m[j][q], 0) + (i === j ? n : 0) : m[i][j] + m[j][i],
        ),
      );
      return lib.numpy.linalg.cholesky(make(sym));
    },
  );
  for (const name of ["sort", "argsort", "cumprod"]) {
    differential(`numpy.${name}`, withAxis(false), (lib, make, t) =>
      lib.numpy[name](make(t.data), t.axis),
    );
  }
  differential(
    "numpy.isnan, isfinite, round, trunc, remainder, fmod, floorDivide",
    broadcastPair(value(), value(1 / 8, 4)),
    (lib, make, [a, b]) => [
      lib.numpy.isnan(make(a)),
      lib.numpy.isfinite(make(a)),
      lib.numpy.round(make(a)),
      lib.numpy.trunc(make(a)),
      lib.numpy.remainder(make(a), make(b)),
      lib.numpy.fmod(make(a), make(b)),
      lib.numpy.floorDivide(make(a), make(b)),
    ],
  );
  differential(
    "numpy.all, any",
    fc.tuple(withAxis(true, fc.boolean()), fc.boolean()),
    (lib, make, [t, keepdims]) => [
      lib.numpy.all(make(t.data), t.axis, { keepdims }),
      lib.numpy.any(make(t.data), t.axis, { keepdims }),
    ],
  );
  differential(
    "numpy.tile, repeat, expandDims, squeeze, moveaxis",
    tensor(1, 3),
    (lib, make, t) => [
      lib.numpy.tile(make(t.data), [2, 1]),
      lib.numpy.repeat(make(t.data), 2, 0),
      lib.numpy.expandDims(make(t.data), 0),
      lib.numpy.squeeze(make([t.data])),
      lib.numpy.moveaxis(make(t.data), 0, -1),
    ],
  );
  differential(
    "numpy.outer, inner, tensordot, trace, diag, tril, triu",
    fc.tuple(dim, dim).chain(([n, m]) => fc.tuple(arrayOf([n]), arrayOf([m]), arrayOf([n, m]))),
    (lib, make, [u, w, mat]) => [
      lib.numpy.outer(make(u), make(w)),
      lib.numpy.inner(make(u), make(u)),
      lib.numpy.tensordot(make(mat), make(w), 1),
      lib.numpy.trace(make(mat)),
      lib.numpy.diag(make(u)),
      lib.numpy.tril(make(mat)),
      lib.numpy.triu(make(mat)),
    ],
  );
  differential(
    "numpy.linalg.det, inv, solve",
    fc.tuple(dim, dim).chain(([n, k]) => fc.tuple(arrayOf([n, n]), arrayOf([n, k]))),
    (lib, make, [m, b]) => {
      const a = m.map((row, i) => row.map((x, j) => x + (i === j ? 8 : 0)));
      return [
        lib.numpy.linalg.det(make(a)),
        lib.numpy.linalg.inv(make(a)),
        lib.numpy.linalg.solve(make(a), make(b)),
      ];
    },
    { tol: 1e-4 },
  );
  // random.normal is not compared: jax-js uses Box–Muller, oxjax JAX's erfinv (FEATURES.md).
  differential(
    "random.uniform and bits from a key",
    fc.tuple(fc.integer({ min: 0, max: 1000 }), shapeOf(1, 2)),
    (lib, make, [seed, shape], keep) => {
      const key = () => keep(lib.random.key(seed));
      return [lib.random.uniform(key(), shape), lib.random.bits(key(), shape)];
    },
  );
  differential(
    "bool add and multiply",
    broadcastPair(fc.boolean(), fc.boolean()),
    (lib, make, [a, b]) => [lib.numpy.add(make(a), make(b)), lib.numpy.multiply(make(a), make(b))],
  );
}
