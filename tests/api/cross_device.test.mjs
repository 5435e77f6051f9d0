// The compiled device against the `cpu` interpreter (the cross-backend oracle): a set of
// operations — elementwise (exact and transcendental), comparisons and special values,
// reductions, matmul/einsum, indexing, cumulative sums, sorting, conv, the routines
// (cholesky, triangular solve, LU), and the same functions under
// jit, grad and vmap — runs on the compiled device (wasm in Node, webgpu when the suite runs
// there) and on cpu, and the float32 results must agree: exact operations (add, mul, compare,
// select, gather, sort, integer math) bit for bit, transcendental ones within 4e-6·(1 + |cpu|)
// (a few float32 ulps: GPU and wasm libm differ in the last bits), sums and products of
// n terms within 1e-6·n·(1 + max|cpu|) (a different summation order).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, checkLeaksAroundEachTest, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const n = 257; // not a multiple of a workgroup or a vector width
const xs = Array.from({ length: n }, (_, i) => Math.sin(i * 1.3) * 4);
const ys = Array.from({ length: n }, (_, i) => Math.cos(i * 0.7) + 1.5);
const special = [0, -0, Infinity, -Infinity, NaN, 1e-40, -1e-40, 3.4e38, -2.5, 1, 7.5];
const mat = (r, c, s) => Array.from({ length: r * c }, (_, i) => Math.sin(i * s + 0.3));

const EXACT = "exact";
const ULPS = "transcendental";
const SUM = "sum";

// [name, kind, function of (k, x, y, m, w, s, i)]: float32 arrays x, y of n, m 16x24, w 24x8,
// the special values s and int32 indices i; `k` marks an intermediate for disposal (the eager run must not leak).
const ops = [
  ["add/sub/mul/div", EXACT, (k, x, y) => k(k(x.add(y)).mul(x)).sub(k(y.div(k(x.add(5)))))],
  [
    "maximum, minimum, abs, neg, sign",
    EXACT,
    (k, x, y) => k(np.maximum(x, k(np.minimum(y, k(np.abs(k(x.neg()))))))).mul(k(np.sign(x))),
  ],
  [
    "floor, ceil, round, trunc, clip",
    EXACT,
    (k, x) =>
      k(k(k(np.floor(x)).add(k(np.ceil(x)))).add(k(np.round(x)))).add(
        k(np.trunc(k(np.clip(x, -2, 3)))),
      ),
  ],
  [
    "comparisons and where",
    EXACT,
    (k, x, y) => np.where(k(np.greater(x, y)), x, k(np.where(k(np.lessEqual(x, 0)), y, 0))),
  ],
  [
    "isnan, isinf, isfinite of special values",
    EXACT,
    (k, x, y, m, w, s) => {
      const i = (b) => k(k(b).astype(np.int32));
      return k(i(np.isnan(s)).add(k(i(np.isinf(s)).mul(2)))).add(k(i(np.isfinite(s)).mul(4)));
    },
  ],
  ["int32 arithmetic", EXACT, (k, x) => k(k(k(x.mul(100)).astype(np.int32)).mul(3)).add(7)],
  [
    "exp, log, sqrt, tanh",
    ULPS,
    (k, x, y) =>
      k(k(k(np.exp(k(x.mul(0.5)))).add(k(np.log(y)))).add(k(np.sqrt(y)))).add(k(np.tanh(x))),
  ],
  [
    "sin, cos, arctan2, power",
    ULPS,
    (k, x, y) =>
      k(k(k(np.sin(x)).mul(k(np.cos(y)))).add(k(np.arctan2(x, y)))).add(k(np.power(y, 1.7))),
  ],
  ["sigmoid, softplus (nn)", ULPS, (k, x) => k(ox.nn.sigmoid(x)).add(k(ox.nn.softplus(x)))],
  ["sum and mean over an axis", SUM, (k, x, y, m) => k(np.sum(m, 0)).add(k(np.mean(m, 0)))],
  [
    "max, min, argmax",
    EXACT,
    (k, x, y, m) => k(k(np.max(m, 1)).add(k(np.min(m, 1)))).add(k(np.argmax(m, 1))),
  ],
  ["cumsum", SUM, (k, x) => np.cumsum(x)],
  [
    "matmul and einsum",
    SUM,
    (k, x, y, m, w) => k(np.matmul(m, w)).add(k(np.einsum("ij,jk->ik", m, w))),
  ],
  [
    "logsumexp, softmax",
    ULPS,
    (k, x, y, m) => k(ox.nn.logsumexp(m, 1)).add(k(np.sum(k(ox.nn.softmax(m, 1)), 1))),
  ],
  [
    "transpose, reshape, slice, concatenate",
    EXACT,
    (k, x, y, m) =>
      np.concatenate([k(k(k(m.T).reshape([-1])).slice([3, 200])), k(x.slice([0, 50]))]),
  ],
  ["take (gather) and sort", EXACT, (k, x, y, m, w, s, i) => np.sort(k(np.take(x, i)))],
  [
    "convGeneralDilated (strides, SAME, feature groups)",
    SUM,
    (k, x, y, m, w) =>
      ox.lax.convGeneralDilated(
        k(m.reshape([2, 4, 6, 8])),
        k(w.reshape([6, 2, 4, 4])),
        [1, 2],
        "SAME",
        {
          featureGroupCount: 2,
        },
      ),
  ],
  [
    "routines: cholesky, triangular solve, LU",
    SUM,
    (k, x, y, m, w) => {
      // a = wᵀw/24 + I: symmetric positive definite, well conditioned.
      const a = k(k(k(np.matmul(k(w.T), w)).div(24)).add(k(np.eye(8))));
      const l = k(np.linalg.cholesky(a));
      const solved = k(
        ox.lax.linalg.triangularSolve(l, k(m.slice([0, 8])), { leftSide: true, lower: true }),
      );
      const [lu, pivots, perm] = ox.lax.linalg.lu(a).map(k);
      const flat = [l, solved, lu, k(pivots.astype(np.float32)), k(perm.astype(np.float32))];
      return np.concatenate(flat.map((t) => k(t.reshape([-1]))));
    },
  ],
];

