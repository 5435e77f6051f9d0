// The workloads of the sweep (bench/sweep.mjs on wasm in Node, bench/sweep_webgpu.ts on webgpu
// in Deno): one entry per function that both oxjax and `@jax-js/jax` export, each with the sizes
// it runs at and how to build its arguments. Both libraries have the same API, so one `make`
// serves both: `make(L, size)` gets the library's module `L` and returns `{ args, run? }` —
// `args` the arrays and values passed (jax-js consumes array arguments, so the harness passes
// `.ref`s there), `run(f, args)` for calls that are not `f(...args)`. Functions with no numeric
// workload (types, device and tree utilities, tracing to a Jaxpr) are in `NOT_TIMED`.

/** Elementwise and reduction sizes (elements), matrix sizes (n of n×n), FFT lengths. */
export const E = [100, 10_000, 1_000_000];
export const M = [16, 64, 256];
export const FFT = [1024, 1000, 16_384, 1 << 20];

/** Deterministic float32 values in [lo, hi). */
export function values(count, lo = 0.1, hi = 0.9, seed = 1) {
  const out = new Float32Array(count);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = lo + ((s >>> 8) / (1 << 24)) * (hi - lo);
  }
  return out;
}

const arr = (L, shape, lo, hi, seed) =>
  L.numpy.array(
    values(
      shape.reduce((a, b) => a * b, 1),
      lo,
      hi,
      seed,
    ),
    { shape },
  );
const ints = (L, shape, mod = 1000, seed = 3) =>
  L.numpy.array(
    Int32Array.from(
      values(
        shape.reduce((a, b) => a * b, 1),
        0,
        1,
        seed,
      ),
      (v) => (v * mod) | 0,
    ),
    { shape, dtype: "int32" },
  );
/** `f(...xs)` on arrays `xs` that are disposed after (`L.keep` is `.ref` where ops consume). */
const tmp = (L, f, ...xs) => {
  const out = f(...xs.map((x) => (typeof x === "object" ? L.keep(x) : x)));
  xs.forEach((x) => x?.dispose?.());
  return out;
};
/** A boolean mask of `n` elements. */
const mask = (L, n, seed) => tmp(L, L.numpy.greater, arr(L, [n], 0, 1, seed), 0.5);
/** A 2-D shape of `n` elements: [10, 10], [100, 100], [1000, 1000]. */
const sq = (n) => {
  const r = Math.round(Math.sqrt(n));
  return [r, n / r];
};
/** A symmetric positive definite n×n matrix: a·aᵀ/n + I. */
const spd = (L, n) => {
  const a = arr(L, [n, n], -1, 1, 7);
  const t = tmp(L, L.numpy.matmul, a, L.numpy.transpose(L.keep(a)));
  return tmp(L, L.numpy.add, tmp(L, L.numpy.divide, t, n), L.numpy.eye(n));
};

const UNARY = `abs absolute arccos arcsin arctan arctanh acos asin atan atanh arcsinh asinh cbrt
  ceil cos cosh deg2rad degrees exp exp2 expm1 floor log log10 log1p log2 negative positive
  rad2deg radians reciprocal rint round around sign signbit sin sinc sinh sqrt square tan tanh
  trunc isfinite isinf isnan isneginf isposinf nanToNum`;
const UNARY_GE1 = "arccosh acosh";
const NN_UNARY = `celu elu gelu hardSigmoid hardSilu hardSwish hardTanh identity leakyRelu
  logSigmoid mish relu relu6 selu sigmoid silu softSign softplus sparsePlus sparseSigmoid
  squareplus swish glu`;
const BINARY = `add subtract multiply divide trueDivide floorDivide remainder fmod pow power
  floatPower maximum minimum fmax fmin arctan2 atan2 hypot copysign heaviside logaddexp
  logaddexp2 equal notEqual greater greaterEqual less lessEqual`;
const INT_UNARY = "bitwiseCount bitwiseInvert bitwiseNot invert";
const INT_BINARY = `bitwiseAnd bitwiseOr bitwiseXor bitwiseLeftShift bitwiseRightShift leftShift
  rightShift`;
