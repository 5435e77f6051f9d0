/** Diagnostics: `memoryStats()` (live arrays, per-device buffers, caches and dispatch counts). */
import { call, wasm } from "./bridge.js";
import { reclaimedArrays } from "./reclaim.js";

/**
 * One device's counters in `memoryStats().devices`. Counts are cumulative since the device
 * started (or, for caches, since the last `clearCaches()`); "live" values are current.
 */
export interface DeviceStats {
  /** Device buffers currently held by live arrays, traces and caches (views share one buffer). */
  liveBuffers: number;
  /** Bytes of those buffers. */
  liveBytes: number;
  /** The most bytes one array may occupy on this device (2 GiB on cpu and wasm). */
  maxBufferBytes: number;
  /** Kernels, routines and compiled loops run on this device (one call or dispatch each). */
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
  /** Bytes of the free buffers kept for reuse. */
  poolBytes: number;
  /** Allocations served by a pooled buffer (wasm, webgpu; 0 on cpu). */
  poolHits: number;
  /** Allocations that made a new buffer (wasm, webgpu; 0 on cpu). */
  poolMisses: number;
  /**
   * Staging buffers mapped to read results back (webgpu: one per group of reads requested in
   * the same tick — `Promise.all` of `data()` calls — and one per `blockUntilReady`; 0
   * elsewhere). `readbacks` counts the arrays read.
   */
  readbackMaps: number;
  /** Free mappable staging buffers kept for reuse, and their bytes (webgpu; 0 elsewhere). */
  stagingBuffers: number;
  /** Bytes of those staging buffers. */
  stagingBytes: number;
  /** Compiled kernels currently cached on this device. */
  kernelCacheEntries: number;
  /** Kernel compilations avoided because the kernel was cached. */
  kernelCacheHits: number;
  /** Kernels compiled (not found in the cache). */
  kernelCacheMisses: number;
  /** Bytes of kernel code generated since the last `clearCaches()` (wasm modules; 0 elsewhere). */
  kernelCodeBytes: number;
  /** The most locals of one generated kernel function since the last `clearCaches()` (wasm). */
  kernelMaxLocals: number;
  /**
   * Kernels compiled by running the compiled module of a kernel that differed from them only
   * in size (wasm: elementwise kernels and reductions whose code reads the size only as the
   * end of their range; 0 elsewhere). Also counted in kernelCacheMisses.
   */
  kernelSizeReuses: number;
  /** Compiled scan loops run (each is one module call on wasm; also counted in dispatches). */
  loopRuns: number;
  /** Compiled scan loops cached on this device. */
  loopCacheEntries: number;
  /** Host data written into new buffers of this device (creation, JS scalars, constants). */
  uploads: number;
  /** Bytes of host data written into this device's buffers. */
  uploadBytes: number;
  /** Buffers of this device read back to the host (`data()`, `dataSync()`, moves). */
  readbacks: number;
  /**
   * The device was lost (webgpu: a driver reset, `GPUDevice.destroy()`, the browser reclaiming
   * the GPU). Its arrays throw on every operation and dispose without error; `init()` opens a
   * new device; `webgpuUnavailableReason()` says why it was lost.
   */
  lost: boolean;
  /** Bytes read back to the host. */
  readbackBytes: number;
  /**
   * Operands the library moved off this device through the host on its own (an array placed
   * by default following a committed operand elsewhere): 0 while work stays on the device.
   */
  moves: number;
  /** Bytes of those moves. */
  moveBytes: number;
  /**
   * Copies from one device buffer into another (webgpu: operands into and results out of the
   * packed buffer of a compiled scan or staged program — a scan's xs and ys are bound
   * directly where the storage-buffer limit allows, so only its carries are copied —,
   * carries of pre-encoded scans, uploads behind pending work; not readbacks; 0 elsewhere).
   */
  bufferCopies: number;
}

/**
 * What `memoryStats()` returns: live arrays and programs, WebAssembly memory, the program cache,
 * per-device counters and scan counters.
 */
