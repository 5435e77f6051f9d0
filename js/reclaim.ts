/**
 * The safety net for what a program drops without disposing: when the garbage collector
 * reclaims an `Array` object whose handle is still alive, every reference it held is released
 * (no code can reach the handle any more, so none could release them), and the programs of a
 * jitted function, a `vjp`/`linearize` function or a `makeJaxpr` result are freed with it. It is a net, not ownership: a reclaimed array is still a
 * leak — `memoryStats().reclaimedArrays` counts them and `checkLeaks` reports each one — and
 * the collector runs when it likes, maybe never. Handles carry a generation, so a handle freed
 * meanwhile (disposed, or released with its trace) is recognised and left alone.
 */
import { call, wasm } from "./bridge.js";

let reclaimed = 0;
let onReclaimed: ((handle: number) => void) | null = null;

/** Releases every reference of `handle` if it is a live concrete array; never throws. */
function releaseArray(handle: number): void {
  try {
    let rc = call(() => wasm.refCount(handle));
    if (rc === 0 || call(() => wasm.device(handle)) === undefined) return;
    for (; rc > 0; rc--) call(() => wasm.disposeScoped(handle));
    reclaimed++;
    onReclaimed?.(handle);
  } catch {
    // A finalizer has no caller to report to.
  }
}

const Registry = globalThis.FinalizationRegistry;
const arrays = Registry ? new Registry<number>(releaseArray) : null;
const owners = Registry
  ? new Registry<() => void>((release) => {
      try {
        release();
      } catch {
        // As above.
      }
    })
  : null;

/** @internal Called by the Array constructor: reclaim `handle` when `array` is collected. */
export function watchArray(array: object, handle: number): void {
  arrays?.register(array, handle);
}

/**
 * @internal Runs `release` when `owner` (e.g. a jitted function) is collected undisposed. Make
 * `release` in a function of its own: a closure created beside `owner` shares its context and
 * would keep `owner` alive.
 */
export function watchOwner(owner: object, release: () => void, token: object): void {
  owners?.register(owner, release, token);
}

/** @internal The owner was disposed: nothing to do when it is collected. */
export function unwatchOwner(token: object): void {
  owners?.unregister(token);
}

/** @internal `leaks.ts` marks the reclaimed arrays it tracks. */
export function setReclaimListener(listener: (handle: number) => void): void {
  onReclaimed = listener;
}

/** Arrays released by the garbage collector since the module loaded (each one a leak). */
export function reclaimedArrays(): number {
  return reclaimed;
}