const BOOL_BINARY = "logicalAnd logicalOr logicalXor";
const REDUCE = `sum prod max min mean std var_ argmax argmin all any countNonzero nanmax nanmin
  nansum nanprod nanmean nanstd nanvar nanargmax nanargmin ptp average cumsum cumprod
  nancumsum nancumprod diff ediff1d unwrap sort argsort trapezoid
  ravel flip fliplr flipud squeeze`;
const NN_REDUCE = "logsumexp logmeanexp softmax logSoftmax standardize";
const MATRIX_2 = `matmul dot inner outer tensordot vdot vecdot`;
const LINALG_1 = `cholesky det eigh eigvalsh inv matrixNorm norm slogdet svd svdvals trace
  diagonal matrixTranspose`;
const FFT_1 = "fft ifft fftshift ifftshift";
const FFT_REAL = "rfft ihfft";
const FFT_2D = "fft2 ifft2 fftn ifftn rfft2 rfftn";
const RANDOM_SHAPE = `bits cauchy exponential gumbel laplace logistic maxwell normal rademacher
  uniform`;

const words = (s) => s.split(/\s+/).filter(Boolean);

/** [name, sizes, make] for every timed function. */
export function cases() {
  const list = [];
  const add = (name, sizes, make) => list.push({ name, sizes, make });
  for (const f of words(UNARY)) add(`numpy.${f}`, E, (L, n) => ({ args: [arr(L, [n])] }));
  for (const f of words(UNARY_GE1))
    add(`numpy.${f}`, E, (L, n) => ({ args: [arr(L, [n], 1.1, 3)] }));
  for (const f of ["erf", "erfc"]) {
    add(`lax.${f}`, E, (L, n) => ({ args: [arr(L, [n], -2, 2)] }));
    add(`scipySpecial.${f}`, E, (L, n) => ({ args: [arr(L, [n], -2, 2)] }));
  }
  add("scipySpecial.logit", E, (L, n) => ({ args: [arr(L, [n])] }));
  add("lax.stopGradient", E, (L, n) => ({ args: [arr(L, [n])] }));
  add("nn.log1mexp", E, (L, n) => ({ args: [arr(L, [n], -3, -0.1)] }));
  for (const f of words(NN_UNARY)) add(`nn.${f}`, E, (L, n) => ({ args: [arr(L, [n], -2, 2)] }));
  for (const f of words(BINARY))
    add(`numpy.${f}`, E, (L, n) => ({ args: [arr(L, [n]), arr(L, [n], 0.2, 1.5, 2)] }));
  add("numpy.ldexp", E, (L, n) => ({ args: [arr(L, [n]), ints(L, [n], 8)] }));
  for (const f of words(INT_UNARY)) add(`numpy.${f}`, E, (L, n) => ({ args: [ints(L, [n])] }));
  for (const f of words(INT_BINARY))
    add(`numpy.${f}`, E, (L, n) => ({ args: [ints(L, [n]), ints(L, [n], 8, 5)] }));
  for (const f of words(BOOL_BINARY))
    add(`numpy.${f}`, E, (L, n) => ({
      args: [mask(L, n, 1), mask(L, n, 2)],
    }));
  add("numpy.logicalNot", E, (L, n) => ({ args: [mask(L, n, 1)] }));
  for (const f of ["modf", "frexp", "divmod"])
    add(`numpy.${f}`, E, (L, n) => ({
      args: f === "divmod" ? [arr(L, [n], 1, 9), arr(L, [n], 1, 3, 2)] : [arr(L, [n], -4, 4)],
    }));
  for (const f of words(REDUCE)) add(`numpy.${f}`, E, (L, n) => ({ args: [arr(L, sq(n))] }));
  for (const f of ["cumulativeSum", "cumulativeProd"])
    add(`numpy.${f}`, E, (L, n) => ({ args: [arr(L, sq(n)), 1] }));
  for (const f of words(NN_REDUCE)) add(`nn.${f}`, E, (L, n) => ({ args: [arr(L, sq(n))] }));
  for (const f of ["logsumexp", "softmax", "logSoftmax"])
    add(`scipySpecial.${f}`, E, (L, n) => ({ args: [arr(L, sq(n))] }));
  moreElementwise(add);
  creation(add);
  matrices(add);
  signals(add);
  random(add);
  transforms(add);
  return list;
}