export interface MemoryStats {
  /** Arrays alive now (each live `Array` handle, tracers included while a trace is open). */
  liveArrays: number;
  /**
   * Arrays the garbage collector reclaimed undisposed (their references released then): each
   * one is a leak the safety net caught. 0 in a program that disposes everything.
   */
  reclaimedArrays: number;
  /** `data()` reads begun and not yet handed over (0 when every read has settled). */
  pendingReads: number;
  /** Traced programs held: makeJaxpr results and vjp functions. */
  liveJaxprs: number;
  /**
   * The current size of the module's WebAssembly memory (cpu arrays) plus the wasm device's data
   * memory (wasm arrays); each grows and never shrinks.
   */
  wasmMemoryBytes: number;
  /** The most bytes each of those two memories can grow to (4 GiB). */
  wasmMemoryLimit: number;
  /** The global cache of lowered jit programs. */
  programCache: {
    /** Lowered programs cached now. */
    entries: number;
    /** The most programs the cache holds (least recently used ones are evicted). */
    capacity: number;
    /** Lowerings avoided: a traced program found by its structure. */
    hits: number;
    /** Programs lowered. */
    misses: number;
    /** Programs evicted to stay within `capacity`. */
    evictions: number;
  };
  /** Compiled signatures held by live jit wrappers. */
  jitFunctions: number;
  /** Counters of each started device (`cpu` and `wasm` always, `webgpu` after `init()`). */
  devices: Partial<Record<"cpu" | "wasm" | "webgpu", DeviceStats>>;
  /** Scans run (`lax.scan` loops, including those of gradients), per path, and their steps. */
  scan: ScanStats;
  /** Library compositions called eagerly and run as cached compiled programs. */
  compiledCalls: CompiledCallStats;
}

/**
 * Eager calls of library compositions (random draws, numpy compositions, activations, the
 * functions with parameters) run as compiled programs, in `memoryStats().compiledCalls`: a
 * composition is compiled on its second call with the same operand shapes, dtypes and numbers
 * (on its first, on webgpu arrays kept on the device).
 */
export interface CompiledCallStats {
  /** Calls remembered now (a bounded cache, emptied by `clearCaches`). */
  entries: number;
  /** The most calls remembered (least recently used ones are forgotten). */
  capacity: number;
  /** Compositions compiled (cumulative). */
  compiles: number;
  /** Calls that ran as a compiled program (cumulative). */
  runs: number;
}

/** Counters of `lax.scan` runs, in `memoryStats().scan` (cumulative). */
export interface ScanStats {
  /** Scans run as a compiled loop (path `"fused"`), nested runs counted. */
  fusedRuns: number;
  /** Steps of those runs. */
  fusedSteps: number;
  /** Scans run by the host loop (path `"fallback"`). */
  fallbackRuns: number;
  /** Steps of those runs. */
  fallbackSteps: number;
  /** Scan bodies planned as loop programs (a bounded cache, emptied by `clearCaches`). */
  planCacheEntries: number;
  /** The capacity of that cache. */
  planCacheCapacity: number;
}

const DEVICES = ["cpu", "wasm", "webgpu"] as const;
/** The field names of `wasm.memoryStats()`'s numbers, by group (src/api/stats.rs). */
const [TOP, DEVICE, PROGRAMS, SCAN, CALLS] = wasm
  .memoryStatsLayout()
  .split("|")
  .map((g) => g.trim().split(/\s+/));

/**
 * A snapshot of oxjax's memory and counters: live arrays and traced programs, WebAssembly memory,
 * the jit program cache, per-device buffers, bytes, dispatches, caches and transfers, and scan
 * runs per path. A new plain object each call (cheap: one call into the module). Use it to check
 * for leaks (`liveArrays` back to its baseline), to count device work in tests (never time it),
 * and to see whether programs are reused.
 *
 * @example
 * ```ts
 * const before = memoryStats().liveArrays;
 * using x = np.ones([1000]);
 * memoryStats().liveArrays - before; // 1
 * memoryStats().devices.wasm?.liveBytes; // includes x's 4000 bytes
 * ```
 */
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
    stats.lost = (stats.lost as unknown) === 1;
    if (present) out.devices[d] = stats;
  }
  out.programCache = take(PROGRAMS) as unknown as MemoryStats["programCache"];
  out.scan = take(SCAN) as unknown as ScanStats;
  out.compiledCalls = take(CALLS) as unknown as CompiledCallStats;
  out.reclaimedArrays = reclaimedArrays();
  return out;
}
