// The published package: `npm pack` of pkg/ gives a tarball that installs into a fresh
// project (no network: oxjax has no dependencies) and works when imported by name, including
// the `oxjax/optax` and `oxjax/consuming` sub-paths, `require`, and the type declarations (for
// `import` and, through the .d.cts files, for `require` under `moduleResolution: node16`);
// and the Node alias the package README documents (a one-file package named `@jax-js/jax` re-exporting
// `oxjax/consuming`) makes `@jax-js/jax` resolve to the consuming entry.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../../pkg/", import.meta.url));
const tsc = fileURLToPath(new URL("../../node_modules/.bin/tsc", import.meta.url));
let dir;
const run = (cmd, args) =>
  execFileSync(cmd, args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

before(() => {
  dir = mkdtempSync(join(tmpdir(), "oxjax-pack-"));
  const tarball = run("npm", ["pack", pkg, "--silent"]).trim().split("\n").pop();
  assert.match(tarball, /^oxjax-\d+\.\d+\.\d+\.tgz$/);
  // The Node alias of pkg.template/README.md.
  mkdirSync(join(dir, "jax-js-oxjax"));
  writeFileSync(
    join(dir, "jax-js-oxjax/package.json"),
    JSON.stringify({
      name: "@jax-js/jax",
      version: "0.1.25",
      type: "module",
      exports: { import: "./index.js", require: "./index.cjs" },
    }),
  );
  writeFileSync(join(dir, "jax-js-oxjax/index.js"), `export * from "oxjax/consuming";\n`);
  writeFileSync(
    join(dir, "jax-js-oxjax/index.cjs"),
    `module.exports = require("oxjax/consuming");\n`,
  );
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", type: "module" }));
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", `./${tarball}`, "./jax-js-oxjax"]);
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("npm pack of pkg/ installs and runs in a fresh project", () => {
  for (const f of [
    "index.js",
    "index.d.ts",
    "wasm/oxjax_bg.wasm",
    "optax/index.js",
    "consuming/index.js",
    "consuming/index.d.ts",
    "cjs/index.cjs",
    "cjs/optax.cjs",
    "cjs/consuming.cjs",
    "dist/index.js",
    "dist/index.cjs",
    "index.d.cts",
    "consuming/index.d.cts",
    "optax/index.d.cts",
    "wasm/oxjax.d.cts",
  ]) {
    assert.ok(existsSync(join(dir, "node_modules/oxjax", f)), `installed package has ${f}`);
  }
  // Every folder the build writes is packed (a new namespace folder must join "files").
  for (const d of readdirSync(pkg, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    assert.ok(existsSync(join(dir, "node_modules/oxjax", d.name)), `packed folder ${d.name}`);
  }
  writeFileSync(
    join(dir, "main.mjs"),
    `import { numpy as np } from "oxjax";
     import * as optax from "oxjax/optax";
     const x = np.array([1, 2, 3]);
     const y = x.add(x);
     console.log(JSON.stringify({ y: y.js(), optax: typeof optax }));`,
  );
  assert.deepEqual(JSON.parse(run("node", ["main.mjs"])), { y: [2, 4, 6], optax: "object" });
  writeFileSync(
    join(dir, "main.cjs"),
    `const { numpy: np } = require("oxjax");
     console.log(JSON.stringify(np.arange(3).js()));`,
  );
  assert.deepEqual(JSON.parse(run("node", ["main.cjs"])), [0, 1, 2]);
});

test("the documented Node alias resolves @jax-js/jax to oxjax/consuming", () => {
  writeFileSync(
    join(dir, "alias.mjs"),
    `import { numpy as np, memoryStats } from "@jax-js/jax";
     import * as consuming from "oxjax/consuming";
     const x = np.array([1, 2]);
     const y = np.add(x, 1);
     console.log(JSON.stringify({ same: np === consuming.numpy, x: x.refCount, y: y.js(),
       live: memoryStats().liveArrays }));`,
  );
  assert.deepEqual(JSON.parse(run("node", ["alias.mjs"])), {
    same: true,
    x: 0,
    y: [2, 3],
    live: 0,
  });
});

test("require and import users resolving with node16 get the types (strict)", () => {
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "node16",
        moduleResolution: "node16",
        target: "es2022",
        lib: ["es2022", "dom", "esnext.disposable"],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: ["types_require.cts", "types_import.mts"],
    }),
  );
  // The @ts-expect-error lines fail the compile if the types were `any` (an unused directive).
  writeFileSync(
    join(dir, "types_require.cts"),
    `import ox = require("oxjax");
     import consuming = require("oxjax/consuming");
     import optax = require("oxjax/optax");
     import dist = require("oxjax/dist/index.js");
     const x: ox.Array = ox.numpy.array([1, 2]);
     const n: number = x.ndim;
     const g = ox.grad((v: ox.Array) => ox.numpy.sum(v.mul(v)));
     const y: ox.Array = g(x);
     const c: ox.Array = consuming.numpy.add(consuming.numpy.ones([2]), 1);
     const opt = optax.adam(0.1);
     const same: typeof ox.numpy = dist.numpy;
     // @ts-expect-error ndim is a number
     const s: string = x.ndim;
     // @ts-expect-error grad's function takes Arrays
     g("x");
     export { n, y, c, opt, same, s };
    `,
  );
  writeFileSync(
    join(dir, "types_import.mts"),
    `import { numpy as np, type Array } from "oxjax";
     const x: Array = np.zeros([2]);
     // @ts-expect-error shape is a number[]
     const s: string = x.shape;
     export { s };
    `,
  );
  let out = "";
  try {
    execFileSync(tsc, ["-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    out = `${e.stdout}${e.stderr}`;
  }
  assert.equal(out, "");
});
