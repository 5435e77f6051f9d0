// numpy functions against NumPy itself (tests/data/numpy_expected.json, made by
// scripts/gen_expected.py) on the cpu and wasm devices; the same cases run on webgpu in the
// Deno and browser tests. A leak check follows every case.
import { describe, test } from "node:test";
import { readFileSync } from "node:fs";
import { DEVICES, ox, checkLeaksAroundEachTest } from "./helpers.mjs";
import { caseLabel, runCase } from "../shared/numpy_cases.mjs";

checkLeaksAroundEachTest();

const load = (name) =>
  JSON.parse(readFileSync(new URL(`../data/${name}`, import.meta.url), "utf8"));
const cases = [...load("numpy_expected.json").cases, ...load("jax_expected.json").cases];

for (const device of DEVICES) {
  describe(`numpy and random on ${device} match NumPy and JAX`, () => {
    cases.forEach((c, i) => test(caseLabel(c, i), () => runCase(ox, c, device)));
  });
}
