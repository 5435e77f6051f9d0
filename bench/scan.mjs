// Scan benchmarks (cases in bench/README.md), run by `node bench/run.mjs scan` (or alone: `node bench/scan.mjs`):
// - a Kalman filter as one jitted lax.scan on wasm, state m = 2 (predict, Cholesky of the
//   innovation covariance, triangular solves, update, log-likelihood): steps per second. The
//   scan runs as one compiled loop module (path "fused", asserted through memoryStats);
//   the result is checked against a float64 JS filter.
// - jit(valueAndGrad) of that filter (θ scales F, Q and R), N = 1000: the checkpointed backward
//   pass's scans over segments nest scans, all compiled (module calls reported).
// - case 1: jit(valueAndGrad) of the associativeScan Kalman log-likelihood, n = 1000,
//   m = 2, on wasm, and the jitted associativeScan of the Kalman composition alone (forward),
//   n = 1600. @jax-js/jax 0.1.25 (node_modules) has neither lax.scan nor associativeScan, so
//   there is no jax-js column for these rows.
// PKG= imports another build of the package (a path relative to this file, or absolute).
import { kalman2LogLikJs } from "../tests/shared/kalman.mjs";

const ox = await import(new URL(process.env.PKG ?? "../pkg/index.js", import.meta.url).href);

const np = ox.numpy;
const { lax } = ox;
const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** ms of process CPU time (user + system, all threads) since `c0` (`process.cpuUsage()`). */
const cpuMs = (c0) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e3;
};

/**
 * Median wall ms of `run()` over 5 samples of at least 200 ms each, after a 300 ms warm-up,
 * and the median process CPU ms per call over the same samples: on a shared machine the wall
 * time includes waiting for a core, the CPU time does not (it counts Node's helper threads
 * too, so it is an upper bound of the work done).
 */
function time(run) {
  const w0 = now();
  while (now() - w0 < 300) run();
  const per = [];
  const cpu = [];
  for (let s = 0; s < 5; s++) {
    let k = 0;
    const t = now();
    const c0 = process.cpuUsage();
    do {
      run();
      k++;
    } while (now() - t < 200);
    per.push((now() - t) / k);
    cpu.push(cpuMs(c0) / k);
  }
  return { ms: median(per), cpuMs: median(cpu) };
}

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

// --- Kalman filter: x' = F x, P' = F P Fᵀ + Q, observation y = x + noise (R) -------------------
const F2 = [
  [1, 0.1],
  [0, 0.95],
];
const Q2 = [
  [0.01, 0],
  [0, 0.02],
];
const R2 = [
  [0.3, 0.05],
  [0.05, 0.2],
];

const kalmanJs = (ys) => kalman2LogLikJs(ys, F2, Q2, R2);

function kalmanStep(F, Q, R) {
  return (c, y) => {
    const made = [];
    const u = (a) => (made.push(a), a);
    try {
      const xp = u(np.matmul(F, c.x));
      const Pp = u(u(np.matmul(u(np.matmul(F, c.P)), u(np.matrixTranspose(F)))).add(Q));
      const S = u(Pp.add(R));
      const L = u(lax.linalg.cholesky(S));
      const v = u(y.sub(xp));
      const a = u(lax.linalg.triangularSolve(L, v, { leftSide: true, lower: true }));
      const logdet = u(np.sum(u(np.log(u(np.diagonal(L))))));
      const ll = c.ll.sub(u(u(u(np.sum(u(a.mul(a)))).mul(0.5)).add(logdet)));
      // Kᵀ = S⁻¹ Ppᵀ = L⁻ᵀ L⁻¹ Pp (S and Pp symmetric).
      const B = u(lax.linalg.triangularSolve(L, Pp, { leftSide: true, lower: true }));
      const Kt = u(
        lax.linalg.triangularSolve(L, B, { leftSide: true, lower: true, transposeA: true }),
      );
      const K = u(np.matrixTranspose(Kt));
      const x = xp.add(u(np.matmul(K, v)));
      const P = Pp.sub(u(np.matmul(u(np.matmul(K, S)), Kt)));
      return [{ x, P, ll }, null];
    } finally {
      for (const a of made.reverse()) a.dispose();
    }
  };
}

