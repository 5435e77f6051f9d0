/** Diagnostics: `memoryStats()` (live arrays, per-device buffers, caches and dispatch counts). */
import { call, wasm } from "./bridge.js";

export interface DeviceStats {
  liveBuffers: number;
  liveBytes: number;
  dispatches: number;
  kernelCacheEntries: number;
  kernelCacheHits: number;
  kernelCacheMisses: number;
}

export interface MemoryStats {
  liveArrays: number;
  /** Traced programs held: makeJaxpr results and vjp functions. */
  liveJaxprs: number;
  wasmMemoryBytes: number;
  devices: Partial<Record<"cpu" | "wasm" | "webgpu", DeviceStats>>;
}

export function memoryStats(): MemoryStats {
  return call(() => wasm.memoryStats()) as MemoryStats;
}
