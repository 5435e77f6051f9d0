// The sweep on the webgpu device in Deno: every function both oxjax (../pkg) and
// `@jax-js/jax` (path in JAXJS, else ../node_modules) export, timed in one process
// (bench/sweep_run.mjs; the workloads in bench/sweep_cases.mjs). Each call reads its outputs
// with `data()`, so steady-state times include one GPU round trip (one map).
//
//   deno run -A --unstable-webgpu bench/sweep_webgpu.ts [filter]   (a regular expression)
//   SWEEP_SMALL=1        only each function's smallest size
//   SWEEP_STEADY_MS=n    time spent on each steady-state sample set (default 60)
//   SWEEP_PART=k/n       only every n-th function from the k-th, so each part fits a time
//                        limit (bench/sweep_merge.mjs joins the parts' outputs into one table;
//                        a part stopped by `timeout` still prints the rows it timed)
import * as ox from "../pkg/index.js";
import { partOf, reportSoFar, shimIteratorHelpers, sweep } from "./sweep_run.mjs";

// deno-lint-ignore no-explicit-any
type Any = any;
shimIteratorHelpers();
Deno.addSignalListener("SIGTERM", () => {
  reportSoFar();
  Deno.exit(1);
});
const jaxPath = Deno.env.get("JAXJS") ?? "../node_modules/@jax-js/jax/dist/index.js";
const jax: Any = await import(new URL(jaxPath, import.meta.url).href);
const devices = await ox.init();
if (!devices.includes("webgpu"))
  throw new Error(`oxjax: no webgpu (${ox.webgpuUnavailableReason()})`);
ox.defaultDevice("webgpu");
await jax.init("webgpu");
jax.defaultDevice("webgpu");
const adapter = await (navigator as Any).gpu.requestAdapter();
const { oxFails } = await sweep({
  ox,
  jax,
  device: `webgpu (Deno, ${adapter?.info?.description || adapter?.info?.device || "adapter"})`,
  filter: Deno.args[0] ?? "",
  small: !!Deno.env.get("SWEEP_SMALL"),
  part: partOf(),
});
Deno.exit(oxFails.length ? 1 : 0);