export function kalmanScanRow(n = 100_000) {
  const r = rng(11);
  const ysJs = Array.from({ length: n }, (_, t) => [[Math.sin(t / 50) + 0.3 * r()], [0.3 * r()]]);
  const device = "wasm";
  const F = np.array(F2, { device });
  const Q = np.array(Q2, { device });
  const R = np.array(R2, { device });
  const ys = np.array(ysJs, { device });
  const init = {
    x: np.zeros([2, 1], { device }),
    P: np.eye(2, undefined, { device }),
    ll: np.zeros([], { device }),
  };
  const filter = ox.jit((i, y) => lax.scan(kalmanStep(F, Q, R), i, y, { acceptPath: "fused" })[0]);
  const run = () => {
    const out = filter(init, ys);
    const ll = out.ll.js();
    ox.tree.dispose(out);
    return ll;
  };
  const before = ox.memoryStats().devices.wasm;
  const ll = run();
  const after = ox.memoryStats().devices.wasm;
  const want = kalmanJs(ysJs);
  if (Math.abs(ll - want) > 1e-3 * Math.abs(want)) {
    throw new Error(`MISMATCH in the Kalman scan: ${ll} vs float64 JS ${want}`);
  }
  const loopRuns = after.loopRuns - before.loopRuns;
  const { ms, cpuMs } = time(run);
  filter.dispose();
  ox.tree.dispose([F, Q, R, ys, init]);
  return {
    name: `Kalman filter lax.scan (jit) m=2, N=${n}, wasm`,
    ms,
    cpuMs,
    stepsPerSecond: n / (ms / 1e3),
    stepsPerCpuSecond: n / (cpuMs / 1e3),
    loopRuns,
    dispatches: after.dispatches - before.dispatches,
  };
}

// --- jit(valueAndGrad) of the same filter: dlm-js's use --------------------------------------
// θ = (φ, log q, log r) scales F's last entry, Q and R. The backward pass is a √N-checkpointed
// scan: scans over segments whose bodies run the segment's forward and reverse scans, compiled
// as nested loops in one module per scan; acceptPath "fused" (which the derived scans inherit)
// makes any host loop an error.
export function kalmanGradRow(n = 1000, checkpoint = true) {
  const r = rng(13);
  const ysJs = Array.from({ length: n }, (_, t) => [[Math.sin(t / 50) + 0.3 * r()], [0.3 * r()]]);
  const device = "wasm";
  const F0 = np.array(F2, { device });
  const E22 = np.array(
    [
      [0, 0],
      [0, 1],
    ],
    { device },
  );
  const Q0 = np.array(Q2, { device });
  const R0 = np.array(R2, { device });
  const ys = np.array(ysJs, { device });
  const loss = (theta) => {
    const made = [];
    const u = (x) => (made.push(x), x);
    try {
      const [phi, logq, logr] = [0, 1, 2].map((i) => u(theta.slice(i)));
      const F = u(u(E22.mul(u(phi.sub(0.95)))).add(F0));
      const Q = u(Q0.mul(u(np.exp(logq))));
      const R = u(R0.mul(u(np.exp(logr))));
      const init = {
        x: u(np.zeros([2, 1], { device })),
        P: u(np.eye(2, undefined, { device })),
        ll: u(np.zeros([], { device })),
      };
      const [c] = lax.scan(kalmanStep(F, Q, R), init, ys, { checkpoint, acceptPath: "fused" });
      u(c.x);
      u(c.P);
      u(c.ll);
      return c.ll.mul(-1 / n);
    } finally {
      for (const x of made.reverse()) x.dispose();
    }
  };
  const f = ox.jit(ox.valueAndGrad(loss));
  const theta = np.array([0.95, 0, 0], { device });
  const run = () => {
    const [v, g] = f(theta);
    g.js();
    ox.tree.dispose([v, g]);
  };
  run();
  const before = ox.memoryStats().devices.wasm;
  run();
  const after = ox.memoryStats().devices.wasm;
  const { ms, cpuMs } = time(run);
  f.dispose();
  ox.tree.dispose([F0, E22, Q0, R0, ys, theta]);
  return {
    name: `jit(valueAndGrad) of the Kalman lax.scan m=2, N=${n}, checkpoint ${checkpoint}, wasm`,
    ms,
    cpuMs,
    loopRuns: after.loopRuns - before.loopRuns,
    dispatches: after.dispatches - before.dispatches,
  };
}

// --- case 1: associativeScan log-likelihood under jit(valueAndGrad) -------------------------
function compose(a, b) {
  const made = [];
  const u = (x) => (made.push(x), x);
  try {
    const At = u(np.matrixTranspose(b.A));
    const A = np.matmul(b.A, a.A);
    const bb = u(np.matmul(b.A, a.b)).add(b.b);
    const S = u(np.matmul(u(np.matmul(b.A, a.S)), At)).add(b.S);
    return { A, b: bb, S };
  } finally {
    for (const x of made.reverse()) x.dispose();
  }
}

