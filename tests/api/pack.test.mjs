// The published package: `npm pack` of pkg/ gives a tarball that installs into a fresh
// project (no network: oxjax has no dependencies) and works when imported by name, including
// the `oxjax/optax` sub-path and the type declarations.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../../pkg/", import.meta.url));

test("npm pack of pkg/ installs and runs in a fresh project", () => {
  const dir = mkdtempSync(join(tmpdir(), "oxjax-pack-"));
  try {
    const run = (cmd, args) =>
      execFileSync(cmd, args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const tarball = run("npm", ["pack", pkg, "--silent"]).trim().split("\n").pop();
    assert.match(tarball, /^oxjax-\d+\.\d+\.\d+\.tgz$/);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", type: "module" }));
    run("npm", ["install", "--offline", "--no-audit", "--no-fund", `./${tarball}`]);
    for (const f of ["index.js", "index.d.ts", "wasm/oxjax_bg.wasm", "optax/index.js"]) {
      assert.ok(existsSync(join(dir, "node_modules/oxjax", f)), `installed package has ${f}`);
    }
    writeFileSync(
      join(dir, "main.mjs"),
      `import { numpy as np } from "oxjax";
       import * as optax from "oxjax/optax";
       const x = np.array([1, 2, 3]);
       const y = x.add(x);
       console.log(JSON.stringify({ y: y.js(), optax: typeof optax }));`,
    );
    const out = JSON.parse(run("node", ["main.mjs"]));
    assert.deepEqual(out, { y: [2, 4, 6], optax: "object" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
