// CommonJS and file-path imports of the built package, each in a fresh Node process of a
// project that has pkg/ installed as `oxjax` (a symlink): `require` of every entry point
// (`oxjax`, `oxjax/optax`, `oxjax/consuming`, `oxjax/dist/index.js`) resolves to the CommonJS
// targets of pkg/cjs/ (never to the ES modules, so it works on every Node 20, also without
// require(esm)), initialises the module synchronously, computes, shares one module instance
// across entries and leaks nothing; the ES entry `dist/index.js` works by path.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../../pkg/", import.meta.url));

/** Runs `source` as file `name` in a project with oxjax installed; returns its JSON output. */
function runInProject(name, source, nodeArgs = []) {
  const dir = mkdtempSync(join(tmpdir(), "oxjax-cjs-"));
  try {
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(pkg, join(dir, "node_modules/oxjax"), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app" }));
    writeFileSync(join(dir, name), source);
    const out = execFileSync(process.execPath, [...nodeArgs, name], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const REQUIRE_EVERY_ENTRY = `
const oxjax = require("oxjax");
const optax = require("oxjax/optax");
const consuming = require("oxjax/consuming");
const dist = require("oxjax/dist/index.js");
const { numpy: np, memoryStats } = oxjax;
const base = memoryStats().liveArrays;
const x = np.array([1, 2, 3]);
const y = x.add(x);
// One instance: an array of the main entry works in optax and in the consuming entry.
const params = { w: np.array([1, 2]) };
const opt = optax.sgd(0.5);
const state = opt.init(params);
const grads = { w: np.array([2, 2]) };
const [updates, next] = opt.update(grads, state, params);
const applied = optax.applyUpdates(params, updates);
const c = consuming.numpy.multiply(x.ref, 10);
const out = {
  resolved: [require.resolve("oxjax"), require.resolve("oxjax/optax"),
    require.resolve("oxjax/consuming"), require.resolve("oxjax/dist/index.js")],
  y: y.js(), w: applied.w.js(), c: c.js(), xRefs: x.refCount, cFreed: c.refCount === 0,
  sameMemoryStats: consuming.memoryStats === memoryStats && dist.memoryStats === memoryStats,
  sameArray: dist.Array === oxjax.Array,
};

for (const t of [x, y, applied, updates, next, state, grads, params]) oxjax.tree.dispose(t);
out.leaked = memoryStats().liveArrays - base;
console.log(JSON.stringify(out));
`;

test("require() of every entry point: CommonJS targets, one instance, no leaks", () => {
  for (const args of [[], ["--no-experimental-require-module"]]) {
    const out = runInProject("main.cjs", REQUIRE_EVERY_ENTRY, args);
    assert.deepEqual(
      out.resolved.map((p) =>
        p.slice(p.indexOf("/cjs/") >= 0 ? p.indexOf("/cjs/") : p.indexOf("/dist/")),
      ),
      ["/cjs/index.cjs", "/cjs/optax.cjs", "/cjs/consuming.cjs", "/dist/index.cjs"],
    );
    assert.deepEqual(out.y, [2, 4, 6]);
    assert.deepEqual(out.w, [0, 1]);
    assert.deepEqual(out.c, [10, 20, 30]);
    assert.equal(out.xRefs, 1, "the consuming entry consumed the extra reference");
    assert.equal(out.cFreed, true, "js() consumed c");
    assert.equal(out.sameMemoryStats, true);
    assert.equal(out.sameArray, true);
    assert.equal(out.leaked, 0);
  }
});

test("dist/index.js imports by path and by package subpath (ES modules)", () => {
  const out = runInProject(
    "main.mjs",
    `import * as byPath from "./node_modules/oxjax/dist/index.js";
     import * as bySubpath from "oxjax/dist/index.js";
     import * as main from "oxjax";
     const x = byPath.numpy.arange(4);
     console.log(JSON.stringify({ x: x.js(), same: byPath.Array === main.Array && bySubpath.jit === main.jit }));
     x.dispose();`,
  );
  assert.deepEqual(out, { x: [0, 1, 2, 3], same: true });
});