export function case1Row(n = 1000, m = 2) {
  const r = rng(5 + m);
  const device = "wasm";
  const G = np.array(
    Array.from({ length: m }, (_, i) =>
      Array.from({ length: m }, (_, j) => (i === j ? 0.9 : 0.1 * r())),
    ),
    { device },
  );
  const U = np.array(
    Array.from({ length: n }, () => Array.from({ length: m }, () => [r()])),
    { device },
  );
  const W = np.array(
    Array.from({ length: n }, () =>
      Array.from({ length: m }, (_, i) =>
        Array.from({ length: m }, (_, j) => (i === j ? 0.05 + 0.05 * Math.abs(r()) : 0)),
      ),
    ),
    { device },
  );
  const Y = np.array(
    Array.from({ length: n }, () => Array.from({ length: m }, () => 2 * r())),
    { device },
  );
  const eye = np.eye(m, undefined, { device });
  const loss = (theta) => {
    const made = [];
    const u = (x) => (made.push(x), x);
    try {
      const [phi, logq, beta] = [0, 1, 2].map((i) => u(theta.slice(i)));
      const A = u(np.broadcastTo(u(G.mul(phi)), [n, m, m]));
      const b = u(U.mul(beta));
      const S = u(W.add(u(eye.mul(u(np.exp(logq))))));
      const out = lax.associativeScan(compose, { A, b, S });
      u(out.A);
      u(out.b);
      u(out.S);
      const v = u(u(np.diagonal(out.S, 0, 1, 2)).add(0.5));
      const resid = u(Y.sub(u(out.b.reshape([n, m]))));
      const terms = u(u(u(resid.mul(resid)).div(v)).add(u(np.log(v))));
      return u(np.sum(terms)).div(n);
    } finally {
      for (const x of made.reverse()) x.dispose();
    }
  };
  const f = ox.jit(ox.valueAndGrad(loss));
  const theta = np.array([0.8, Math.log(0.1), 0.5], { device });
  const run = () => {
    const [v, g] = f(theta);
    g.js();
    ox.tree.dispose([v, g]);
  };
  run();
  const { ms, cpuMs } = time(run);
  f.dispose();
  ox.tree.dispose([G, U, W, Y, eye, theta]);
  return { name: `case 1: jit(valueAndGrad) associativeScan loss n=${n} m=${m}, wasm`, ms, cpuMs };
}

/** The jitted associativeScan of the Kalman composition alone (forward), on wasm. */
export function case1ForwardRow(n = 1600, m = 2) {
  const r = rng(11 + m);
  const device = "wasm";
  const vals = (k, scale) => Array.from({ length: k }, () => scale * r());
  const e = {
    A: np.array(vals(n * m * m, 0.3), { device }).reshape([n, m, m]),
    b: np.array(vals(n * m, 1), { device }).reshape([n, m, 1]),
    S: np.array(vals(n * m * m, 0.1), { device }).reshape([n, m, m]),
  };
  const f = ox.jit((x) => lax.associativeScan(compose, x));
  const run = () => {
    const out = f(e);
    out.S.dataSync();
    ox.tree.dispose(out);
  };
  run();
  const before = ox.memoryStats().devices.wasm.dispatches;
  run();
  const dispatches = ox.memoryStats().devices.wasm.dispatches - before;
  const { ms, cpuMs } = time(run);
  f.dispose();
  ox.tree.dispose(e);
  const name = `case 1 forward: jit(associativeScan) n=${n} m=${m}, wasm (${dispatches} module calls)`;
  return { name, ms, cpuMs };
}

export function runScanBench() {
  const rows = [
    kalmanScanRow(),
    kalmanGradRow(),
    kalmanGradRow(1000, false),
    case1Row(),
    case1ForwardRow(),
  ];
  for (const row of rows) {
    const calls = `(${row.loopRuns} loop module calls, ${row.dispatches} dispatches per call)`;
    const extra = row.stepsPerSecond
      ? `  ${(row.stepsPerSecond / 1e6).toFixed(2)}M steps/s wall, ${(row.stepsPerCpuSecond / 1e6).toFixed(2)}M per CPU second  ${calls}`
      : row.loopRuns !== undefined
        ? `  ${calls}`
        : "";
    console.log(
      `${row.name}: ${row.ms.toFixed(3)} ms per call (${row.cpuMs.toFixed(3)} ms CPU)${extra}`,
    );
  }
  console.log(`SCAN_BENCH_JSON ${JSON.stringify(rows)}`);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) runScanBench();
