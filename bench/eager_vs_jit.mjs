// Times library functions eagerly and under `jit` (the program `src/transform/eager_jit.rs`
// runs for a composition from its second eager call) on the wasm device, on one thread, in
// process CPU time (so load from other processes and waits for worker threads count less):
// 10 calls after 3 warm-ups, milliseconds per call. Since `eager_jit`, a composition's eager
// calls from the second on run that program too: for the eager baseline, point OXJAX_PKG at a
// build from before it (main before `8158c2a`).
//
//   node bench/eager_vs_jit.mjs [n] [function…]     e.g. 1000000 rint fmax nn.sparsePlus
//   OXJAX_PKG=/path/to/pkg                         another build (default ../pkg)
const pkg = process.env.OXJAX_PKG ?? new URL("../pkg", import.meta.url).pathname;
const ox = await import(`${pkg}/index.js`);
ox.init({ wasmThreads: 1 });
const np = ox.numpy;
const [nArg, ...names] = process.argv.slice(2);
const n = Number(nArg ?? 1_000_000);
const fns = names.length ? names : ["rint", "round", "fmax", "signbit", "hypot", "nn.sparsePlus"];
const BINARY = new Set([
  "fmax",
  "fmin",
  "heaviside",
  "copysign",
  "remainder",
  "fmod",
  "hypot",
  "arctan2",
  "logaddexp",
  "logaddexp2",
]);
const x = np.array(
  new Float32Array(n).map((_, i) => Math.sin(i) * 10),
  { device: "wasm" },
);
const y = np.array(
  new Float32Array(n).map((_, i) => Math.cos(i * 0.7) * 3),
  { device: "wasm" },
);

function cpuMs(call) {
  for (let i = 0; i < 3; i++) call().dispose();
  const runs = 10;
  const start = process.cpuUsage();
  for (let i = 0; i < runs; i++) call().dispose();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / runs / 1000;
}

console.log(`| function | n | eager ms | jit ms |\n| --- | --- | ---: | ---: |`);
for (const name of fns) {
  const ns = name.startsWith("nn.") ? ox.nn : np;
  const f = ns[name.replace(/^nn\./, "")];
  const args = BINARY.has(name) ? [x, y] : [x];
  const jitted = ox.jit((...a) => f(...a));
  const eager = cpuMs(() => f(...args));
  const compiled = cpuMs(() => jitted(...args));
  jitted.dispose();
  console.log(`| ${name} | ${n} | ${eager.toFixed(2)} | ${compiled.toFixed(2)} |`);
}
x.dispose();
y.dispose();
