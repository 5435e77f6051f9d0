/**
 * `getBackend`: a descriptor of a device's backend. jax-js returns its JS backend object
 * (malloc, incRef, dispatch on raw slots); oxjax's backends live in Rust behind array handles,
 * so the descriptor has the device's `type` and the `slotCount()` that leak checks read (the
 * device's live buffers), and nothing that would hand out raw memory.
 */
import { call, wasm } from "./bridge.js";
import { defaultDevice, devices, type Device } from "./device.js";
import { memoryStats } from "./stats.js";

export interface Backend {
  /** The device this backend runs. */
  readonly type: Device;
  /** Live device buffers (jax-js's allocated slots). */
  slotCount(): number;
}

/** The backend of `device` (the default device when omitted); it must be available. */
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
