// lax.scan bodies with routines and sorts on wasm (any body compiles: kernels and routines,
// forward and reverse): Cholesky, every triangular-solve variant, LU (with its int32 pivots and
// permutation as ys), sort and argsort (host routines: the module calls the main module's
// sort through an import) run inside the ONE emitted loop module: path "fused",
// one loop run and one module call (memoryStats().devices.wasm.loopRuns / dispatches) per scan,
// float32 and float64, eager, under jit and under valueAndGrad. Oracle: the same scan on the
// `cpu` device (its host loop over the interpreter's routines). Leak-checked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, np, ox, scoped as scope } from "./helpers.mjs";
import { close, observe } from "./scan_observe.mjs";
import { rng } from "../shared/rng.mjs";

checkLeaksAroundEachTest();
const { lax } = ox;
const { linalg } = lax;

const N = 7;
const M = 3;
const r = rng(3);
const mats = Array.from({ length: N }, () =>
  Array.from({ length: M }, () => Array.from({ length: M }, () => r())),
);
const vecs = Array.from({ length: N }, () => Array.from({ length: 5 }, () => 2 * r()));

/**
 * Scans `body(carry, x)` from `init()` over `xs` on wasm and on cpu, forward or reverse, in
 * `dtype`; checks one fused module call on wasm, the host loop on cpu, and equal results.
 * Integer leaves (pivots, permutations, argsort) and float64 results must be equal exactly.
 */
function compare(name, makeBody, init, xs, { reverse, dtype, tol, routines }) {
  const run = (device) => {
    const x = np.array(xs, { device, dtype });
    const c0 = init(device, dtype);
    const I = np.eye(M, undefined, { device, dtype });
    const o = observe(() => lax.scan(makeBody(I), c0, x, { reverse }));
    const leaves = ox.tree.leaves(o.result).map((a) => ({ dtype: a.dtype, v: a.js() }));
    ox.tree.dispose([x, c0, I, o.result]);
    return { leaves, o };
  };
  const got = run("wasm");
  const want = run("cpu");
  assert.deepEqual(
    got.o.events.map((e) => [e.path, e.device, e.length]),
    [["fused", "wasm", N]],
    `${name}: ${JSON.stringify(got.o.events)}`,
  );
  if (routines !== undefined) {
    assert.match(got.o.events[0].detail, new RegExp(`${routines} routines per step`));
  }
  assert.equal(got.o.loopRuns, 1, `${name}: one loop run`);
  assert.equal(got.o.dispatches, 1, `${name}: one module call for the whole scan`);
  assert.equal(want.o.events[0].path, "fallback");
  assert.equal(got.leaves.length, want.leaves.length);
  got.leaves.forEach((g, i) => {
    const w = want.leaves[i];
    assert.equal(g.dtype, w.dtype);
    if (g.dtype === "int32") assert.deepEqual(g.v, w.v, `${name}: int leaf ${i}`);
    // float64: the unrolled routines and kernels do the interpreter's operations in its order.
    else if (dtype === "float64") assert.deepEqual(g.v, w.v, `${name}: float64 leaf ${i}`);
    else close(g.v, w.v, tol, `${name}: leaf ${i}`);
  });
}

const eye = (device, dtype) => np.eye(M, undefined, { device, dtype });

// P ← chol(P Pᵀ/|·| + x xᵀ + I)-style update: Cholesky of an SPD matrix built from the carry
// and the x row, then solves with the factor in every variant.
const cholSolveBody = (I) => (P, x) =>
  scope((u) => {
    const S = u(
      u(u(np.matmul(P, u(np.matrixTranspose(P)))).mul(0.2)).add(
        u(np.matmul(x, u(np.matrixTranspose(x)))),
      ),
    );
    const A = u(S.add(I));
    const L = linalg.cholesky(A);
    const ys = [];
    for (const leftSide of [true, false]) {
      for (const lower of [true, false]) {
        for (const transposeA of [false, true]) {
          const T = lower ? L : u(np.matrixTranspose(L));
          ys.push(linalg.triangularSolve(T, x, { leftSide, lower, transposeA }));
        }
      }
    }
    ys.push(linalg.triangularSolve(L, x, { leftSide: true, lower: true, unitDiagonal: true }));
    return [L, ys];
  });

