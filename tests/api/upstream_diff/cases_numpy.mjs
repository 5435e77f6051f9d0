// The differential test's numpy cases beyond the first set (see harness.mjs): the rest of the
// elementwise functions (with JS-number operands too), NaN-aware and other reductions, shape
// functions, creation, products, polynomials, predicates and the functions returning pairs.
import {
  arrayOf,
  broadcastPair,
  dim,
  differential,
  fc,
  int,
  shapeOf,
  tensor,
  value,
  withAxis,
} from "./harness.mjs";

const RUNS = 10;
const opts = { runs: RUNS };

const unary = {
  absolute: value(),
  acos: value(-1, 1),
  arccos: value(-1, 1),
  asin: value(-1, 1),
  arcsin: value(-1, 1),
  atan: value(),
  acosh: value(1, 8),
  arccosh: value(1, 8),
  asinh: value(),
  arcsinh: value(),
  atanh: value(-0.875, 0.875),
  arctanh: value(-0.875, 0.875),
  tan: value(-1.25, 1.25),
  deg2rad: value(),
  degrees: value(),
  rad2deg: value(),
  radians: value(),
  rint: value(),
  around: value(),
  sinc: value(),
  signbit: value(),
  positive: value(),
  isinf: value(),
  isneginf: value(),
  isposinf: value(),
  nanToNum: value(),
};
const intUnary = ["bitwiseNot", "bitwiseInvert", "invert", "bitwiseCount"];
const binary = {
  trueDivide: [value(), value(1 / 8, 4)],
  pow: [value(1 / 8, 4), int(-2, 2)],
  floatPower: [value(1 / 8, 4), value(-2, 2)],
  fmax: [value(), value()],
  fmin: [value(), value()],
  copysign: [value(), value()],
  heaviside: [value(), value()],
  logaddexp: [value(), value()],
  logaddexp2: [value(), value()],
  equal: [value(-1, 1), value(-1, 1)],
  notEqual: [value(-1, 1), value(-1, 1)],
  less: [value(-1, 1), value(-1, 1)],
  lessEqual: [value(-1, 1), value(-1, 1)],
  greater: [value(-1, 1), value(-1, 1)],
  greaterEqual: [value(-1, 1), value(-1, 1)],
};
const boolBinary = ["logicalAnd", "logicalOr", "logicalXor"];
const intBinary = ["bitwiseAnd", "bitwiseOr", "bitwiseXor"];
const shifts = ["leftShift", "rightShift", "bitwiseLeftShift", "bitwiseRightShift"];
const nanReductions = ["nanmax", "nanmin", "nansum", "nanprod", "nanmean", "nanvar", "nanstd"];
/** Values with NaN among them (one in eight). */
const withNan = fc.oneof(
  { arbitrary: value(), weight: 7 },
  { arbitrary: fc.constant(NaN), weight: 1 },
);

