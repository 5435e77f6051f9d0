// The wasm device on several threads (Node worker_threads): every workload gives the same bits
// on 1 thread and on 4 threads, and equals the cpu interpreter (bit for bit for exact
// operations, within a few ulp for transcendentals). On 4 threads the pool's test switch
// `__oxjaxWasmPoolWorkersOnly` leaves every chunk of a split dispatch to the workers, and each
// workload must have workers compute chunks of it (`wasmThreadInfo().workerChunks`; routines
// split themselves: `splitRoutines`), so the comparison is not vacuous. Sizes are not
// multiples of the split alignment, so the last chunk has a scalar tail. The last test runs
// in the pool's normal mode, where the calling thread claims chunks too.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { ox, np, checkLeaksAroundEachTest, scoped } from "./helpers.mjs";

checkLeaksAroundEachTest();
after(() => {
  delete globalThis.__oxjaxWasmPoolWorkersOnly;
  return ox.init({ wasmThreads: 1 });
});

const lax = ox.lax;

/** Deterministic values in [-4, 4). */
function values(n, seed) {
  const out = new Float64Array(n);
  let s = seed * 7919 + 17;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out[i] = (s / 2147483648) * 8 - 4;
  }
  return out;
}

/** Inputs of a workload on `device`: `[shape, dtype]` specs made from `values`. */
function inputs(specs, device) {
  return specs.map(([shape, dtype], k) => {
    const n = shape.reduce((a, b) => a * b, 1);
    const v = values(n, k + 1);
    const data = dtype === "float64" ? v : Float32Array.from(v);
    return scoped((k) => k(np.array(data, { device, dtype })).reshape(shape));
  });
}

/**
 * Runs `fn(k, ...inputs)` on fresh inputs on `device`; returns the output's elements. `fn`
 * passes every array it makes through `k`, which disposes them all at the end.
 */
function run(device, specs, fn) {
  return scoped((k) => {
    const xs = inputs(specs, device).map(k);
    return k(fn(k, ...xs)).dataSync();
  });
}

function sameBits(a, b, what) {
  assert.equal(a.length, b.length, what);
  const [x, y] = [new Uint8Array(a.buffer), new Uint8Array(b.buffer)];
  const first = x.findIndex((v, i) => v !== y[i]);
  assert.equal(first, -1, `${what}: first difference at byte ${first}`);
}

function close(got, want, what) {
  // A few ulp of the terms (a sum of transcendentals cancels: relative to 1 + |want|).
  const tol = got instanceof Float64Array ? 1e-13 : 2e-6;
  for (let i = 0; i < want.length; i++) {
    const ok =
      Object.is(got[i], want[i]) || Math.abs(got[i] - want[i]) <= tol * (1 + Math.abs(want[i]));
    if (!ok) assert.fail(`${what}[${i}]: ${got[i]} vs ${want[i]}`);
  }
}

/**
 * Checks a group of workloads `[name, specs, fn, exact, counter]`: wasm on 1 and on 4 threads
 * give the same bits, and on 4 workers compute chunks of each workload (with `counter`,
 * `"splitRoutines"`, a routine of it is split); both equal the cpu device (`exact`: bit for
 * bit). `workersOnly` false: the pool's normal mode.
 */
async function checkGroup(cases, workersOnly = true) {
  await ox.init({ wasmThreads: 1 });
  const single = cases.map(([, specs, fn]) => run("wasm", specs, fn));
  assert.equal(ox.wasmThreadInfo().threads, 1);
  await ox.init({ wasmThreads: 4 });
  const info = ox.wasmThreadInfo();
  assert.equal(info.state, "ready", info.reason ?? "");
  assert.equal(info.threads, 4);
  cases.forEach(([name, specs, fn, exact, counter = "splitKernels"], k) => {
    const before = ox.wasmThreadInfo();
    globalThis.__oxjaxWasmPoolWorkersOnly = workersOnly;
    let multi;
    try {
      multi = run("wasm", specs, fn);
    } finally {
      delete globalThis.__oxjaxWasmPoolWorkersOnly;
    }
    const now = ox.wasmThreadInfo();
    assert.ok(now[counter] > before[counter], `${name}: no ${counter}`);
    if (workersOnly) assert.ok(now.workerChunks > before.workerChunks, `${name}: no worker chunk`);
    assert.equal(now.state, "ready", now.reason ?? "");
    sameBits(multi, single[k], `${name}: 4 threads vs 1`);
    const cpu = run("cpu", specs, fn);
    if (exact) sameBits(multi, cpu, `${name}: wasm vs cpu`);
    else close(multi, cpu, `${name}: wasm vs cpu`);
  });
}

const N = 100_003;
const F32 = [
  [[N], "float32"],
  [[N], "float32"],
];
const F64 = [
  [[N], "float64"],
  [[N], "float64"],
];
const chainFn = (x) =>
  scoped((k) =>
    k(np.tanh(k(k(x.mul(2)).add(1))))
      .mul(k(np.exp(k(x.neg()))))
      .add(k(np.sin(x))),
  );

test("elementwise kernels: 1 thread, 4 threads and cpu agree", async () => {
  const chain = ox.jit(chainFn);
  try {
    await elementwise(chain);
  } finally {
    chain.dispose();
  }
});

