#!/usr/bin/env node
// Builds the publishable package into pkg/: the release wasm (cargo), its wasm-bindgen glue,
// the compiled TypeScript with .d.ts (ES modules), the CommonJS targets of every entry point
// (pkg/cjs/, bundled by rolldown with the synchronous module loader), the ES-module entry points
// bundled the same way (one shared chunk in pkg/ in place of the compiled TypeScript's ~100
// files, which a runtime would otherwise resolve, read and compile one by one at import), and
// the files of pkg.template/. Prints the wasm's size and gzip size (tracked release to release).
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = (cmd, args, opts = {}) => {
  console.log(`$ ${cmd} ${args.join(" ")}`);
  execFileSync(cmd, args, { stdio: "inherit", cwd: root, ...opts });
};
const profile = process.env.OXJAX_PROFILE === "dev" ? "debug" : "release";

run("cargo", [
  "build",
  "--lib",
  "--target",
  "wasm32-unknown-unknown",
  ...(profile === "release" ? ["--release"] : []),
]);
const wasmIn = join(root, "target/wasm32-unknown-unknown", profile, "oxjax.wasm");
rmSync(join(root, "js/wasm"), { recursive: true, force: true });
run("wasm-bindgen", ["--target", "web", "--out-dir", "js/wasm", "--out-name", "oxjax", wasmIn]);

rmSync(join(root, "pkg"), { recursive: true, force: true });
run(join(root, "node_modules/.bin/tsc"), ["-p", "js/tsconfig.json"]);
mkdirSync(join(root, "pkg/wasm"), { recursive: true });
for (const f of readdirSync(join(root, "js/wasm"))) {
  cpSync(join(root, "js/wasm", f), join(root, "pkg/wasm", f));
}
cpSync(join(root, "pkg.template"), join(root, "pkg"), { recursive: true });

// CommonJS declarations: a .d.cts beside every .d.ts, its relative imports naming .cjs files
// (TypeScript resolves them to the .d.cts), so `require` users resolving with `node16` or
// `nodenext` get the types through the exports' "require" conditions (a .d.ts in this
// `"type": "module"` package is an ES module, which a CommonJS file cannot require).
const relativeJs = /((?:from|import\()\s*["'])(\.{1,2}\/[^"']*?)\.js(["'])/g;
function writeCjsDeclarations(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "cjs") writeCjsDeclarations(path);
    } else if (entry.name.endsWith(".d.ts")) {
      const text = readFileSync(path, "utf8").replace(relativeJs, "$1$2.cjs$3");
      writeFileSync(path.replace(/\.d\.ts$/, ".d.cts"), text);
    }
  }
}
writeCjsDeclarations(join(root, "pkg"));

// CommonJS: one bundle per entry point sharing one chunk (so `require`d entries share one
// module instance), with wasm-load-sync.js in place of the top-level-await loader.
const { rolldown } = await import("rolldown");
const syncLoader = join(root, "pkg/wasm-load-sync.js");
const cjs = await rolldown({
  input: {
    index: join(root, "pkg/index.js"),
    optax: join(root, "pkg/optax/index.js"),
    consuming: join(root, "pkg/consuming/index.js"),
  },
  platform: "node",
  logLevel: "warn",
  plugins: [
    {
      name: "oxjax-sync-loader",
      resolveId: (source, importer) =>
        source === "./wasm-load.js" && importer && dirname(importer) === join(root, "pkg")
          ? syncLoader
          : null,
    },
  ],
});
await cjs.write({
  dir: join(root, "pkg/cjs"),
  format: "cjs",
  entryFileNames: "[name].cjs",
  chunkFileNames: "[name]-[hash].cjs",
});
await cjs.close();
console.log("built pkg/cjs/ (CommonJS targets)");

// ES modules: the public entry points, and the internal modules tests and benchmarks import
// beside them (`bridge.js`, `lib-calls.js`: they must share the entries' module instance, so
// they are entries of the same bundle; `wasm-pool.js`, loaded on its own by the Rust thread
// tests), bundled into a staging folder, then put in place of every compiled `.js` file of pkg/
// (the `.d.ts` files stay: they are the package's types). The shared chunk sits in pkg/ itself,
// so its `import.meta.url` finds `wasm/oxjax_bg.wasm` as the unbundled `wasm-load.js` did.
const esmEntries = ["index", "optax/index", "consuming/index", "bridge", "lib-calls", "wasm-pool"];
const staging = join(root, "target/pkg-esm");
rmSync(staging, { recursive: true, force: true });
const esm = await rolldown({
  input: Object.fromEntries(esmEntries.map((e) => [e, join(root, "pkg", `${e}.js`)])),
  platform: "neutral",
  logLevel: "warn",
});
await esm.write({
  dir: staging,
  format: "esm",
  entryFileNames: "[name].js",
  chunkFileNames: "[name]-[hash].js",
});
await esm.close();
function removeCompiledJs(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!["cjs", "dist", "wasm"].includes(entry.name)) removeCompiledJs(path);
    } else if (entry.name.endsWith(".js")) rmSync(path);
  }
}
removeCompiledJs(join(root, "pkg"));
cpSync(staging, join(root, "pkg"), { recursive: true });
rmSync(staging, { recursive: true, force: true });
console.log("built pkg/ ES-module entries (bundled)");

const wasmOut = join(root, "pkg/wasm/oxjax_bg.wasm");
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(
  `built pkg/ (${profile}): wasm ${kb(statSync(wasmOut).size)}, gzipped ${kb(gzipSync(readFileSync(wasmOut)).length)}`,
);
