// Runs every `@example` of the doc comments in js/ (tests/docs/jsdoc_examples.mjs says how) in
// this Node process against the built package: each must run, the values its comments give
// must match, and it must leave no live array, jit signature, traced program or device buffer.
// The checker itself is tested on examples that must fail.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import * as ox from "../../pkg/index.js";
import { jsdocExamples, runnable, where } from "./jsdoc_examples.mjs";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

const dir = mkdtempSync(join(tmpdir(), "oxjax-jsdoc-examples-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

function owned() {
  const s = ox.memoryStats();
  const devices = Object.entries(s.devices).map(([d, v]) => `${d}:${v.liveBuffers}`);
  return { arrays: s.liveArrays, jaxprs: s.liveJaxprs, jit: s.jitFunctions, devices };
}

let n = 0;
/** Runs one example as a module, its console output discarded. */
async function run(example) {
  const file = join(dir, `jsdoc-${n++}.mjs`);
  writeFileSync(file, runnable(example));
  const log = console.log;
  console.log = () => {};
  try {
    await import(pathToFileURL(file).href);
  } finally {
    console.log = log;
  }
}

const all = jsdocExamples();

test("the doc comments have examples", () => {
  assert.ok(all.length >= 100, `only ${all.length} examples`);
});

test("the checker rejects a wrong value, a wrong shape and a wrong bare expression", async () => {
  const cases = [
    "using x = np.array([1, 2]); // [1, 3]",
    "using x = np.array([1, 2]); // [1, 2, 3]",
    "using x = np.array([1, 2]);\nnp.sum(x); // 4",
    "using x = np.array([0.5]);\nconst [a] = [x.mul(2)]; // a = [2]",
  ];
  for (const code of cases) {
    await assert.rejects(run({ file: "js/checker.ts", line: 1, code }), /js\/checker\.ts/, code);
  }
  // The failing examples abandon arrays; collect them now, so that the garbage collector's
  // safety net (js/reclaim.ts) does not release them during a later example's leak check.
  for (let i = 0; i < 10; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 0));
  }
});

for (const example of all) {
  test(`@example ${where(example)}`, async () => {
    const before = owned();
    await run(example);
    assert.deepEqual(owned(), before, `${where(example)}: leaked`);
    assert.equal(ox.defaultDevice(), "wasm", `${where(example)}: left the default device changed`);
  });
}