function moreElementwise(add) {
  const two = (f, make) => add(`numpy.${f}`, E, make);
  two("clip", (L, n) => ({ args: [arr(L, [n]), 0.3, 0.6] }));
  two("where", (L, n) => ({
    args: [mask(L, n, 4), arr(L, [n]), arr(L, [n], 0, 1, 2)],
  }));
  two("allclose", (L, n) => ({ args: [arr(L, [n]), arr(L, [n])] }));
  two("arrayEqual", (L, n) => ({ args: [arr(L, [n]), arr(L, [n])] }));
  two("arrayEquiv", (L, n) => ({ args: [arr(L, [n]), arr(L, [n])] }));
  two("astype", (L, n) => ({ args: [arr(L, [n]), "int32"] }));
  two("isin", (L, n) => ({ args: [ints(L, [n], 100), ints(L, [10], 100, 9)] }));
  two("select", (L, n) => ({
    args: [[mask(L, n, 4)], [arr(L, [n], 0, 1, 2)], 0],
  }));
  two("transpose", (L, n) => ({ args: [arr(L, sq(n))] }));
  two("matrixTranspose", (L, n) => ({ args: [arr(L, sq(n))] }));
  two("permuteDims", (L, n) => ({ args: [arr(L, sq(n)), [1, 0]] }));
  two("swapaxes", (L, n) => ({ args: [arr(L, sq(n)), 0, 1] }));
  two("moveaxis", (L, n) => ({ args: [arr(L, sq(n)), 0, 1] }));
  two("reshape", (L, n) => ({ args: [arr(L, sq(n)), [-1]] }));
  two("expandDims", (L, n) => ({ args: [arr(L, [n]), 0] }));
  two("roll", (L, n) => ({ args: [arr(L, [n]), 3] }));
  two("rot90", (L, n) => ({ args: [arr(L, sq(n))] }));
  two("tile", (L, n) => ({ args: [arr(L, [n]), [2]] }));
  two("repeat", (L, n) => ({ args: [arr(L, [n]), 2] }));
  two("pad", (L, n) => ({ args: [arr(L, sq(n)), 2] }));
  two("broadcastTo", (L, n) => ({ args: [arr(L, [n]), [2, n]] }));
  two("broadcastArrays", (L, n) => ({ args: [arr(L, [n]), arr(L, [1])] }));
  two("tril", (L, n) => ({ args: [arr(L, sq(n))] }));
  two("triu", (L, n) => ({ args: [arr(L, sq(n))] }));
  two("diag", (L, n) => ({ args: [arr(L, sq(n))] }));
  two("diagflat", (L, n) => ({ args: [arr(L, [Math.round(Math.sqrt(n))])] }));
  two("diagonal", (L, n) => ({ args: [arr(L, sq(n))] }));
  two("trace", (L, n) => ({ args: [arr(L, sq(n))] }));
  two("take", (L, n) => ({ args: [arr(L, [n]), ints(L, [n], n)] }));
  two("takeAlongAxis", (L, n) => ({ args: [arr(L, [n]), ints(L, [n], n), 0] }));
  for (const f of ["concatenate", "stack", "hstack", "vstack", "dstack", "columnStack"])
    two(f, (L, n) => ({ args: [[arr(L, [n]), arr(L, [n], 0, 1, 2)]] }));
  two("append", (L, n) => ({ args: [arr(L, [n]), arr(L, [n], 0, 1, 2)] }));
  for (const f of ["split", "arraySplit", "hsplit"]) two(f, (L, n) => ({ args: [arr(L, [n]), 2] }));
  two("vsplit", (L, n) => ({ args: [arr(L, sq(n)), 2] }));
  two("dsplit", (L, n) => ({ args: [arr(L, [1, ...sq(n)]), 2] }));
  two("unstack", (L, n) => ({ args: [arr(L, [10, n / 10])] }));
  two("applyAlongAxis", (L, n) => ({
    args: [arr(L, sq(n))],
    run: (f, [x]) => f((r) => L.numpy.sum(r), 1, x),
  }));
  two("applyOverAxes", (L, n) => ({
    args: [arr(L, sq(n))],
    run: (f, [x]) => f((a, ax) => L.numpy.sum(a, ax, { keepdims: true }), x, [0]),
  }));
  add("lax.bitcastConvertType", E, (L, n) => ({ args: [arr(L, [n]), "int32"] }));
  add("lax.reduceWindow", E, (L, n) => ({
    args: [arr(L, [n / 100, 1, 10, 10])],
    run: (f, [x]) => f(x, L.numpy.max, [1, 1, 2, 2], [1, 1, 2, 2]),
  }));
  add("lax.topK", E, (L, n) => ({ args: [arr(L, [n]), 8] }));
  add("nn.oneHot", E, (L, n) => ({ args: [ints(L, [n / 10], 10), 10] }));
}

