// Runs every code example of the user documentation (tests/docs/examples.mjs says which and
// how) in this Node process against the built package, one module per example: each must
// print what its `// prints:` comments say and leave no live array, jit signature, traced
// program or device buffer behind.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "node:util";
import { pathToFileURL } from "node:url";
import * as ox from "../../pkg/index.js";
import { examples, expectedOutput, runnableSource, where } from "./examples.mjs";

const all = examples();
const dir = mkdtempSync(join(tmpdir(), "oxjax-doc-examples-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

/** What must return to its value after an example: arrays, traces, device buffers. */
function owned() {
  const s = ox.memoryStats();
  const devices = Object.entries(s.devices).map(([d, v]) => `${d}:${v.liveBuffers}`);
  return {
    liveArrays: s.liveArrays,
    liveJaxprs: s.liveJaxprs,
    jitFunctions: s.jitFunctions,
    devices,
  };
}

test("the documentation has runnable examples, and every norun block says why", () => {
  assert.ok(all.filter((e) => e.run).length >= 20, "fewer than 20 runnable examples");
  for (const e of all.filter((x) => !x.run))
    assert.ok(e.reason, `${where(e)}: norun without a reason`);
});

let n = 0;
for (const example of all.filter((e) => e.run)) {
  test(`example ${where(example)}`, async () => {
    const file = join(dir, `example-${n++}.mjs`);
    writeFileSync(file, runnableSource(example));
    const printed = [];
    const log = console.log;
    const before = owned();
    console.log = (...args) => printed.push(...format(...args).split("\n"));
    try {
      await import(pathToFileURL(file).href);
    } finally {
      console.log = log;
    }
    assert.deepEqual(printed, expectedOutput(example.code), `${where(example)}: printed lines`);
    assert.deepEqual(owned(), before, `${where(example)}: leaked`);
    assert.equal(ox.defaultDevice(), "wasm", `${where(example)}: left the default device changed`);
  });
}
