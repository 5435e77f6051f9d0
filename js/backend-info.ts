/**
 * `getBackend`: a descriptor of a device's backend. jax-js returns its JS backend object
 * (malloc, incRef, dispatch on raw slots); oxjax's backends live in Rust behind array handles,
 * so the descriptor has the device's `type` and the `slotCount()` that leak checks read (the
 * device's live buffers), and nothing that would hand out raw memory.
 */
import { call, wasm } from "./bridge.js";
import { defaultDevice, devices, type Device } from "./device.js";
import { memoryStats } from "./stats.js";

/** What `getBackend` returns: a device's name and its count of live buffers. */
export interface Backend {
  /** The device this backend runs. */
  readonly type: Device;
  /**
   * Live device buffers (jax-js's allocated slots).
   *
   * @example
   * ```ts
   * const before = getBackend("cpu").slotCount();
   * using x = np.ones([2], { device: "cpu" });
   * getBackend("cpu").slotCount() - before; // 1
   * ```
   */
  slotCount(): number;
}

/**
 * A descriptor of `device`'s backend (the default device when omitted), which must be
 * available: its `type` and `slotCount()`, the number of live device buffers (what the fork's
 * leak checks read). jax-js's raw slot operations (malloc, dispatch…) are not exposed: oxjax's
 * backends live in Rust behind array handles.
 *
 * @example
 * ```ts
 * getBackend("wasm").slotCount(); // live buffers on the wasm device
 * ```
 */
export function getBackend(device?: Device): Backend {
  const type = device ?? defaultDevice();
  if (!devices.includes(type)) throw new TypeError(`getBackend: unknown device ${String(type)}`);
  const available = call(() => wasm.availableDevices()) as Device[];
  if (!available.includes(type)) {
    throw new Error(`getBackend: device ${type} is not available (call init first)`);
  }
  const stats = type as "cpu" | "wasm" | "webgpu";
  return { type, slotCount: () => memoryStats().devices[stats]?.liveBuffers ?? 0 };
}
