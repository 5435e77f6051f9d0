// The second wave of numpy functions against NumPy (tests/data/numpy_more_expected.json, made
// by scripts/gen_more_expected.py) on the cpu and wasm devices, with the shared case runner;
// jax-js's identity returns (ARCHITECTURE.md, decision 2); a leak check after every case.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DEVICES, item, np, SYNC, checkLeaksAroundEachTest } from "./helpers.mjs";
import * as ox from "../../pkg/index.js";
import { caseLabel, runCase } from "../shared/numpy_cases.mjs";

checkLeaksAroundEachTest();

const { cases } = JSON.parse(
  readFileSync(new URL("../data/numpy_more_expected.json", import.meta.url), "utf8"),
);

for (const device of DEVICES) {
  describe(`more numpy functions on ${device} match NumPy`, () => {
    cases.forEach((c, i) => test(caseLabel(c, i), () => runCase(ox, c, device)));
  });
}

describe("numpy extras outside the case table", () => {
  test("meshgrid of one array returns the input list itself", () => {
    const a = np.array([1, 2]);
    const list = [a];
    assert.equal(np.meshgrid(list), list);
    a.dispose();
  });

  test("allclose, arrayEqual, arrayEquiv", async () => {
    // allclose returns a JS boolean, a synchronous read: SYNC puts a, b and c on cpu on webgpu.
    const a = np.array([1, 2, NaN], SYNC);
    const b = np.array([1, 2.000001, NaN], SYNC);
    const c = np.array([1, 3, NaN], SYNC);
    assert.equal(np.allclose(a, b), true);
    assert.equal(np.allclose(a, c), false);
    const z = np.zeros([2]);
    assert.equal(np.allclose(a, z), false);
    const eq = [np.arrayEqual(a, a), np.arrayEqual(a, a, { equalNan: true }), np.arrayEqual(a, z)];
    assert.deepEqual(await Promise.all(eq.map((e) => e.jsAsync())), [false, true, false]);
    const row = np.array([[1, 2]]);
    const both = np.array([
      [1, 2],
      [1, 2],
    ]);
    const col = z.reshape([2, 1]);
    const eqv = [np.arrayEquiv(row, both), np.arrayEquiv(row, col)];
    assert.deepEqual(await Promise.all(eqv.map((e) => e.jsAsync())), [true, false]);
    ox.tree.dispose([a, b, c, z, eq, row, both, col, eqv]);
  });

  test("metadata: shape, ndim, size, isscalar, promoteTypes, resultType, finfo, iinfo", () => {
    const x = np.zeros([2, 3], { dtype: np.int32 });
    assert.deepEqual(np.shape(x), [2, 3]);
    assert.equal(np.ndim(5), 0);
    assert.equal(np.size(x), 6);
    assert.equal(np.size(x, -1), 3);
    assert.equal(np.isscalar(3), true);
    assert.equal(np.isscalar(x), false);
    assert.equal(np.promoteTypes(np.int32, np.float16), np.float16);
    assert.equal(np.promoteTypes(np.bool, np.uint32), np.uint32);
    assert.equal(np.resultType(x, 1.5), np.int32);
    assert.equal(np.resultType(np.float32, np.float64), np.float64);
    assert.deepEqual(np.broadcastShapes([3, 1], [4]), [3, 4]);
    assert.throws(() => np.broadcastShapes([3], [4]), TypeError);
    assert.equal(np.finfo(np.float32).eps, 2 ** -23);
    assert.equal(np.iinfo(np.int32).max, 2147483647);
    assert.throws(() => np.finfo(np.int32), /finfo: int32 is not a float dtype/);
    x.dispose();
  });

  test("indices, diagIndices, fromfunction and applyOverAxes", async () => {
    const g = np.indices([2, 3]);
    assert.deepEqual(await g.jsAsync(), [
      [
        [0, 0, 0],
        [1, 1, 1],
      ],
      [
        [0, 1, 2],
        [0, 1, 2],
      ],
    ]);
    const f = np.fromfunction(
      (i, j) => {
        const t = i.mul(10);
        try {
          return t.add(j);
        } finally {
          t.dispose();
        }
      },
      [2, 2],
      { dtype: np.float32 },
    );
    assert.deepEqual(await f.jsAsync(), [
      [0, 1],
      [10, 11],
    ]);
    const d = np.diagIndices(3);
    assert.deepEqual(await Promise.all(d.map((a) => a.jsAsync())), [
      [0, 1, 2],
      [0, 1, 2],
    ]);
    const s = np.applyOverAxes((a, ax) => np.sum(a, ax), f, [0, 1]);
    assert.deepEqual(await s.jsAsync(), [[22]]);
    ox.tree.dispose([g, f, d, s]);
  });

  test("applyAlongAxis equals a loop over the slices", async () => {
    const x = np.array([
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      [
        [7, 8, 9],
        [10, 11, 12],
      ],
    ]);
    const f = (v) => {
      const s = np.sum(v);
      try {
        return v.mul(s);
      } finally {
        s.dispose();
      }
    };
    const y = np.applyAlongAxis(f, 1, x);
    assert.deepEqual(y.shape, [2, 2, 3]);
    const want = (await x.jsAsync()).map((m) =>
      m.map((row, i) => row.map((_, j) => m[i][j] * (m[0][j] + m[1][j]))),
    );
    assert.deepEqual(await y.jsAsync(), want);
    const s = np.applyAlongAxis((v) => np.max(v), -1, x);
    assert.deepEqual(await s.jsAsync(), [
      [3, 6],
      [9, 12],
    ]);
    ox.tree.dispose([x, y, s]);
  });

  test("errors name the function", () => {
    const x = np.zeros([3]);
    assert.throws(() => np.rot90(x), /rot90/);
    const y = np.zeros([4]);
    assert.throws(() => np.cross(x, y), /cross: the last axes/);
    assert.throws(() => np.bitwiseAnd(x, x), /bitwise/);
    x.dispose();
    y.dispose();
  });
});
