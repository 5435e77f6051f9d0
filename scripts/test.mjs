#!/usr/bin/env node
// Runs every layer of the testing pyramid (ARCHITECTURE.md, "Tests") after the build, streams
// each layer's output, counts its passed and failed tests, and ends with one line
// `N passed, N failed`. Any failing layer makes the exit status non-zero.
// Usage: node scripts/test.mjs [layer ...]
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { WEBGPU_SKIP_FILES } from "../tests/api/webgpu_skips.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules/.bin", name);
const deno = join(root, "node_modules/@deno/linux-x64-glibc/deno");
const env = {
  ...process.env,
  PATH: `${process.env.HOME}/.cargo/bin:${process.env.PATH}`,
  // wgpu (natively) and Deno want a runtime dir for Vulkan's loader.
  XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? mkdtempSync(join(tmpdir(), "oxjax-xdg-")),
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER: "wasm-bindgen-test-runner",
  FORCE_COLOR: "0",
  NO_COLOR: "1",
};

// Each counter reads a layer's output and returns [passed, failed].
const sum = (text, re) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
const counters = {
  check: () => [1, 0],
  cargo: (t) => [
    sum(t, /test result: \w+\. (\d+) passed/g),
    sum(t, /test result: \w+\. \d+ passed; (\d+) failed/g),
  ],
  node: (t) => [sum(t, /^# pass (\d+)$/gm), sum(t, /^# fail (\d+)$/gm)],
  playwright: (t) => [sum(t, /^\s*(\d+) passed/gm), sum(t, /^\s*(\d+) failed/gm)],
  // Tests and, where describe() groups them, their steps.
  deno: (t) => [
    sum(t, /\| (\d+) passed/g) + sum(t, /\| \d+ passed \((\d+) steps?\)/g),
    sum(t, /\| \d+ passed[^|]*\| (\d+) failed/g) +
      sum(t, /\| \d+ passed[^|]*\| \d+ failed \((\d+) steps?\)/g),
  ],
};

const layers = [
  { name: "rustfmt", cmd: "cargo", args: ["fmt", "--check"], count: "check" },
  {
    name: "clippy (native)",
    cmd: "cargo",
    args: ["clippy", "--all-targets", "--", "-D", "warnings"],
    count: "check",
  },
  {
    name: "clippy (wasm32)",
    cmd: "cargo",
    args: [
      "clippy",
      "--target",
      "wasm32-unknown-unknown",
      "--lib",
      "--test",
      "integration",
      "--",
      "-D",
      "warnings",
    ],
    count: "check",
  },
  {
    name: "tsc --noEmit",
    cmd: bin("tsc"),
    args: ["--noEmit", "-p", "js/tsconfig.json"],
    count: "check",
  },
  { name: "prettier --check", cmd: bin("prettier"), args: ["--check", "."], count: "check" },
  // The API reference and guide (typedoc.json) into www/reference/, which the Playwright layer
  // then loads; any warning (an export without a doc comment, a function without an example,
  // a broken link) fails the layer.
  { name: "API reference (TypeDoc)", cmd: bin("typedoc"), args: [], count: "check" },
  { name: "cargo test (native)", cmd: "cargo", args: ["test"], count: "cargo" },
  {
    name: "wasm-bindgen-test (Node)",
    cmd: "cargo",
    args: ["test", "--target", "wasm32-unknown-unknown", "--test", "integration"],
    count: "cargo",
  },
  // Without V8 flags: Node 20's V8 (11.3) aborts when a function that inlined a JS→Wasm call
  // is deoptimised during that call; the library never runs JS that can deoptimise its caller
  // inside a wasm call (no JS objects are built from Rust: src/api/stats.rs).
  {
    name: "API tests (node --test)",
    cmd: "node",
    args: ["--test", "tests/api/"],
    count: "node",
  },
  // Every code example of README.md, pkg.template/README.md and docs/ (tests/docs/examples.mjs).
  {
    name: "documentation examples (node --test)",
    cmd: "node",
    args: ["--test", "tests/docs/"],
    count: "node",
  },
  {
    name: "browser (Playwright, Chromium)",
    cmd: bin("playwright"),
    args: ["test"],
    count: "playwright",
  },
  {
    name: "Deno (--unstable-webgpu)",
    cmd: deno,
    args: ["test", "--unstable-webgpu", "--allow-read", "--allow-env", "--no-check", "tests/deno/"],
    count: "deno",
    // Deno with lavapipe sometimes aborts while tearing the process down ("corrupted size vs.
    // prev_size in fastbins"), after every test has passed and reported (a crash in the runtime's
    // teardown, not in a test). Such a run is repeated (at most twice); any failing test still
    // fails the layer at once.
    retriesAfterCleanCrash: 2,
    cleanEnd: /ok\S* \| \d+ passed \| 0 failed/,
  },
  {
    // The API suite (tests/api/) on webgpu: helpers.mjs starts WebGPU with 8 storage buffers
    // and makes it the default device; tests/api/webgpu_skips.mjs lists what does not run.
    name: "Deno API suite on webgpu",
    cmd: deno,
    args: [
      "test",
      "--unstable-webgpu",
      "--allow-read",
      "--allow-env",
      "--no-check",
      ...readdirSync(join(root, "tests/api"))
        .filter((f) => f.endsWith(".test.mjs") && !(f in WEBGPU_SKIP_FILES))
        .sort()
        .map((f) => `tests/api/${f}`),
    ],
    env: { OXJAX_TEST_DEVICE: "webgpu" },
    count: "deno",
    retriesAfterCleanCrash: 2,
    cleanEnd: /ok\S* \| \d+ passed (\(\d+ steps?\) )?\| 0 failed/,
  },
];

function runLayer(layer) {
  return new Promise((resolve) => {
    const child = spawn(layer.cmd, layer.args, {
      cwd: root,
      env: { ...env, ...layer.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    const take = (stream, out) =>
      stream.on("data", (chunk) => {
        text += chunk;
        out.write(chunk);
      });
    take(child.stdout, process.stdout);
    take(child.stderr, process.stderr);
    child.on("error", (e) => {
      text += String(e);
      resolve({ code: 1, text });
    });
    child.on("close", (code) => resolve({ code, text }));
  });
}

const only = process.argv.slice(2);
const results = [];
for (const layer of layers) {
  if (only.length && !only.some((o) => layer.name.includes(o))) continue;
  console.log(`\n=== ${layer.name} ===`);
  const started = Date.now();
  let { code, text } = await runLayer(layer);
  let [passed, failed] =
    layer.count === "check" ? (code === 0 ? [1, 0] : [0, 1]) : counters[layer.count](text);
  for (let retry = 1; retry <= (layer.retriesAfterCleanCrash ?? 0); retry++) {
    if (code === 0 || failed !== 0 || !layer.cleanEnd.test(text)) break;
    console.log(
      `\n${layer.name}: every test passed but the process exited with ${code}; rerun ${retry}`,
    );
    ({ code, text } = await runLayer(layer));
    [passed, failed] = counters[layer.count](text);
  }
  if (code !== 0 && failed === 0) failed = 1; // a crash or a failure the counter did not see
  if (code === 0 && passed === 0) failed += 1; // a layer that ran nothing is a failure
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ name: layer.name, passed, failed, seconds });
}

console.log("\n=== summary ===");
for (const r of results) {
  console.log(
    `${r.failed ? "FAIL" : "ok  "}  ${r.name}: ${r.passed} passed, ${r.failed} failed (${r.seconds} s)`,
  );
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