function creation(add) {
  const shape = (f, extra = []) =>
    add(`numpy.${f}`, E, (L, n) => ({ args: [], run: (g) => g(sq(n), ...extra) }));
  shape("zeros");
  shape("ones");
  shape("full", [1.5]);
  shape("indices");
  for (const f of ["zerosLike", "onesLike"])
    add(`numpy.${f}`, E, (L, n) => ({ args: [arr(L, [n])] }));
  add("numpy.fullLike", E, (L, n) => ({ args: [arr(L, [n]), 2] }));
  add("numpy.array", E, (L, n) => {
    const data = values(n);
    return { args: [], run: (g) => g(data) };
  });
  for (const f of ["arange", "bartlett", "blackman", "hann"])
    add(`numpy.${f}`, E, (L, n) => ({ args: [n] }));
  for (const f of ["linspace", "logspace", "geomspace"])
    add(`numpy.${f}`, E, (L, n) => ({ args: [1, 2, n] }));
  for (const f of ["eye", "identity"])
    add(`numpy.${f}`, E, (L, n) => ({ args: [Math.round(Math.sqrt(n))] }));
  add("numpy.tri", E, (L, n) => ({ args: [Math.round(Math.sqrt(n))] }));
  add("numpy.meshgrid", E, (L, n) => ({ args: [[arr(L, [sq(n)[0]]), arr(L, [sq(n)[1]])]] }));
  add("numpy.fromfunction", E, (L, n) => ({
    args: [],
    run: (g) => g((i, j) => L.numpy.add(i, j), sq(n)),
  }));
  add("numpy.vander", E, (L, n) => ({ args: [arr(L, [Math.round(Math.sqrt(n))])] }));
  for (const f of ["fftfreq", "rfftfreq"]) add(`numpy.fft.${f}`, E, (L, n) => ({ args: [n] }));
}

function matrices(add) {
  for (const f of words(MATRIX_2))
    add(`numpy.${f}`, M, (L, n) => ({ args: [arr(L, [n, n], -1, 1), arr(L, [n, n], -1, 1, 2)] }));
  add("numpy.einsum", M, (L, n) => ({
    args: ["ij,jk->ik", arr(L, [n, n], -1, 1), arr(L, [n, n], -1, 1, 2)],
  }));
  add("numpy.matvec", M, (L, n) => ({ args: [arr(L, [n, n]), arr(L, [n], 0, 1, 2)] }));
  add("numpy.vecmat", M, (L, n) => ({ args: [arr(L, [n], 0, 1, 2), arr(L, [n, n])] }));
  for (const f of ["cov", "corrcoef"]) add(`numpy.${f}`, M, (L, n) => ({ args: [arr(L, [n, n])] }));
  for (const f of ["matmul", "tensordot", "vecdot", "outer"])
    add(`numpy.linalg.${f}`, M, (L, n) => ({
      args: [arr(L, [n, n], -1, 1), arr(L, [n, n], -1, 1, 2)],
    }));
  add("numpy.linalg.cross", M, (L, n) => ({ args: [arr(L, [n, 3]), arr(L, [n, 3], 0, 1, 2)] }));
  add("numpy.cross", M, (L, n) => ({ args: [arr(L, [n, 3]), arr(L, [n, 3], 0, 1, 2)] }));
  add("numpy.linalg.vectorNorm", M, (L, n) => ({ args: [arr(L, [n, n])] }));
  add("numpy.linalg.multiDot", M, (L, n) => ({
    args: [[arr(L, [n, n], -1, 1), arr(L, [n, n], -1, 1, 2), arr(L, [n, n], -1, 1, 3)]],
  }));
  add("numpy.linalg.matrixPower", M, (L, n) => ({ args: [arr(L, [n, n], -0.1, 0.1), 3] }));
  for (const f of words(LINALG_1)) add(`numpy.linalg.${f}`, M, (L, n) => ({ args: [spd(L, n)] }));
  for (const f of ["solve", "lstsq"])
    add(`numpy.linalg.${f}`, M, (L, n) => ({ args: [spd(L, n), arr(L, [n, 4])] }));
  for (const f of ["cholesky", "eigh", "lu", "svd"])
    add(`lax.linalg.${f}`, M, (L, n) => ({ args: [spd(L, n)] }));
  add("lax.linalg.triangularSolve", M, (L, n) => ({
    args: [spd(L, n), arr(L, [n, 4])],
    run: (f, [a, b]) => f(a, b, { leftSide: true, lower: true }),
  }));
  add("lax.dot", M, (L, n) => ({ args: [arr(L, [n, n], -1, 1), arr(L, [n, n], -1, 1, 2)] }));
  add("nn.dotProductAttention", M, (L, n) => ({
    args: [arr(L, [n, 4, 16], -1, 1), arr(L, [n, 4, 16], -1, 1, 2), arr(L, [n, 4, 16], 0, 1, 3)],
  }));
  // Images [b, c, h, w] of n×n pixels, 3×3 kernels of 8 → 8 channels.
  const image = (L, n) => arr(L, [1, 8, n, n], -1, 1);
  const kernel = (L) => arr(L, [8, 8, 3, 3], -1, 1, 2);
  add("lax.conv", M, (L, n) => ({ args: [image(L, n), kernel(L), [1, 1], "SAME"] }));
  add("lax.convGeneralDilated", M, (L, n) => ({ args: [image(L, n), kernel(L), [1, 1], "SAME"] }));
  add("lax.convWithGeneralPadding", M, (L, n) => ({
    args: [
      image(L, n),
      kernel(L),
      [1, 1],
      [
        [1, 1],
        [1, 1],
      ],
    ],
  }));
  add("lax.convTranspose", M, (L, n) => ({ args: [image(L, n), kernel(L), [1, 1], "SAME"] }));
}

