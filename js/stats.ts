/** Diagnostics: `memoryStats()` (live arrays, per-device buffers, caches and dispatch counts). */
import { call, wasm } from "./bridge.js";

export interface DeviceStats {
  liveBuffers: number;
  liveBytes: number;
  /** The most bytes one array may occupy on this device (2 GiB on cpu and wasm). */
  maxBufferBytes: number;
  dispatches: number;
  /** Command submissions (webgpu batches many dispatches per submit; 0 elsewhere). */
  submits: number;
  /** Dispatches of tiled matrix-product kernels (webgpu; 0 elsewhere). */
  tiledDispatches: number;
  /**
   * Shaders compiled into pipelines since the device started (webgpu: kernels, routines, scan
   * loops and jitted-program stages; 0 elsewhere). A jitted program compiles nothing again.
   */
  shaderCompiles: number;
  /** Free device buffers kept for reuse (not counted in liveBuffers/liveBytes). */
  poolBuffers: number;
  poolBytes: number;
  /**
   * Staging buffers mapped to read results back (webgpu: one per group of reads requested in
   * the same tick — `Promise.all` of `data()` calls — and one per `blockUntilReady`; 0
   * elsewhere). `readbacks` counts the arrays read.
   */
  readbackMaps: number;
  /** Free mappable staging buffers kept for reuse, and their bytes (webgpu; 0 elsewhere). */
  stagingBuffers: number;
  stagingBytes: number;
  kernelCacheEntries: number;
  kernelCacheHits: number;
  kernelCacheMisses: number;
  /** Bytes of kernel code generated since the last `clearCaches()` (wasm modules; 0 elsewhere). */
  kernelCodeBytes: number;
  /** The most locals of one generated kernel function since the last `clearCaches()` (wasm). */
  kernelMaxLocals: number;
  /** Compiled scan loops run (each is one module call on wasm; also counted in dispatches). */
  loopRuns: number;
  /** Compiled scan loops cached on this device. */
  loopCacheEntries: number;
  /** Host data written into new buffers of this device (creation, JS scalars, constants). */
  uploads: number;
  uploadBytes: number;
  /** Buffers of this device read back to the host (`data()`, `dataSync()`, moves). */
  readbacks: number;
  readbackBytes: number;
  /**
   * Operands the library moved off this device through the host on its own (an array placed
   * by default following a committed operand elsewhere): 0 while work stays on the device.
   */
  moves: number;
  moveBytes: number;
}

export interface MemoryStats {
  liveArrays: number;
  /** `data()` reads begun and not yet handed over (0 when every read has settled). */
  pendingReads: number;
  /** Traced programs held: makeJaxpr results and vjp functions. */
  liveJaxprs: number;
  wasmMemoryBytes: number;
  /** The most bytes the module's WebAssembly memory can grow to (4 GiB): every cpu and wasm array lives in it. */
  wasmMemoryLimit: number;
  /** The global cache of lowered jit programs. */
  programCache: {
    entries: number;
    capacity: number;
    hits: number;
    misses: number;
    evictions: number;
  };
  /** Compiled signatures held by live jit wrappers. */
  jitFunctions: number;
  devices: Partial<Record<"cpu" | "wasm" | "webgpu", DeviceStats>>;
  /** Scans run (`lax.scan` loops, including those of gradients), per path, and their steps. */
  scan: ScanStats;
}

export interface ScanStats {
  fusedRuns: number;
  fusedSteps: number;
  fallbackRuns: number;
  fallbackSteps: number;
  /** Scan bodies planned as loop programs (a bounded cache, emptied by `clearCaches`). */
  planCacheEntries: number;
  planCacheCapacity: number;
}

const DEVICES = ["cpu", "wasm", "webgpu"] as const;
/** The field names of `wasm.memoryStats()`'s numbers, by group (src/api/stats.rs). */
const [TOP, DEVICE, PROGRAMS, SCAN] = wasm
  .memoryStatsLayout()
  .split("|")
  .map((g) => g.trim().split(/\s+/));

export function memoryStats(): MemoryStats {
  // Numbers only cross the boundary; the object is built here (see src/api/stats.rs).
  const n = call(() => wasm.memoryStats());
  let i = 0;
  const take = (names: string[]): Record<string, number> =>
    Object.fromEntries(names.map((k) => [k, n[i++]]));
  const out = take(TOP) as unknown as MemoryStats;
  out.devices = {};
  for (const d of DEVICES) {
    const present = n[i++] === 1;
    const stats = take(DEVICE) as unknown as DeviceStats;
    if (present) out.devices[d] = stats;
  }
  out.programCache = take(PROGRAMS) as unknown as MemoryStats["programCache"];
  out.scan = take(SCAN) as unknown as ScanStats;
  return out;
}
