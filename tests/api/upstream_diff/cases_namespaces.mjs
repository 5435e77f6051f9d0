// The differential test's cases for the other namespaces (see harness.mjs): numpy.fft,
// numpy.linalg, lax, lax.linalg, nn and scipySpecial, written in upstream's ownership style.
import { arrayOf, dim, differential, fc, shapeOf, tensor, value, withAxis } from "./harness.mjs";

// Upstream's ownership style (consumed arguments, `.ref` to reuse), run in oxjax through
// `oxjax/consuming`: every intermediate array is consumed, so the leak check sees any left.
const opts = { runs: 8, consuming: true };
/** A well-conditioned n×n matrix: `m + n·I`... symmetrised when `sym`. */
const conditioned = (m, sym = false) =>
  m.map((row, i) => row.map((x, j) => (sym ? x + m[j][i] : x) + (i === j ? 4 * m.length : 0)));
const square = dim.chain((n) => arrayOf([n, n]));

export function registerNamespaces() {
  differential(
    "numpy.fft (complex transforms)",
    shapeOf(1, 2).chain((s) => fc.tuple(arrayOf(s), arrayOf(s))),
    (lib, make, [re, im]) => {
      const z = () => ({ real: make(re), imag: make(im) });
      const f = lib.numpy.fft;
      const nd = Array.isArray(re[0]) ? 2 : 1;
      return [
        f.fft(z()),
        f.ifft(z()),
        f.fftn(z()),
        f.ifftn(z()),
        ...(nd === 2 ? [f.fft2(z()), f.ifft2(z())] : []),
        f.fftshift(make(re)),
        f.ifftshift(make(re)),
      ];
    },
    { ...opts, tol: 1e-4 },
  );
  differential(
    "numpy.fft (real transforms)",
    shapeOf(2, 2)
      .map(([a, b]) => [a, 2 * b])
      .chain((s) => arrayOf(s)),
    (lib, make, x) => {
      const f = lib.numpy.fft;
      const spectrum = () => f.rfft(make(x));
      return [
        f.rfft(make(x)),
        f.irfft(spectrum()),
        f.rfftn(make(x)),
        f.irfftn(f.rfftn(make(x))),
        f.rfft2(make(x)),
        f.irfft2(f.rfft2(make(x))),
        f.hfft(spectrum()),
        f.ihfft(make(x)),
        f.fftfreq(x[0].length, 0.5),
        f.rfftfreq(x[0].length),
      ];
    },
    { ...opts, tol: 1e-4 },
  );
  differential(
    "numpy.linalg (square)",
    square,
    (lib, make, m) => {
      const a = () => make(conditioned(m));
      const s = () => make(conditioned(m, true));
      const L = lib.numpy.linalg;
      const [w, v] = L.eigh(s());
      const reconstructed = lib.numpy.matmul(
        lib.numpy.multiply(v.ref, w),
        lib.numpy.matrixTranspose(v),
      );
      return [
        // slogdet's sign has the input's dtype (JAX); upstream's is int32: compared as float32.
        ((lib, [sign, logdet]) => [sign.astype("float32"), logdet])(lib, L.slogdet(a())),
        L.matrixPower(a(), 2),
        L.eigvalsh(s()),
        reconstructed,
        L.svdvals(a()),
        L.norm(a()),
        L.matrixNorm(a()),
        L.vectorNorm(a()),
        L.matrixTranspose(a()),
        L.trace(a()),
        L.diagonal(a()),
        L.matmul(a(), a()),
        L.multiDot([a(), a(), a()]),
        L.tensordot(a(), a(), 1),
        L.outer(make(m[0]), make(m[0])),
        L.vecdot(make(m[0]), make(m[0])),
        L.cross(make([1, 2, m[0][0]]), make([3, m[0][0], 1])),
      ];
    },
    { ...opts, tol: 2e-4 },
  );
  differential(
    "numpy.linalg.svd and lstsq (reconstructions)",
    fc.tuple(dim, dim).chain(([n, k]) => fc.tuple(arrayOf([n + k, n]), arrayOf([n + k]))),
    (lib, make, [m, b]) => {
      const L = lib.numpy.linalg;
      const [u, sv, vt] = L.svd(make(m), { fullMatrices: false });
      const usv = lib.numpy.matmul(lib.numpy.multiply(u, sv), vt);
      const x = L.lstsq(make(conditionedTall(m)), make(b.map((y) => [y])));
      return [usv, x];
    },
    { ...opts, tol: 2e-4 },
  );
  differential(
    "lax.linalg",
    square,
    (lib, make, m) => {
      const X = lib.lax.linalg;
      const a = () => make(conditioned(m));
      const [v, w] = X.eigh(make(conditioned(m, true)));
      const [u, s, vt] = X.svd(a(), { fullMatrices: false });
      return [
        X.cholesky(lib.numpy.matmul(a(), lib.numpy.matrixTranspose(a()))),
        X.lu(make(conditioned(m))),
        X.triangularSolve(lib.numpy.tril(make(conditioned(m))), make(m), {
          leftSide: true,
          lower: true,
        }),
        lib.numpy.matmul(lib.numpy.multiply(v.ref, w), lib.numpy.matrixTranspose(v)),
        lib.numpy.matmul(lib.numpy.multiply(u, s), vt),
      ];
    },
    { ...opts, tol: 2e-4 },
  );
  differential(
    "lax elementwise, topK, bitcastConvertType",
    withAxis(false),
    (lib, make, t) => [
      lib.lax.erf(make(t.data)),
      lib.lax.erfc(make(t.data)),
      lib.lax.stopGradient(make(t.data)),
      lib.lax.topK(make(t.data), 1),
      lib.lax.bitcastConvertType(make(t.data), "int32"),
    ],
    opts,
  );
  differential(
    "lax.dot of matrices",
    fc.tuple(dim, dim, dim).chain(([m, k, n]) => fc.tuple(arrayOf([m, k]), arrayOf([k, n]))),
    // With dimension numbers: upstream's default contracts nothing, JAX's lax.dot (oxjax's)
    // the last axis of a with the first of b.
    (lib, make, [a, b]) =>
      lib.lax.dot(make(a), make(b), { lhsContractingDims: [1], rhsContractingDims: [0] }),
    opts,
  );
  differential(
    "lax convolutions and reduceWindow",
    fc
      .tuple(dim, dim)
      .chain(([c, n]) => fc.tuple(arrayOf([1, c, n + 3, n + 2]), arrayOf([c, c, 2, 2]))),
    (lib, make, [x, w]) => [
      lib.lax.conv(make(x), make(w), [1, 1], "VALID"),
      lib.lax.convWithGeneralPadding(
        make(x),
        make(w),
        [1, 1],
        [
          [1, 0],
          [0, 1],
        ],
        [1, 1],
        [2, 1],
      ),
      lib.lax.convGeneralDilated(make(x), make(w), [2, 1], "SAME"),
      lib.lax.convTranspose(make(x), make(w), [1, 1], "VALID"),
      lib.lax.reduceWindow(make(x), (y) => lib.numpy.max(y), [1, 1, 2, 2], [1, 1, 1, 2]),
    ],
    { ...opts, tol: 1e-4 },
  );
  const nnUnary = [
    "celu",
    "hardSigmoid",
    "hardSilu",
    "hardSwish",
    "hardTanh",
    "identity",
    "logSigmoid",
    "mish",
    "selu",
    "softSign",
    "sparsePlus",
    "sparseSigmoid",
    "squareplus",
    "swish",
    "log1mexp",
  ];
  differential(
    "nn elementwise",
    tensor(0, 3),
    (lib, make, t) =>
      nnUnary.map((name) =>
        name === "log1mexp"
          ? lib.nn[name](lib.numpy.add(lib.numpy.abs(make(t.data)), 0.125))
          : lib.nn[name](make(t.data)),
      ),
    opts,
  );
  differential(
    "nn over an axis",
    withAxis(false, value(), 1).filter((t) => t.shape.at(t.axis) % 2 === 0),
    (lib, make, t) => [
      lib.nn.glu(make(t.data), t.axis),
      lib.nn.logmeanexp(make(t.data), t.axis),
      lib.nn.standardize(make(t.data), t.axis),
    ],
    opts,
  );
  differential(
    "nn.oneHot",
    tensor(1, 2, fc.integer({ min: 0, max: 4 })),
    (lib, make, t) => lib.nn.oneHot(make(t.data, { dtype: "int32" }), 5),
    opts,
  );
  differential(
    "nn.dotProductAttention",
    fc
      .tuple(dim, dim, dim)
      .chain(([l, s, h]) => fc.tuple(arrayOf([l, 1, h]), arrayOf([s, 1, h]), arrayOf([s, 1, h]))),
    (lib, make, [q, k, v]) => lib.nn.dotProductAttention(make(q), make(k), make(v)),
    { ...opts, tol: 1e-4 },
  );
  differential(
    "scipySpecial",
    withAxis(false, value(-0.875, 0.875)),
    (lib, make, t) => {
      const S = lib.scipySpecial;
      return [
        S.erf(make(t.data)),
        S.erfc(make(t.data)),
        S.logit(lib.numpy.add(lib.numpy.multiply(make(t.data), 0.5), 0.5)),
        S.softmax(make(t.data), t.axis),
        S.logSoftmax(make(t.data), t.axis),
        S.logsumexp(make(t.data), t.axis),
      ];
    },
    opts,
  );
}

/** `m` (tall) with 4·cols added on its leading diagonal: full column rank, well conditioned. */
function conditionedTall(m) {
  return m.map((row, i) => row.map((x, j) => x + (i === j ? 4 * row.length : 0)));
}
