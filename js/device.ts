/**
 * Devices: `cpu` (reference interpreter), `wasm` (the default) and `webgpu` (after `init()`).
 */
import { call, callAsync, wasm } from "./bridge.js";
import { configureWasmThreads } from "./wasm-threads.js";
import { warmUp } from "./warm-up.js";

/**
 * A device name. `cpu`: the reference interpreter; `wasm` (the default): WebAssembly kernels
 * generated at run time; `webgpu`: WGSL shaders on the platform's WebGPU, after `init()`;
 * `webgl`: known to jax-js, not implemented by oxjax (never available).
 */
export type Device = "cpu" | "wasm" | "webgpu" | "webgl";

/**
 * Every device name jax-js knows, available or not: `["cpu", "wasm", "webgpu", "webgl"]`.
 * `init()` says which are available.
 *
 * @example
 * ```ts
 * import { devices } from "oxjax";
 * console.log(devices.length); // 4
 * ```
 */
export const devices: Device[] = ["cpu", "wasm", "webgpu", "webgl"];

/**
 * Gets, or sets and returns, the default device: where arrays made without a `device` option
 * go, and where operations without array operands run. Setting an unavailable device throws.
 * Arrays already made stay where they are.
 *
 * @example
 * ```ts
 * defaultDevice(); // "wasm"
 * if ((await init()).includes("webgpu")) defaultDevice("webgpu");
 * ```
 */
export function defaultDevice(device?: Device): Device {
  if (device !== undefined) call(() => wasm.setDefaultDevice(device));
  return call(() => wasm.getDefaultDevice()) as Device;
}

/** Options of `init`. */
export interface InitOptions {
  /** Plan WebGPU kernels for at most this many storage buffers (tests force 8). */
  maxStorageBuffers?: number;
  /**
   * Threads that run large `wasm` kernels and batched routines, the calling thread included
   * (default: the machine's cores; 1 turns the worker pool off). Where the runtime has no
   * shared memory or workers the device stays on one thread (`wasmThreadInfo()` says why).
   */
  wasmThreads?: number;
  /**
   * Compute eager webgpu operations whose operands are all small arrays held on the host (at
   * most 4 KiB: small creations, JS numbers, earlier such results) and whose result is small
   * on the host, with the cpu device's interpreter, keeping the result's bytes beside its
   * buffer, so reading it waits for no buffer map (default `true`; `false` runs them on the
   * GPU, as the test suites do to exercise its kernels).
   */
  smallOnHost?: boolean;
}

let webgpuError: string | null = null;

/**
 * Starts the requested devices (all of them when none are named) and resolves to those of
 * them that are available. `cpu` and `wasm` are always available (from import); `webgpu`
 * starts here where `navigator.gpu` gives an adapter (browsers, Deno with
 * `--unstable-webgpu`; not Node). It never rejects because WebGPU is missing: it is left out,
 * and `webgpuUnavailableReason()` says why. The first call also runs a tiny workload on `wasm`
 * (a few arrays of 4 elements, all disposed), so that the engine compiles the common code paths
 * here rather than on your first operation. Calling it again is cheap. After the webgpu device
 * was lost (every operation on its arrays then throws, naming the loss), calling it again opens
 * a new device: new webgpu arrays work; the old ones stay unusable and dispose without error.
 *
 * @example
 * ```ts
 * const devices = await init(); // ["cpu", "wasm"] in Node; plus "webgpu" where it works
 * await init("webgpu", { maxStorageBuffers: 8 }); // WebGPU only, planned for 8 buffers
 * ```
 */
export async function init(...requested: (Device | InitOptions)[]): Promise<Device[]> {
  const options = (requested.find((r) => typeof r === "object") ?? {}) as InitOptions;
  const names = requested.filter((r): r is Device => typeof r === "string");
  if (options.wasmThreads !== undefined) {
    const t = options.wasmThreads;
    if (!Number.isInteger(t) || t < 1) {
      throw new Error(`init: wasmThreads must be a positive integer, got ${String(t)}`);
    }
    await configureWasmThreads(t);
  }
  if (options.smallOnHost !== undefined) {
    if (typeof options.smallOnHost !== "boolean") {
      throw new Error(`init: smallOnHost must be a boolean, got ${String(options.smallOnHost)}`);
    }
    call(() => wasm.setSmallOnHost(options.smallOnHost as boolean));
  }
  const wantWebgpu = names.length === 0 || names.includes("webgpu");
  const gpu = (globalThis as { navigator?: { gpu?: unknown } }).navigator?.gpu;
  if (wantWebgpu && gpu && !available().includes("webgpu")) {
    ensureGlobalScopeMarker();
    try {
      await withSubgroupsRequested(() =>
        callAsync(() => wasm.initWebGpu(options.maxStorageBuffers)),
      );
      webgpuError = null;
    } catch (e) {
      webgpuError = e instanceof Error ? e.message : String(e);
    }
  }
  await warmUp();
  const have = available();
  return names.length === 0 ? have : have.filter((d) => names.includes(d));
}

/**
 * Why WebGPU is unavailable: the device was lost (a driver reset, `GPUDevice.destroy()`, the
 * browser reclaiming the GPU; `init()` opens a new one), or the last attempt to start it
 * failed (the adapter or device request's error). `null` when it works or was never tried
 * (no `navigator.gpu`).
 *
 * @example
 * ```ts
 * await init();
 * webgpuUnavailableReason(); // null where nothing failed (in Node: no navigator.gpu to try)
 * ```
 */
export function webgpuUnavailableReason(): string | null {
  const lost = call(() => wasm.webgpuLostReason()) ?? null;
  return lost === null ? webgpuError : `the webgpu device was lost: ${lost}`;
}

function available(): Device[] {
  return call(() => wasm.availableDevices()) as Device[];
}

/**
 * Runs `open` with every device request adding the `subgroups` feature where the adapter lists
 * it: wgpu's browser backend passes on only the features it knows, and the tiled matmul has a
 * subgroup form (the device's features tell the backend whether it was granted).
 */
async function withSubgroupsRequested<T>(open: () => Promise<T>): Promise<T> {
  const proto = (globalThis as { GPUAdapter?: { prototype: Partial<Adapter> } }).GPUAdapter
    ?.prototype;
  const original = proto?.requestDevice;
  if (!proto || !original) return open();
  proto.requestDevice = function (this: Adapter, descriptor: DeviceRequest = {}) {
    const features = [...(descriptor.requiredFeatures ?? [])];
    if (this.features.has("subgroups") && !features.includes("subgroups")) {
      features.push("subgroups");
    }
    return original.call(this, { ...descriptor, requiredFeatures: features });
  };
  try {
    return await open();
  } finally {
    proto.requestDevice = original;
  }
}

interface Adapter {
  features: { has(name: string): boolean };
  requestDevice(descriptor?: DeviceRequest): Promise<unknown>;
}
interface DeviceRequest {
  requiredFeatures?: Iterable<string>;
}

/**
 * wgpu finds `navigator.gpu` through the global scope's `Window` or `WorkerGlobalScope`
 * constructor; Deno has `navigator.gpu` but neither, so mark the scope as a window there.
 */
function ensureGlobalScopeMarker(): void {
  const scope = globalThis as { Window?: unknown; WorkerGlobalScope?: unknown };
  if (scope.Window === undefined && scope.WorkerGlobalScope === undefined) {
    Object.defineProperty(globalThis, "Window", { value: class Window {}, configurable: true });
  }
}
