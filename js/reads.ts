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
 * the call.
 * Rust never calls back into JavaScript: this module drives the flow (ARCHITECTURE.md,
 * decision 1).
 */
import { call, callAsync, wasm } from "./bridge.js";
import type { DataArray } from "./dtype.js";

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
