// What a first call costs when only the size is new: each function is called at sizes
// 1000, 1002, 1004, … (every call a size not seen before, so every kernel key is new), each
// such first call followed by a second call at the same size; on the wasm device, one thread,
// in process CPU time (µs per call, the mean over the calls). With the counters of the wasm
// device per first call: kernels compiled (cache misses), of those run from a module compiled
// for another size (kernelSizeReuses), and bytes of kernel code emitted.
//
//   node bench/first_calls.mjs [calls] [function…]    e.g. 100 sin bitwiseAnd tril
//   OXJAX_PKG=/path/to/pkg                           another build (default ../pkg)
const pkg = process.env.OXJAX_PKG ?? new URL("../pkg", import.meta.url).pathname;
const ox = await import(`${pkg}/index.js`);
ox.init({ wasmThreads: 1 });
ox.defaultDevice("wasm");
const np = ox.numpy;
const [callsArg, ...names] = process.argv.slice(2);
const calls = Number(callsArg ?? 100);
const ints = (n) => np.ones([n], { dtype: "int32" });
const CASES = {
  add: (n) => np.add(np.ones([n]), np.ones([n])),
  sin: (n) => np.sin(np.ones([n])),
  arctan: (n) => np.arctan(np.ones([n])),
  bitwiseAnd: (n) => np.bitwiseAnd(ints(n), ints(n)),
  sum: (n) => np.sum(np.ones([n, 8]), 1),
  tril: (n) => np.tril(np.ones([n / 2, 2])),
  split: (n) => np.split(np.ones([n]), 2),
  "random.bits": (n) => ox.random.bits(ox.random.key(0), [n]),
};
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const wasmStats = () => ox.memoryStats().devices.wasm;

async function run(f, n) {
  const out = f(n);
  const outs = Array.isArray(out) ? out : [out];
  await Promise.all(outs.map((a) => a.data()));
  outs.forEach((a) => a.dispose());
}

console.log(
  "| function | first call (µs) | second call (µs) | kernels compiled | of them reused | code bytes |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const name of names.length ? names : Object.keys(CASES)) {
  const f = CASES[name];
  for (let n = 2; n < 60; n += 2) await run(f, n); // every code path reached once
  const s0 = wasmStats();
  let [first, second] = [0, 0];
  for (let i = 0; i < calls; i++) {
    const n = 1000 + 2 * i;
    let t = cpu();
    await run(f, n);
    first += cpu() - t;
    t = cpu();
    await run(f, n);
    second += cpu() - t;
  }
  const s1 = wasmStats();
  const per = (k) => ((s1[k] ?? 0) - (s0[k] ?? 0)) / calls;
  console.log(
    `| ${name} | ${((first / calls) * 1000).toFixed(0)} | ${((second / calls) * 1000).toFixed(0)} | ${per("kernelCacheMisses")} | ${per("kernelSizeReuses")} | ${per("kernelCodeBytes").toFixed(0)} |`,
  );
}