/** `fn(k, ...inputs)` on `device`: its output's data, dtype and shape; intermediates disposed. */
async function runOn(device, fn) {
  // The default device too: library-built constants (iota, full) are placed there.
  const before = ox.defaultDevice();
  ox.defaultDevice(device);
  const made = [
    np.array(xs, { device }),
    np.array(ys, { device }),
    np.array(mat(16, 24, 0.37), { shape: [16, 24], device }),
    np.array(mat(24, 8, 0.91), { shape: [24, 8], device }),
    np.array(special, { device }),
    np.array([5, 0, 256, 17, 17, 3], { dtype: np.int32, device }),
  ];
  try {
    const temps = [];
    let out;
    try {
      out = fn((t) => (temps.push(t), t), ...made);
    } finally {
      for (const t of temps) if (t !== out) t.dispose();
    }
    try {
      assert.equal(out.device, device);
      return { data: Array.from(await out.data()), dtype: out.dtype, shape: out.shape };
    } finally {
      out.dispose();
    }
  } finally {
    for (const a of made) a.dispose();
    ox.defaultDevice(before);
  }
}

function agree(kind, got, want, label) {
  assert.deepEqual([got.dtype, got.shape], [want.dtype, want.shape], `${label}: dtype/shape`);
  const scale = Math.max(1, ...want.data.filter(Number.isFinite).map(Math.abs));
  want.data.forEach((w, i) => {
    const g = got.data[i];
    if (kind === EXACT || !Number.isFinite(w)) {
      assert.ok(Object.is(g, w) || (g === 0 && w === 0), `${label}[${i}]: ${g} vs cpu ${w}`);
      return;
    }
    const tol = kind === ULPS ? 4e-6 * (1 + Math.abs(w)) : 1e-6 * 24 * scale;
    assert.ok(Math.abs(g - w) <= tol, `${label}[${i}]: ${g} vs cpu ${w} (tol ${tol})`);
  });
}

// Each op eagerly, and as one jitted function (fused kernels), traced afresh per device.
const transforms = [
  ["eager", (f) => f],
  [
    "jit",
    (f) =>
      (k, ...inputs) => {
        const jitted = ox.jit((...xs) => f((t) => t, ...xs));
        try {
          return jitted(...inputs);
        } finally {
          jitted.dispose();
        }
      },
  ],
];

describe(`${COMPILED} matches the cpu interpreter`, () => {
  for (const [name, kind, fn] of ops) {
    for (const [how, wrap] of transforms) {
      test(`${name} (${how})`, async () => {
        const want = await runOn("cpu", wrap(fn));
        const got = await runOn(COMPILED, wrap(fn));
        agree(kind, got, want, `${name} ${how}`);
      });
    }
  }

  test("grad and vmap of a small network", async () => {
    // Tracers need no disposal: they belong to their trace.
    const loss = (w, x) => np.sum(np.tanh(np.matmul(x, w)).mul(np.cos(x.slice([], [0, 8]))));
    const f = (k, x, y, m, w) =>
      ox.vmap((row) => ox.grad((v) => loss(v, row.reshape([1, 24])))(w))(m);
    const want = await runOn("cpu", f);
    const got = await runOn(COMPILED, f);
    agree(ULPS, got, want, "vmap(grad)");
  });
});
