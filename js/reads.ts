/**
 * `data()`: reads of webgpu arrays requested in the same tick share ONE staging buffer and ONE
 * `mapAsync` (each read would otherwise pay the platform's fixed map round trip, ~11 ms in
 * Deno). `readBegin` joins the array to the open read group synchronously; the first read of a
 * tick schedules, in a microtask, the group's submission (`readSubmit`: every copy encoded and
 * submitted together, one map started) and its wait (`readWait`); each read then takes its own
 * typed array (`readFinish`), copied once from the mapped range. So `Promise.all` of `data()`
 * calls, `tree.data` and `jsAsync` over many arrays cost one map. A small webgpu array made on
 * the host (`zeros`, `arange`, `eye`, `np.array`, … up to 4 KiB) keeps its bytes beside its
 * buffer and is read from them, with no map. cpu and wasm arrays are read synchronously, at
 * the call; a wasm array that is one range of the data memory is copied out of it here.
 * Rust never calls back into JavaScript: this module drives the flow (ARCHITECTURE.md,
 * decision 1).
 */
import { call, callAsync, wasm } from "./bridge.js";
import type { DataArray } from "./dtype.js";

/** The typed arrays of `readSpan`'s kinds (bool reads as Int32Array, as in jax-js). */
const SPAN_KINDS = [Float32Array, Float64Array, Int32Array, Uint32Array] as const;
let dataMemory: WebAssembly.Memory | undefined;

/**
 * A wasm array whose elements are one contiguous range of the data memory, copied out of it
 * in one copy (no kernel, no intermediate array: `src/api/read_span.rs`); undefined for every
 * other array.
 */
export function readInPlace(fn: string, handle: number): DataArray | undefined {
  const span = call(() => wasm.readSpan(fn, handle));
  if (span < 0) return undefined;
  const View = SPAN_KINDS[span % 8]!;
  const count = wasm.readSpanBytes() / View.BYTES_PER_ELEMENT;
  dataMemory ??= wasm.wasmDataMemory() as WebAssembly.Memory;
  const view = new View(dataMemory.buffer, Math.floor(span / 8), count);
  return view.byteLength >= NODE_COPY_BYTES ? (nodeCopy(view) ?? view.slice()) : view.slice();
}

/** From this size on, Node copies out of the data memory with `Buffer.copyBytesFrom`. */
const NODE_COPY_BYTES = 1 << 16;
type Copier = { copyBytesFrom?: (view: ArrayBufferView) => Uint8Array };
const nodeBuffer = (globalThis as { Buffer?: Copier }).Buffer;

/**
 * `view` (of the shared data memory) copied into a fresh unshared array by Node's
 * `Buffer.copyBytesFrom`, which copies a `SharedArrayBuffer`'s bytes as fast as a plain
 * buffer's (a typed array's `slice` of shared memory is ~10% slower at 4 MB); undefined
 * elsewhere, or if the copy is not an array buffer of its own.
 */
function nodeCopy<T extends DataArray>(view: T): T | undefined {
  const copy = nodeBuffer?.copyBytesFrom?.(view);
  if (!copy || copy.byteOffset !== 0 || copy.buffer.byteLength !== view.byteLength)
    return undefined;
  const View = view.constructor as new (buffer: ArrayBufferLike) => T;
  return new View(copy.buffer);
}

/** The pending submission of the open group, shared by every read of this tick. */
let scheduled: Promise<void> | null = null;

function submitSoon(): Promise<void> {
  scheduled ??= Promise.resolve().then(() => {
    scheduled = null;
    // Synchronous: reads begun from now on join the next group.
    const group = call(() => wasm.readSubmit());
    return callAsync(() => wasm.readWait(group));
  });
  return scheduled;
}

/** The elements of the array behind `handle` as a fresh typed array, for `fn` (e.g. `data`). */
export async function readData(fn: string, handle: number): Promise<DataArray> {
  // cpu and wasm arrays, and small webgpu arrays made on the host (from their host copy, no
  // map), are read synchronously, at the call (like a webgpu read, which owns its array from
  // here on).
  const inPlace = readInPlace(fn, handle);
  if (inPlace) return inPlace;
  const begun = call(() => wasm.readBegin(fn, handle)) as number | DataArray;
  if (typeof begun !== "number") return begun;
  const ticket = begun;
  try {
    await submitSoon();
  } catch (e) {
    // Only a Rust panic gets here; the ticket is forgotten all the same.
    try {
      wasm.readFinish(fn, ticket);
    } catch {
      // Its own error says less than the panic's.
    }
    throw e;
  }
  return call(() => wasm.readFinish(fn, ticket)) as DataArray;
}