export function registerNumpy() {
  for (const [name, v] of Object.entries(unary)) {
    differential(
      `numpy.${name}`,
      tensor(0, 3, v),
      (lib, make, t) => lib.numpy[name](make(t.data)),
      opts,
    );
  }
  for (const name of intUnary) {
    differential(
      `numpy.${name} (int32)`,
      // bitwiseCount of a negative int32 counts its 32-bit pattern (JAX); upstream differs.
      tensor(0, 2, int(name === "bitwiseCount" ? 0 : -100, 100)),
      (lib, make, t) => lib.numpy[name](make(t.data, { dtype: "int32" })),
      opts,
    );
  }
  differential(
    "numpy.logicalNot, isscalar, ndim, size, shape",
    tensor(0, 2, fc.boolean()),
    (lib, make, t) => [
      lib.numpy.logicalNot(make(t.data)),
      lib.numpy.isscalar(1.5),
      lib.numpy.ndim(make(t.data)),
      lib.numpy.size(make(t.data)),
      lib.numpy.shape(make(t.data)),
    ],
    opts,
  );
  for (const [name, [v1, v2]] of Object.entries(binary)) {
    differential(
      `numpy.${name}`,
      broadcastPair(v1, v2),
      (lib, make, [a, b]) => {
        const second = make(b);
        return lib.numpy[name](make(a), second);
      },
      { ...opts, tol: /pow|Power/.test(name) ? 5e-5 : 1e-5 },
    );
    differential(
      `numpy.${name} with a number`,
      fc.tuple(tensor(0, 2, v1), v2),
      (lib, make, [t, n]) => [
        lib.numpy[name](make(t.data), n),
        ...(name === "pow" ? [] : [lib.numpy[name](n, make(t.data))]),
      ],
      { ...opts, tol: /pow|Power/.test(name) ? 5e-5 : 1e-5 },
    );
  }
  for (const name of boolBinary) {
    differential(
      `numpy.${name}`,
      broadcastPair(fc.boolean(), fc.boolean()),
      (lib, make, [a, b]) => [lib.numpy[name](make(a), make(b)), lib.numpy[name](make(a), true)],
      opts,
    );
  }
  for (const name of intBinary) {
    differential(
      `numpy.${name}`,
      broadcastPair(int(-50, 50), int(-50, 50)),
      (lib, make, [a, b]) =>
        lib.numpy[name](make(a, { dtype: "int32" }), make(b, { dtype: "int32" })),
      opts,
    );
  }
  for (const name of shifts) {
    differential(
      `numpy.${name}`,
      // A negative int32 shifts right arithmetically (JAX); upstream's shift is logical.
      broadcastPair(int(/right/i.test(name) ? 0 : -50, 50), int(0, 31)),
      (lib, make, [a, b]) =>
        lib.numpy[name](make(a, { dtype: "int32" }), make(b, { dtype: "int32" })),
      opts,
    );
  }
  differential(
    "numpy.ldexp (a number exponent), divmod, modf, frexp",
    fc.tuple(broadcastPair(value(), value(1 / 8, 4)), int(-3, 3)),
    (lib, make, [[a, b], n], keep) => [
      lib.numpy.ldexp(make(a), n),
      lib.numpy.divmod(make(a), make(b)),
      lib.numpy.modf(make(a)),
      // frexp's exponent is int32 (JAX); upstream's is float32: compared as float32.
      ((lib, [m, e]) => [m, keep(e).astype("float32")])(lib, lib.numpy.frexp(make(a))),
    ],
    opts,
  );
  for (const name of nanReductions) {
    differential(
      `numpy.${name}`,
      withAxis(true, withNan),
      (lib, make, t) => lib.numpy[name](make(t.data), t.axis),
      opts,
    );
  }
  for (const name of ["nanargmax", "nanargmin", "nancumsum", "nancumprod"]) {
    differential(
      `numpy.${name}`,
      withAxis(false, withNan),
      (lib, make, t) => lib.numpy[name](make(t.data), t.axis),
      opts,
    );
  }
  differential(
    "numpy.countNonzero, ptp, average",
    withAxis(),
    (lib, make, t) => [
      lib.numpy.countNonzero(make(t.data), t.axis),
      lib.numpy.ptp(make(t.data), t.axis),
      lib.numpy.average(make(t.data), t.axis),
    ],
    opts,
  );
  differential(
    "numpy.cumulativeSum, cumulativeProd",
    withAxis(false),
    (lib, make, t) => [
      lib.numpy.cumulativeSum(make(t.data), { axis: t.axis }),
      lib.numpy.cumulativeProd(make(t.data), { axis: t.axis }),
      lib.numpy.cumulativeSum(make(t.data), { axis: t.axis, includeInitial: true }),
      lib.numpy.cumulativeProd(make(t.data), { axis: t.axis, includeInitial: true }),
    ],
    opts,
  );
  differential(
    "numpy shape functions",
    tensor(2, 3),
    (lib, make, t) => [
      lib.numpy.reshape(make(t.data), [-1]),
      lib.numpy.swapaxes(make(t.data), 0, 1),
      lib.numpy.permuteDims(make(t.data)),
      lib.numpy.matrixTranspose(make(t.data)),
      lib.numpy.rot90(make(t.data)),
      lib.numpy.roll(make(t.data), 1, 0),
      lib.numpy.fliplr(make(t.data)),
      lib.numpy.flipud(make(t.data)),
      lib.numpy.broadcastTo(make(t.data), [2, ...t.shape]),
      lib.numpy.broadcastArrays(make(t.data), make(0)),
      lib.numpy.unstack(make(t.data)),
      lib.numpy.append(make(t.data), make(t.data), 0),
      lib.numpy.pad(make(t.data), 1),
      lib.numpy.diagonal(make(t.data)),
      lib.numpy.astype(make(t.data), "int32"),
      lib.numpy.diff(make(t.data)),
      lib.numpy.ediff1d(make(t.data)),
      lib.numpy.columnStack([make(t.data), make(t.data)]),
    ],
    opts,
  );
  differential(
    "numpy.split, arraySplit, hsplit, vsplit, dsplit",
    fc.tuple(dim, dim).chain(([a, b]) => arrayOf([2 * a, 2 * b, 2])),
    (lib, make, x) => [
      lib.numpy.split(make(x), 2),
      lib.numpy.arraySplit(make(x), 3, 1),
      lib.numpy.hsplit(make(x), 2),
      lib.numpy.vsplit(make(x), 2),
      lib.numpy.dsplit(make(x), 2),
    ],
    opts,
  );
  differential(
    "numpy.take, takeAlongAxis, select, diagflat, isin",
    fc.tuple(dim, dim).chain(([n, m]) => fc.tuple(arrayOf([n, m]), arrayOf([n, m], int(0, m - 1)))),
    (lib, make, [x, idx], keep) => [
      lib.numpy.take(make(x), make(idx, { dtype: "int32" }), 1),
      lib.numpy.takeAlongAxis(make(x), make(idx, { dtype: "int32" }), 1),
      lib.numpy.select([keep(lib.numpy.greater(make(x), 0))], [make(x)], -1),
      lib.numpy.diagflat(make(x)),
      lib.numpy.isin(make(x), make([0, 0.5, 1])),
    ],
    opts,
  );
  differential(
    "numpy creation",
    fc.tuple(dim, dim, value(-2, 2)),
    (lib, make, [n, m, v]) => [
      lib.numpy.zeros([n, m]),
      lib.numpy.ones([n]),
      lib.numpy.full([m], v),
      lib.numpy.zerosLike(make([v, v])),
      lib.numpy.onesLike(make([v])),
      lib.numpy.fullLike(make([v, 1]), 3),
      lib.numpy.arange(n, n + m),
      lib.numpy.linspace(v, v + 1, n + 1),
      lib.numpy.logspace(0, 1, n + 1),
      lib.numpy.geomspace(1, 8, n + 1),
      lib.numpy.eye(n, m),
      lib.numpy.identity(n),
      lib.numpy.tri(n, m),
      lib.numpy.bartlett(n + 2),
      lib.numpy.blackman(n + 2),
      lib.numpy.hann(n + 2),
      lib.numpy.indices([n, m]),
      lib.numpy.diagIndices(n),
      lib.numpy.diagIndicesFrom(make(Array.from({ length: n }, () => Array(n).fill(v)))),
      lib.numpy.meshgrid([make([1, 2, 3].slice(0, n)), make([4, 5])]),
      lib.numpy.vander(make([1, 2, v].slice(0, m)), { n }),
    ],
    opts,
  );
  differential(
    "numpy products",
    fc
      .tuple(dim, dim)
      .chain(([n, m]) =>
        fc.tuple(arrayOf([n]), arrayOf([n]), arrayOf([m, n]), arrayOf([3]), arrayOf([3])),
      ),
    (lib, make, [u, w, mat, p, q]) => [
      lib.numpy.vdot(make(u), make(w)),
      lib.numpy.vecdot(make(u), make(w)),
      lib.numpy.matvec(make(mat), make(u)),
      lib.numpy.vecmat(make(mat.map((r) => r[0])), make(mat)),
      lib.numpy.cross(make(p), make(q)),
      lib.numpy.convolve(make(u), make(w)),
      lib.numpy.correlate(make(u), make(w)),
      lib.numpy.trapezoid(make(u)),
    ],
    opts,
  );
  differential(
    "numpy polynomials",
    fc.tuple(arrayOf([3]), arrayOf([2]), arrayOf([4])),
    (lib, make, [p, q, x]) => [
      lib.numpy.polyval(make(p), make(x)),
      lib.numpy.polyadd(make(p), make(q)),
      lib.numpy.polysub(make(p), make(q)),
      lib.numpy.polymul(make(p), make(q)),
      lib.numpy.polyder(make(p)),
    ],
    opts,
  );
  differential(
    "numpy.cov, corrcoef",
    fc.tuple(dim).chain(([n]) => arrayOf([2, n + 2], value(-4, 4))),
    (lib, make, x) => [lib.numpy.cov(make(x)), lib.numpy.corrcoef(make(x))],
    opts,
  );
  differential(
    "numpy predicates and dtype information",
    broadcastPair(),
    (lib, make, [a, b]) => [
      lib.numpy.allclose(make(a), make(b)),
      lib.numpy.allclose(make(a), make(a)),
      lib.numpy.arrayEqual(make(a), make(a)),
      lib.numpy.arrayEqual(make(a), make(b)),
      lib.numpy.arrayEquiv(make(a), make(b)),
      lib.numpy.resultType(make(a), "int32"),
      lib.numpy.promoteTypes("int32", "float32"),
      lib.numpy.broadcastShapes([2, 1], [3]),
      lib.numpy.finfo("float32").eps,
      lib.numpy.iinfo("int32").max,
    ],
    opts,
  );
  differential(
    "numpy.unwrap",
    tensor(1, 2, value(-8, 8)),
    (lib, make, t) => lib.numpy.unwrap(make(t.data)),
    opts,
  );
  differential(
    "numpy.fromfunction, applyAlongAxis, applyOverAxes",
    fc.tuple(dim, dim),
    (lib, make, [n, m], keep) => [
      lib.numpy.fromfunction((i, j) => keep(i.mul(m)).add(j), [n, m]),
      lib.numpy.applyAlongAxis(
        (r) => lib.numpy.sum(r),
        1,
        make(Array.from({ length: n }, (_, i) => Array(m).fill(i))),
      ),
      lib.numpy.applyOverAxes(
        (x, ax) => lib.numpy.sum(x, ax, { keepdims: true }),
        make(Array.from({ length: n }, (_, i) => Array(m).fill(i))),
        [0],
      ),
    ],
    opts,
  );
}