// LU of the carry plus the x row; the carry becomes U's diagonal-scaled packing, the ys are the
// packed factors, the pivots and the permutation.
const luBody = () => (P, x) =>
  scope((u) => {
    const A = u(u(P.mul(0.5)).add(x));
    const [lu, piv, perm] = linalg.lu(A);
    u(lu);
    return [u(lu.mul(0.9)).add(u(x.mul(0.1))), [lu.add(0), piv, perm]];
  });

// sort and argsort of a carry that changes every step.
const sortBody = () => (c, x) =>
  scope((u) => {
    const v = u(u(c.mul(0.7)).add(x));
    const s = np.sort(v);
    const i = np.argsort(u(v.mul(-1)));
    return [u(s.mul(1.1)).sub(u(np.flip(s))), [s, i]];
  });

describe("lax.scan bodies with routines and sorts, in one wasm module", () => {
  for (const reverse of [false, true]) {
    for (const dtype of ["float32", "float64"]) {
      const opts = { reverse, dtype, tol: dtype === "float64" ? 1e-12 : 2e-5 };
      test(`cholesky + 9 triangular solves (reverse ${reverse}, ${dtype})`, () => {
        compare("chol", cholSolveBody, eye, mats, { ...opts, routines: 10 });
      });
      test(`lu with int32 pivots and permutation as ys (reverse ${reverse}, ${dtype})`, () => {
        compare("lu", luBody, eye, mats, { ...opts, routines: 1 });
      });
      test(`sort and argsort (reverse ${reverse}, ${dtype})`, () => {
        compare(
          "sort",
          sortBody,
          (device, dt) => np.array([0.3, -1, 2, 0.1, -0.4], { device, dtype: dt }),
          vecs,
          { ...opts, routines: 2 },
        );
      });
    }
  }

  test("under jit and valueAndGrad: a Cholesky/solve loss is fused forward and backward", () => {
    const res = {};
    for (const device of ["wasm", "cpu"]) {
      const xs = np.array(mats, { device });
      const I = np.eye(M, undefined, { device });
      const loss = (w) =>
        scope((u) => {
          const [c, ys] = lax.scan(
            (P, x) =>
              scope((v) => {
                const A = v(
                  v(v(np.matmul(P, v(np.matrixTranspose(P)))).mul(w)).add(
                    v(np.matmul(x, v(np.matrixTranspose(x)))),
                  ),
                );
                const L = linalg.cholesky(v(A.add(I)));
                const z = linalg.triangularSolve(L, x, { leftSide: true, lower: true });
                return [L, z];
              }),
            u(np.eye(M, undefined, { device })),
            xs,
            { checkpoint: false },
          );
          u(c);
          u(ys);
          return u(np.sum(u(ys.mul(ys)))).add(u(np.sum(c)));
        });
      const f = ox.jit(ox.valueAndGrad(loss));
      const w = np.array(0.3, { device });
      f(w).forEach((a) => a.dispose()); // trace and compile
      const o = observe(() => f(w));
      const [v, g] = o.result;
      res[device] = { v: v.js(), g: g.js(), o };
      ox.tree.dispose([xs, I, w, v, g]);
      f.dispose();
    }
    const { o } = res.wasm;
    assert.ok(o.events.length >= 2, JSON.stringify(o.events));
    assert.ok(
      o.events.every((e) => e.path === "fused"),
      JSON.stringify(o.events.map((e) => [e.path, e.detail])),
    );
    assert.equal(o.loopRuns, o.events.length, "one module call per scan");
    close(res.wasm.v, res.cpu.v, 1e-5, "value");
    close(res.wasm.g, res.cpu.g, 1e-4, "gradient");
  });
});