async function elementwise(chain) {
  const mix = (k, x, y) => k(k(k(x.add(y)).mul(y)).sub(k(x.div(y))));
  await checkGroup([
    ["(x + y) * y - x / y", F32, mix, true],
    ["float64 (x + y) * y - x / y", F64, mix, true],
    ["sqrt |x| + floor(y)", F32, (k, x, y) => k(np.sqrt(k(np.abs(x)))).add(k(np.floor(y))), true],
    ["where(x < y, x, 3y)", F32, (k, x, y) => np.where(k(x.less(y)), x, k(y.mul(3))), true],
    [
      "int32 (x * 7) % 5",
      F32,
      (k, x) => np.remainder(k(k(k(x.mul(1000)).astype("int32")).mul(7)), 5),
      true,
    ],
    [
      "exp, log, sin, cos",
      F32,
      (k, x, y) => {
        const e = k(np.exp(x));
        const l = k(np.log(k(k(np.abs(y)).add(1))));
        return k(k(e.add(l)).mul(k(np.sin(x)))).sub(k(np.cos(y)));
      },
      false,
    ],
    [
      "tanh, atan, erf",
      F32,
      (k, x, y) => k(k(np.tanh(x)).add(k(np.arctan(y)))).add(k(lax.erf(x))),
      false,
    ],
    [
      "float64 exp, sin, tanh",
      F64,
      (k, x, y) => k(k(np.exp(x)).mul(k(np.sin(y)))).add(k(np.tanh(x))),
      false,
    ],
    ["jit tanh(2x+1)·exp(−x)+sin(x)", F32.slice(0, 1), (k, x) => chain(x), false],
  ]);
}

test("reductions: 1 thread, 4 threads and cpu agree", async () => {
  const rows = [[[1001, 517], "float32"]];
  const cols = [[[517, 1001], "float32"]];
  await checkGroup([
    ["sum over a contiguous axis", rows, (k, x) => np.sum(x, 1), true],
    ["max over a strided axis", cols, (k, x) => np.max(x, 0), true],
    ["argmax", rows, (k, x) => np.argmax(x, 1), true],
    ["mean of exp (epilogue)", rows, (k, x) => np.mean(k(np.exp(x)), 1), false],
    ["float64 sum", [[[1001, 517], "float64"]], (k, x) => np.sum(x, 1), true],
    ["cumsum", [[[517, 101], "float32"]], (k, x) => np.cumsum(x, 1), true],
  ]);
});

test("matrix products: 1 thread, 4 threads and cpu agree", async () => {
  const pair = (m, kk, n, dtype = "float32") => [
    [[m, kk], dtype],
    [[kk, n], dtype],
  ];
  const mm = (k, a, b) => np.matmul(a, b);
  await checkGroup([
    ["130×96 @ 96×72 (tiled, row tail)", pair(130, 96, 72), mm, true],
    ["64×200 @ 200×13 (column tail)", pair(64, 200, 13), mm, true],
    ["float64 90×80 @ 80×70", pair(90, 80, 70, "float64"), mm, true],
    [
      "batched 4×40×50 @ 4×50×36",
      [
        [[4, 40, 50], "float32"],
        [[4, 50, 36], "float32"],
      ],
      mm,
      true,
    ],
  ]);
});

test("routines and a compiled scan loop: 1 thread, 4 threads and cpu agree", async () => {
  const loopRuns = () => ox.memoryStats().devices.wasm.loopRuns;
  const loopsBefore = loopRuns();
  const spd = (k, a) => k(k(np.matmul(a, k(a.transpose([0, 2, 1])))).add(k(k(np.eye(48)).mul(48))));
  const batch = [[[40, 48, 48], "float64"]];
  await checkGroup([
    [
      "cholesky of a product",
      batch,
      (k, a) => np.linalg.cholesky(spd(k, a)),
      true,
      "splitRoutines",
    ],
    [
      "solve",
      [...batch, [[40, 48, 3], "float64"]],
      (k, a, b) => np.linalg.solve(spd(k, a), b),
      true,
      "splitRoutines",
    ],
    [
      "float32 triangular solve",
      [
        [[24, 64, 64], "float32"],
        [[24, 64, 8], "float32"],
      ],
      (k, a, b) => {
        const l = k(k(np.tril(a)).add(k(k(np.eye(64)).mul(64))));
        return lax.linalg.triangularSolve(l, b, { leftSide: true, lower: true });
      },
      false,
      "splitRoutines",
    ],
    ["sort of a product", F32, (k, x, y) => np.sort(k(x.mul(y))), true],
    [
      "scan over rows of a product, then a large kernel",
      [
        [[8, 40_000], "float32"],
        [[40_000], "float32"],
      ],
      (k, xs, c0) => {
        const body = (c, x) => [c.mul(0.5).add(x), c.sub(x)];
        const [c, ys] = lax.scan(body, c0, k(xs.mul(xs))).map(k);
        return k(c.mul(k(ys.sum(0)))).add(k(c.mul(c)));
      },
      true,
    ],
  ]);
  assert.ok(loopRuns() > loopsBefore, "the scan ran as a compiled loop");
});

test("the pool's normal mode (the calling thread claims chunks too): same bits", async () => {
  const mix = (k, x, y) => k(k(k(x.add(y)).mul(y)).sub(k(x.div(y))));
  const rows = [[[1001, 517], "float32"]];
  const batch = [[[40, 48, 48], "float64"]];
  const spd = (k, a) => k(k(np.matmul(a, k(a.transpose([0, 2, 1])))).add(k(k(np.eye(48)).mul(48))));
  await checkGroup(
    [
      ["(x + y) * y - x / y", F32, mix, true],
      ["sum over a contiguous axis", rows, (k, x) => np.sum(x, 1), true],
      [
        "130×96 @ 96×72",
        [
          [[130, 96], "float32"],
          [[96, 72], "float32"],
        ],
        (k, a, b) => np.matmul(a, b),
        true,
      ],
      ["cholesky", batch, (k, a) => np.linalg.cholesky(spd(k, a)), true, "splitRoutines"],
    ],
    false,
  );
});
