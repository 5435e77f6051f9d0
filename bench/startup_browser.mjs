// Startup cost in Chromium (Debian's, through Playwright; SwiftShader WebGPU): `import` of the
// package and its first `init()`, for oxjax and @jax-js/jax, each in a fresh browser (no HTTP
// or code cache) and then reloaded in the same browser (the second page load: the HTTP cache and
// V8's code cache for scripts and for the WebAssembly module may apply). Wall time in the page
// (performance.now()); the libraries alternate run by run. Serves the repository with
// scripts/serve.mjs on a free port.
//
//   node bench/startup_browser.mjs [runs=5] [--pkg DIR]
//
// Cases: `jax` is the import then `init("wasm")`; `oxjax wasm` is the import then
// `init("wasm")`; `oxjax` is the import then `init()` (which opens WebGPU where the page has it).
import { spawn } from "node:child_process";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright";
import { cell } from "./startup_table.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
const pkgAt = process.argv.indexOf("--pkg");
const pkg = pkgAt > 0 ? join(process.cwd(), process.argv[pkgAt + 1]) : join(root, "pkg");
const port = 8800 + Math.floor(Math.random() * 100);
const server = spawn(process.execPath, [join(root, "scripts/serve.mjs"), "--port", String(port)], {
  stdio: "ignore",
});
const base = `http://localhost:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/tests/browser/blank.html`)).ok) break;
  } catch {
    if (i > 100) throw new Error("the server did not start");
  }
  await new Promise((r) => setTimeout(r, 100));
}

const urls = {
  jax: "/node_modules/@jax-js/jax/dist/index.js",
  oxjax: `/${relative(root, pkg)}/index.js`,
};
const cases = ["jax", "oxjax wasm", "oxjax"];

async function measure(page, which) {
  const url = which === "jax" ? urls.jax : urls.oxjax;
  const all = which === "oxjax";
  return page.evaluate(
    async ([url, all]) => {
      const t0 = performance.now();
      const lib = await import(url);
      const t1 = performance.now();
      const devices = await (all ? lib.init() : lib.init("wasm"));
      const t2 = performance.now();
      if (!devices.includes("wasm")) throw new Error(`init gave ${devices}`);
      return { import: t1 - t0, init: t2 - t1 };
    },
    [url, all],
  );
}

const results = Object.fromEntries(cases.map((c) => [c, { first: [], reload: [] }]));
for (let r = 0; r < runs; r++) {
  for (const c of cases) {
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--enable-unsafe-webgpu", "--enable-unsafe-swiftshader"],
    });
    const page = await browser.newPage();
    await page.goto(`${base}/tests/browser/blank.html`);
    results[c].first.push(await measure(page, c));
    // Let V8 finish caching (it writes the code cache after the load), then a new page load.
    await page.waitForTimeout(1500);
    await page.goto(`${base}/tests/browser/blank.html?again`);
    results[c].reload.push(await measure(page, c));
    await browser.close();
  }
}
server.kill();

console.log(`Chromium, oxjax from ${pkg}, ${runs} fresh browsers per case, median (min–max), ms`);
console.log("| case | import | init | import, reload | init, reload |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const c of cases) {
  const { first, reload } = results[c];
  const cells = [
    cell(first, "import"),
    cell(first, "init"),
    cell(reload, "import"),
    cell(reload, "init"),
  ];
  console.log(`| ${c} | ${cells.join(" | ")} |`);
}
