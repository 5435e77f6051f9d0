// Startup cost: `import` of the package and its first `init()`, for oxjax (pkg/index.js) and
// @jax-js/jax, each measured in a fresh process (the costs are once per process, so a warm
// process would hide them), the libraries alternating run by run. Prints the median and the
// range over the runs of the process CPU time (all threads: V8 compiles WebAssembly on
// background threads) and the wall time of each phase.
//
//   node bench/startup.mjs [runs=9] [--deno] [--pkg DIR]
//
// `--pkg DIR` measures the oxjax build in DIR (default pkg/), e.g. a copy of an older build.
// `--deno` runs the children in Deno (node_modules/@deno/linux-x64-glibc/deno) instead of Node.
// Cases: `jax` is `import("@jax-js/jax")` then `init("wasm")`; `oxjax` is the import then
// `init()` (all devices: where WebGPU is present, as in Deno, that includes opening it);
// `oxjax wasm` is the import then `init("wasm")`, the like-for-like comparison.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cell } from "./startup_table.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

if (process.argv.includes("--child")) {
  const which = process.argv[process.argv.indexOf("--child") + 1];
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  const pkg = process.argv[process.argv.indexOf("--child") + 2];
  const url = pathToFileURL(
    which === "jax" ? join(root, "node_modules/@jax-js/jax/dist/index.js") : join(pkg, "index.js"),
  ).href;
  const c0 = cpu();
  const t0 = performance.now();
  const lib = await import(url);
  const c1 = cpu();
  const t1 = performance.now();
  const devices = await (which === "oxjax" ? lib.init() : lib.init("wasm"));
  const c2 = cpu();
  const t2 = performance.now();
  if (!devices.includes("wasm")) throw new Error(`${which}: init() gave ${devices}`);
  console.log(
    JSON.stringify({
      importCpu: c1 - c0,
      importWall: t1 - t0,
      initCpu: c2 - c1,
      initWall: t2 - t1,
    }),
  );
  process.exit(0);
}

const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 9);
const deno = process.argv.includes("--deno");
const pkgAt = process.argv.indexOf("--pkg");
const pkg = pkgAt > 0 ? join(process.cwd(), process.argv[pkgAt + 1]) : join(root, "pkg");
const cases = ["jax", "oxjax", "oxjax wasm"];
const child = (which) => {
  const self = fileURLToPath(import.meta.url);
  const arg = which === "oxjax wasm" ? "oxjax-wasm" : which;
  const [cmd, args] = deno
    ? [
        join(root, "node_modules/@deno/linux-x64-glibc/deno"),
        ["run", "--allow-read", "--allow-env", self, "--child", arg, pkg],
      ]
    : [process.execPath, [self, "--child", arg, pkg]];
  const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
  const out = execFileSync(cmd, args, { cwd: root, env, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop());
};

const results = Object.fromEntries(cases.map((c) => [c, []]));
for (let r = 0; r < runs; r++) for (const c of cases) results[c].push(child(c));

const runtime = deno ? "Deno" : `Node ${process.version}`;
console.log(
  `${runtime}, oxjax from ${pkg}, ${runs} fresh processes per case, median (min–max), ms`,
);
console.log("| case | import, CPU | import, wall | init, CPU | init, wall |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const c of cases) {
  const rows = results[c];
  const keys = ["importCpu", "importWall", "initCpu", "initWall"];
  console.log(`| ${c} | ${keys.map((k) => cell(rows, k)).join(" | ")} |`);
}