function signals(add) {
  for (const f of words(FFT_1))
    add(`numpy.fft.${f}`, FFT, (L, n) =>
      f.endsWith("shift")
        ? { args: [arr(L, [n])] }
        : { args: [{ real: arr(L, [n], -1, 1), imag: arr(L, [n], -1, 1, 2) }] },
    );
  for (const f of words(FFT_REAL)) add(`numpy.fft.${f}`, FFT, (L, n) => ({ args: [arr(L, [n])] }));
  for (const f of ["irfft", "hfft"])
    add(`numpy.fft.${f}`, FFT, (L, n) => ({
      args: [{ real: arr(L, [n / 2 + 1], -1, 1), imag: arr(L, [n / 2 + 1], -1, 1, 2) }],
    }));
  for (const f of words(FFT_2D))
    add(`numpy.fft.${f}`, M, (L, n) =>
      f.startsWith("r")
        ? { args: [arr(L, [n, n])] }
        : { args: [{ real: arr(L, [n, n], -1, 1), imag: arr(L, [n, n], -1, 1, 2) }] },
    );
  for (const f of ["irfft2", "irfftn"])
    add(`numpy.fft.${f}`, M, (L, n) => ({
      args: [{ real: arr(L, [n, n / 2 + 1], -1, 1), imag: arr(L, [n, n / 2 + 1], -1, 1, 2) }],
    }));
  for (const f of ["convolve", "correlate"])
    add(`numpy.${f}`, E, (L, n) => ({ args: [arr(L, [n]), arr(L, [9], 0, 1, 2)] }));
  add("numpy.polyval", E, (L, n) => ({ args: [arr(L, [8]), arr(L, [n], 0, 1, 2)] }));
  for (const f of ["polyadd", "polysub", "polymul"])
    add(`numpy.${f}`, M, (L, n) => ({ args: [arr(L, [n]), arr(L, [n], 0, 1, 2)] }));
  add("numpy.polyder", M, (L, n) => ({ args: [arr(L, [n])] }));
}

