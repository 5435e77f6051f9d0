#!/usr/bin/env node
// Builds the publishable package into pkg/: the release wasm (cargo), its wasm-bindgen glue,
// the compiled TypeScript with .d.ts, and the files of pkg.template/. Prints the wasm's size
// and gzip size (tracked release to release).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
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

const wasmOut = join(root, "pkg/wasm/oxjax_bg.wasm");
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(
  `built pkg/ (${profile}): wasm ${kb(statSync(wasmOut).size)}, gzipped ${kb(gzipSync(readFileSync(wasmOut)).length)}`,
);
