/**
 * The `wasm` device's threads: the worker pool (`wasm-pool.ts`) over the device's data memory,
 * attached to the wasm module at import time, `init({ wasmThreads })`'s setter and
 * `wasmThreadInfo()`.
 */
import { wasm } from "./bridge.js";
import { WasmPool, type WasmThreadInfo } from "./wasm-pool.js";

export type { WasmThreadInfo } from "./wasm-pool.js";

const g = globalThis as { __oxjaxWasmPoolWorkersOnly?: boolean };
const pool = new WasmPool(wasm.wasmDataMemory() as WebAssembly.Memory);
const entries = pool.entries();
wasm.wasmPoolAttach({
  ...entries,
  // The pool's test switch `workersOnly`, read at each dispatch (tests/api/wasm_threads*).
  begin: (...a: Parameters<typeof entries.begin>) => {
    pool.workersOnly = g.__oxjaxWasmPoolWorkersOnly === true;
    return entries.begin(...a);
  },
});

/** @internal `init({ wasmThreads })`: sets the thread count and waits for the pool. */
export function configureWasmThreads(threads: number): Promise<void> {
  return pool.configure(threads);
}

/**
 * The `wasm` device's threads: how many run large kernels now, how many were asked for,
 * whether the data memory is shared, the pool's state, and — when kernels run on the calling
 * thread only — why.
 *
 * @example
 * ```ts
 * await init({ wasmThreads: 4 });
 * wasmThreadInfo().threads; // 4 where the runtime has shared memory and workers
 * ```
 */
export function wasmThreadInfo(): WasmThreadInfo {
  return pool.info();
}
