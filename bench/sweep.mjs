// The sweep on the wasm device in Node: every function both oxjax (../pkg) and `@jax-js/jax`
// export, timed in one process (bench/sweep_run.mjs; the workloads in bench/sweep_cases.mjs).
//
//   node bench/sweep.mjs [filter]      only functions whose name matches the regular expression
//                                      `filter` (e.g. '^numpy\.[a-m]', 'random|fft')
//   SWEEP_SMALL=1                      only each function's smallest size
//   SWEEP_STEADY_MS=n                  time spent on each steady-state sample set (default 60)
//   SWEEP_PART=k/n                     only every n-th function from the k-th (bench/sweep_merge.mjs
//                                      joins the parts' outputs into one table)
//   SWEEP_WASM_THREADS=n               oxjax's wasm worker threads (default: one per core; jax-js
//                                      runs on one thread, so 1 compares kernel for kernel)
//   SWEEP_CLOCK=cpu                    time in process CPU time, not wall time (a loaded machine)
//   SWEEP_GLIBC_DEFAULTS=1             keep glibc's malloc settings (see below)
//
// Both libraries copy each 10⁶-element result into a fresh 4 MB typed array. With glibc's
// default malloc settings such a buffer is mapped afresh and its pages faulted in on some calls
// and not on others, depending on the heap's state at the moment (about 1 ms of page faults per
// 4 MB), so the same call of either library lands at 0.4 or 2 ms from run to run. The sweep
// therefore runs itself under settings that keep freed memory in the heap for both libraries
// (mmap threshold 100 MB, trim threshold 1 GB); the rows' `steadyFaults` show what remains.
import { spawnSync } from "node:child_process";
import { partOf, reportSoFar, shimIteratorHelpers, sweep } from "./sweep_run.mjs";

if (!process.env.SWEEP_GLIBC_DEFAULTS && !process.env.MALLOC_MMAP_THRESHOLD_) {
  const env = {
    ...process.env,
    MALLOC_MMAP_THRESHOLD_: "100000000",
    MALLOC_TRIM_THRESHOLD_: "1000000000",
  };
  const args = [...process.execArgv, ...process.argv.slice(1)];
  const { status, signal } = spawnSync(process.execPath, args, { stdio: "inherit", env });
  process.exit(signal ? 1 : (status ?? 1));
}

shimIteratorHelpers();
process.on("SIGTERM", () => {
  reportSoFar();
  process.exit(1);
});
const ox = await import("../pkg/index.js");
if (process.env.SWEEP_WASM_THREADS)
  ox.init({ wasmThreads: Number(process.env.SWEEP_WASM_THREADS) });
const jax = await import("@jax-js/jax");
await jax.init("wasm");
jax.defaultDevice("wasm");
ox.defaultDevice("wasm");
const { oxFails } = await sweep({
  ox,
  jax,
  device: process.env.SWEEP_CLOCK === "cpu" ? "wasm (Node, CPU time)" : "wasm (Node)",
  filter: process.argv[2] ?? "",
  small: !!process.env.SWEEP_SMALL,
  part: partOf(),
});
process.exitCode = oxFails.length ? 1 : 0;