function random(add) {
  const withKey = (name, make) =>
    add(`random.${name}`, E, (L, n) => {
      const { args, run } = make(L, n);
      return { args: [L.random.key(0), ...args], run };
    });
  for (const f of words(RANDOM_SHAPE)) withKey(f, (L, n) => ({ args: [[n]] }));
  // Parameters before the shape, as both libraries take them.
  withKey("bernoulli", (L, n) => ({ args: [0.5, [n]] }));
  withKey("lognormal", (L, n) => ({ args: [1, [n]] }));
  withKey("rayleigh", (L, n) => ({ args: [1, [n]] }));
  withKey("doubleSidedMaxwell", (L, n) => ({ args: [0, 1, [n]] }));
  withKey("pareto", (L, n) => ({ args: [2, [n]] }));
  withKey("weibullMin", (L, n) => ({ args: [1.5, 2, [n]] }));
  withKey("geometric", (L, n) => ({ args: [0.3, [n]] }));
  withKey("triangular", (L, n) => ({ args: [0, 0.5, 1, [n]] }));
  // jax-js takes (key, { minval, maxval, shape }), oxjax (key, shape, minval, maxval).
  withKey("randint", (L, n) => ({
    args: [],
    run: (f, [key]) =>
      L.isJax ? f(key, { minval: 0, maxval: 100, shape: [n] }) : f(key, [n], 0, 100),
  }));
  withKey("categorical", (L, n) => ({ args: [arr(L, [n / 10, 10])] }));
  withKey("permutation", (L, n) => ({ args: [n] }));
  withKey("choice", (L, n) => ({ args: [n, [n]] }));
  withKey("ball", (L, n) => ({ args: [3, { shape: [n / 10] }] }));
  withKey("split", () => ({ args: [4] }));
  add("random.key", E, () => ({ args: [7] }));
  add("random.multivariateNormal", M, (L, n) => ({
    args: [L.random.key(0), arr(L, [n]), spd(L, n), [4]],
  }));
}

function transforms(add) {
  const vec = (L) => (x) => tmp(L, L.numpy.sin, L.numpy.multiply(L.keep(x), x));
  const loss = (L) => (x) => tmp(L, L.numpy.sum, vec(L)(x));
  for (const f of ["grad", "valueAndGrad"])
    add(f, E, (L, n) => ({ args: [arr(L, [n])], run: (g, [x]) => g(loss(L))(x) }));
  add("jit", E, (L, n) => {
    const jitted = L.jit(vec(L));
    return { args: [arr(L, [n])], run: (_g, [x]) => jitted(x), free: () => jitted.dispose?.() };
  });
  add("vmap", E, (L, n) => ({ args: [arr(L, sq(n))], run: (g, [x]) => g(loss(L))(x) }));
  add("jvp", E, (L, n) => ({
    args: [arr(L, [n]), arr(L, [n], 0, 1, 2)],
    run: (g, [x, t]) => g(vec(L), [x], [t]),
  }));
  add("vjp", E, (L, n) => ({
    args: [arr(L, [n]), arr(L, [n], 0, 1, 2)],
    run: (g, [x, ct]) => {
      const [y, back] = g(vec(L), [x]);
      const out = [y, back(ct)];
      back.dispose?.();
      return out;
    },
  }));
  add("linearize", E, (L, n) => ({
    args: [arr(L, [n]), arr(L, [n], 0, 1, 2)],
    run: (g, [x, t]) => {
      const [y, lin] = g(vec(L), [x]);
      const out = [y, lin(t)];
      lin.dispose?.();
      return out;
    },
  }));
  for (const f of ["jacfwd", "jacrev", "jacobian", "hessian"])
    add(f, M, (L, n) => ({
      args: [arr(L, [n])],
      run: (g, [x]) => g(f === "hessian" ? loss(L) : vec(L))(x),
    }));
}

/** Exports with no numeric workload, and why. */
export const NOT_TIMED = {
  "Array ClosedJaxpr Jaxpr numpy.Array tree.JsTreeDef": "classes",
  "blockUntilReady defaultDevice devicePut getWebGPUDevice init setDebug": "device control",
  "profiler.startTrace profiler.stopTrace makeJaxpr": "tracing utilities",
  "tree.dispose tree.flatten tree.leaves tree.map tree.ref tree.structure tree.unflatten":
    "pytree utilities",
  "numpy.broadcastShapes numpy.finfo numpy.iinfo numpy.isscalar numpy.ndim numpy.shape numpy.size numpy.promoteTypes numpy.resultType numpy.diagIndices numpy.diagIndicesFrom":
    "shape and dtype queries (no array work)",
};
