// Linear algebra (lax.linalg, numpy.linalg, scipyLinalg) against NumPy/SciPy
// (tests/data/linalg_expected.json, made by scripts/gen_linalg_expected.py) on the cpu and wasm
// devices, plus errors for bad input. A leak check follows every test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DEVICES, np, ox, caseSkip, checkLeaksAroundEachTest, errorMessage } from "./helpers.mjs";
import { linalgLabel, runLinalgCase } from "../shared/linalg_cases.mjs";

checkLeaksAroundEachTest();

const { cases } = JSON.parse(
  readFileSync(new URL("../data/linalg_expected.json", import.meta.url), "utf8"),
);

for (const device of DEVICES) {
  describe(`linalg on ${device} matches NumPy and SciPy`, () => {
    cases.forEach((c, i) =>
      test(linalgLabel(c, i), { skip: caseSkip(c) }, () => runLinalgCase(ox, c, device)),
    );
  });
}

describe("linalg errors name the function", () => {
  const { linalg: lax } = ox.lax;
  // [name, argument shapes, call, expected message]
  const cases = [
    ["cholesky non-square", [[2, 3]], (a) => lax.cholesky(a), /cholesky: .*square/],
    ["cholesky rank", [[3]], (a) => np.linalg.cholesky(a), /cholesky: .*rank/],
    ["cholesky option", [[2, 2]], (a) => np.linalg.cholesky(a, { uper: true }), /unknown option/],
    [
      "triangularSolve sizes",
      [
        [3, 3],
        [2, 2],
      ],
      (a, b) => lax.triangularSolve(a, b, { leftSide: true }),
      /triangularSolve: a is 3×3 but b has 2 rows/,
    ],
    [
      "triangularSolve batch",
      [
        [2, 3, 3],
        [3, 3, 3],
      ],
      (a, b) => lax.triangularSolve(a, b),
      /triangularSolve: /,
    ],
    ["not an array", [], () => lax.cholesky([[1]]), /cholesky: a must be an Array/],
    ["lu rank", [[3]], (a) => lax.lu(a), /lu: .*rank ≥ 2/],
    ["solve rows", [[3, 3], [2]], (a, b) => np.linalg.solve(a, b), /solve: b must have 3 rows/],
    ["solve square", [[3, 2], [3]], (a, b) => np.linalg.solve(a, b), /solve: a must be .*square/],
    ["det square", [[2, 3]], (a) => np.linalg.det(a), /det: a must be .*square/],
    ["inv rank", [[3]], (a) => np.linalg.inv(a), /inv: a must be .*square/],
    ["matrixPower", [[2, 2]], (a) => np.linalg.matrixPower(a, 1.5), /matrixPower: .*integer/],
    ["lstsq", [[3, 2], [4]], (a, b) => np.linalg.lstsq(a, b), /lstsq: b must have shape \[3\]/],
    ["norm order", [[2, 2]], (a) => np.linalg.matrixNorm(a, 3), /matrixNorm: matrix norm order/],
    ["cross", [[2], [3]], (a, b) => np.linalg.cross(a, b), /cross: x1 must have size 3/],
    [
      "solveTriangular trans",
      [[2, 2], [2]],
      (a, b) => ox.scipyLinalg.solveTriangular(a, b, { trans: 3 }),
      /solveTriangular: trans/,
    ],
  ];
  for (const [name, shapes, fn, pattern] of cases) {
    test(name, () => {
      const args = shapes.map((s) => np.zeros(s));
      try {
        const e = errorMessage(() => fn(...args));
        assert.ok(e instanceof Error, `${name}: ${e}`);
        assert.match(e.message, pattern);
      } finally {
        args.forEach((x) => x.dispose());
      }
    });
  }
});
