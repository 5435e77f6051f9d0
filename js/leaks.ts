/**
 * `checkLeaks`, as in the fork: `start()` opens a tracking window, `stop()` reports the arrays
 * created in it that are still alive, with where each was created. It never throws; callers
 * decide what a leak means. Counting is by Rust's live-handle count, so arrays created outside
 * TypeScript's view (none today) would still be counted.
 */
import { call, wasm } from "./bridge.js";
import { memoryStats } from "./stats.js";
import { setReclaimListener } from "./reclaim.js";

/** What `checkLeaks.stop()` returns. */
export interface LeakReport {
  /**
   * The number of arrays created since `start()` that are still alive (at least the number of
   * `details`).
   */
  leaked: number;
  /**
   * One line per leaked array: its description, reference count and the place in your code that
   * created it (and, with `trackRefs`, its last `.ref`).
   */
  details: string[];
  /** `"No leaks detected."`, or the count followed by the details, one per line. */
  summary: string;
}

/** One live array in `checkLeaks.snapshot()`. */
export interface SnapshotEntry {
  /** The array's description, e.g. `Array:float32[3]`. */
  desc: string;
  /** Its reference count. */
  rc: number;
  /** The first stack frame outside oxjax when it was created. */
  location: string;
  /** Always `null` in oxjax (the fork names the package that created the array). */
  pkg: string | null;
  /** Where `.ref` was last called on it (with `trackRefs: true`), else `null`. */
  lastRef: string | null;
}

interface Tracked {
  handle: number;
  describe: (handle: number) => string;
  /** The first stack frame outside oxjax when it was created. */
  location: string;
  /** Where `.ref` was last called on it (with `trackRefs: true`), else `null`. */
  lastRef: string | null;
  /** Released by the garbage collector, never disposed (`reclaim.ts`): still a leak. */
  reclaimed: boolean;
}

let tracked: Map<number, Tracked> | null = null;

/** Flushes run by `stop()` before counting (jit caches: their constants are not leaks). */
const flushes: (() => void)[] = [];

/** @internal Registers a cache flush for `checkLeaks.stop()`. */
export function onLeakCheck(flush: () => void): void {
  flushes.push(flush);
}
let trackRefs = false;
let baseline = 0;

function liveArrays(): number {
  return memoryStats().liveArrays;
}

/** The URL of this package's directory: frames under it are oxjax's own. */
const PACKAGE_ROOT = new URL(".", import.meta.url).href;

/** The first stack frame outside oxjax. */
function callerLocation(): string {
  const lines = (new Error().stack ?? "").split("\n").slice(1);
  const outside = lines.find((l) => !l.includes(PACKAGE_ROOT)) ?? lines[lines.length - 1] ?? "";
  return outside.trim().replace(/^at /, "");
}

/** @internal Called by the Array constructor. */
export function recordCreation(handle: number, describe: (handle: number) => string): void {
  if (!tracked) return;
  tracked.set(handle, {
    handle,
    describe,
    location: callerLocation(),
    lastRef: null,
    reclaimed: false,
  });
}

setReclaimListener((handle) => {
  const t = tracked?.get(handle);
  if (t) t.reclaimed = true;
});

/** @internal Called by `.ref` when `trackRefs` is on. */
export function recordRef(handle: number): void {
  const t = tracked?.get(handle);
  if (t && trackRefs) t.lastRef = callerLocation();
}

/** The tracked arrays still alive, and those the garbage collector reclaimed undisposed. */
function alive(): { t: Tracked; rc: number }[] {
  if (!tracked) return [];
  const out = [];
  for (const t of tracked.values()) {
    const rc = call(() => wasm.refCount(t.handle));
    if (rc > 0 || t.reclaimed) out.push({ t, rc });
  }
  return out;
}

const describe = (t: Tracked): string =>
  t.reclaimed
    ? "an array reclaimed by the garbage collector, never disposed,"
    : t.describe(t.handle);

/**
 * Leak tracking, as in the fork: `start()` opens a tracking window, `stop()` reports the arrays
 * created since then that are still alive, each with the line of your code that created it.
 * Arrays held by `jit` caches are released first (their captured constants are not leaks). It
 * never throws; your test decides what a leak means. One window at a time (`start()` again
 * restarts it).
 *
 * @example
 * ```ts
 * checkLeaks.start();
 * const x = np.ones([3]);
 * const y = x.mul(2); // never disposed
 * x.dispose();
 * const report = checkLeaks.stop();
 * report.leaked; // 1
 * console.log(report.summary); // 1 array leaked: Array:float32[3] … created at <your line>
 * y.dispose();
 * ```
 */
export const checkLeaks = {
  /**
   * Starts (or restarts) tracking: arrays created from now on are recorded with the place that
   * created them; `trackRefs: true` also records each `.ref`. Returns `undefined`.
   *
   * @example
   * ```ts
   * checkLeaks.start({ trackRefs: true });
   * checkLeaks.active; // true
   * checkLeaks.stop().leaked; // 0
   * ```
   */
  start(opts: { trackRefs?: boolean } = {}): void {
    tracked = new Map();
    trackRefs = !!opts.trackRefs;
    baseline = liveArrays();
  },

  /**
   * The arrays created since `start()` that are still alive, without ending the window.
   *
   * @example
   * ```ts
   * checkLeaks.start();
   * using x = np.ones([3]);
   * checkLeaks.snapshot().map((e) => e.desc); // ["Array:float32[3]"]
   * checkLeaks.stop();
   * ```
   */
  snapshot(): SnapshotEntry[] {
    return alive().map(({ t, rc }) => ({
      desc: describe(t),
      rc,
      location: t.location,
      pkg: null,
      lastRef: t.lastRef,
    }));
  },

  /**
   * Ends tracking and reports what is still alive (after releasing what `jit` caches hold).
   * Extra arguments are ignored.
   *
   * @example
   * ```ts
   * checkLeaks.start();
   * const kept = np.zeros([2]);
   * const report = checkLeaks.stop();
   * report.leaked; // 1
   * kept.dispose();
   * ```
   */
  stop(..._ignored: unknown[]): LeakReport {
    if (!tracked) return { leaked: 0, details: [], summary: "No leaks detected." };
    for (const flush of flushes) flush();
    const entries = checkLeaks.snapshot();
    const leaked = Math.max(liveArrays() - baseline, entries.length);
    tracked = null;
    const details = entries.map(
      (e) =>
        `${e.desc} (refCount ${e.rc}) created at ${e.location}` +
        (e.lastRef ? `, last .ref at ${e.lastRef}` : ""),
    );
    const summary =
      leaked === 0
        ? "No leaks detected."
        : `${leaked} array${leaked === 1 ? "" : "s"} leaked:\n` +
          details.map((d) => `  ${d}`).join("\n");
    return { leaked, details, summary };
  },

  /** Whether a tracking window is open. */
  get active(): boolean {
    return tracked !== null;
  },
};
