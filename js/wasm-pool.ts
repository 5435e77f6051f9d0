/**
 * The worker pool of the `wasm` device. Where the runtime has shared memory and workers
 * (browsers when `crossOriginIsolated`, Deno, Node through `node:worker_threads`), large
 * kernels and batched routines are cut into chunks (ranges of output elements, or of batch
 * items): Rust (`src/backend/wasm/threads.rs`) decides which dispatches and which chunks,
 * publishes them here (`begin`), claims and computes chunks itself (`claim`) while the
 * workers claim the others, then waits here (`finish`) for the chunks workers took and
 * computes again any they did not complete. Workers (`wasm-worker.ts`) instantiate the same
 * modules against the same shared data memory, so a chunk is one call of the module's export.
 * Chunks are claimed, not assigned: a worker that is slow to wake (other programs on the
 * cores) leaves its share to the calling thread instead of holding it up.
 *
 * The calling thread waits with `Atomics.wait` where it may block (Node, Deno, workers) and
 * spins on `Atomics.load` on a browser's main thread.
 *
 * The pool starts lazily (the first time Rust asks for threads), runs on the calling thread
 * until every worker has reported ready, and stops on any fault — a worker that throws, fails
 * to start, exits, or does not finish a chunk within `STALL_MS` — leaving the device on the
 * calling thread with the reason in `wasmThreadInfo()`. This file does not import the wasm
 * module: `wasm-threads.ts` makes the device's pool, and tests make pools of their own.
 */
import { LAYOUT as L, workerMain } from "./wasm-worker.js";

/** Kernel modules each worker keeps (the wasm device's kernel cache holds 512). */
const MODULES_KEPT = 512;
/** A chunk not finished this long after the calling thread ran out of chunks stops the pool. */
const STALL_MS = 10_000;
/** At most this many threads (the calling thread included). */
export const MAX_THREADS = 64;

/** What the pool needs of a worker (a web `Worker` or a Node `worker_threads` one). */
interface PoolWorker {
  postMessage(m: unknown): void;
  terminate(): unknown;
}

type NodeWorkerThreads = {
  Worker: new (
    src: string,
    opts: { eval: boolean },
  ) => PoolWorker & {
    on(ev: string, f: (x: any) => void): void;
    once(ev: string, f: (x: any) => void): void;
    unref(): void;
  };
};

const g = globalThis as unknown as {
  process?: {
    versions?: { node?: string };
    getBuiltinModule?: (name: string) => unknown;
  };
  Deno?: unknown;
  Worker?: unknown;
  navigator?: { hardwareConcurrency?: number };
  crossOriginIsolated?: boolean;
  __oxjaxWasmPoolFault?: string;
};
const isNode = !!g.process?.versions?.node && g.Deno === undefined;

/** Whether the calling thread may block in `Atomics.wait` (not a browser's main thread). */
function canBlock(): boolean {
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
    return true;
  } catch {
    return false;
  }
}

/** The state `wasmThreadInfo()` reports. */
export interface WasmThreadInfo {
  /** Threads that run large kernels now (the calling thread included; 1: none besides it). */
  threads: number;
  /** The thread count asked for (`init({ wasmThreads })`, default: the machine's cores). */
  requested: number;
  /** Whether the device's data memory is shared (workers need it). */
  sharedMemory: boolean;
  /** `"off"`, `"idle"` (starts at the first large kernel), `"starting"`, `"ready"`, `"failed"`. */
  state: "off" | "idle" | "starting" | "ready" | "failed";
  /** Why kernels run on the calling thread only, or `null` while the pool runs or idles. */
  reason: string | null;
  /** Kernels handed to the pool so far (cut into chunks for the threads to claim). */
  splitKernels: number;
  /** Batched routines handed to the pool so far (cut into chunks of batch items). */
  splitRoutines: number;
  /** Chunks computed by workers so far (the calling thread computes the rest). */
  workerChunks: number;
  /** The most threads that computed chunks of one dispatch so far. */
  threadsUsed: number;
}

/** The machine's cores (the default thread count). */
function cores(): number {
  const os = g.process?.getBuiltinModule?.("node:os") as
    { availableParallelism?: () => number } | undefined;
  return g.navigator?.hardwareConcurrency ?? os?.availableParallelism?.() ?? 4;
}

/** The entry points Rust calls (`src/backend/wasm/threads.rs`). */
export interface PoolEntries {
  threads(): number;
  begin(
    id: number,
    bytes: Uint8Array,
    args: Uint32Array,
    strides: Uint32Array,
    chunks: Uint32Array,
  ): boolean;
  claim(): number;
  finish(): number[];
}

/** A worker pool over one data memory. */
export class WasmPool {
  requested = 1;
  /** Why this runtime can never run the pool, or null. */
  private unsupported: string | null = null;
  state: WasmThreadInfo["state"] = "off";
  reason: string | null = null;
  splitKernels = 0;
  splitRoutines = 0;
  workerChunks = 0;
  threadsUsed = 1;
  /**
   * Test switch: the calling thread claims no chunk and waits for the workers, so every
   * chunk of a dispatch is computed on a worker (tests that compare threads with one thread).
   */
  workersOnly = false;
  private workers: PoolWorker[] = [];
  private ctl: Int32Array<ArrayBufferLike> = new Int32Array(L.WORDS);
  private posted = new Map<number, true>();
  /** The current job's sequence number, chunk count, and the chunks the calling thread took. */
  private seq = 0;
  private chunks = 0;
  private mine: boolean[] = [];
  private blocking = canBlock();
  private starting: Promise<void> | null = null;

  constructor(private readonly memory: WebAssembly.Memory) {
    const shared = typeof SharedArrayBuffer !== "undefined";
    if (!shared || !(memory.buffer instanceof SharedArrayBuffer)) {
      this.unsupported =
        "the runtime has no shared memory (browsers: the page is not crossOriginIsolated)";
    } else if (g.Worker === undefined && !isNode) {
      this.unsupported = "the runtime has no workers";
    }
    this.reason = this.unsupported;
    this.requested = Math.min(MAX_THREADS, Math.max(1, cores()));
    this.state = this.unsupported === null && this.requested > 1 ? "idle" : "off";
    if (this.state === "off") this.reason ??= "one thread was asked for";
  }

  /** The functions Rust calls, bound to this pool. */
  entries(): PoolEntries {
    return {
      threads: () => this.threads(),
      begin: (id, bytes, args, strides, chunks) => this.begin(id, bytes, args, strides, chunks),
      claim: () => this.claim(),
      finish: () => this.finish(),
    };
  }

  /** Threads usable now; starts the pool when it is idle. */
  threads(): number {
    if (this.state === "ready") {
      if (Atomics.load(this.ctl, L.FAULT) !== 0) {
        this.fail(this.faultMessage());
        return 1;
      }
      return this.workers.length + 1;
    }
    if (this.state === "idle") void this.start();
    return 1;
  }

  /** Sets the thread count (restarting the pool if it runs); resolves once it is settled. */
  async configure(threads: number): Promise<void> {
    this.requested = Math.min(MAX_THREADS, threads);
    if (this.unsupported !== null) return;
    await this.starting;
    this.stop();
    this.reason = threads > 1 ? null : "one thread was asked for";
    this.state = threads > 1 ? "idle" : "off";
    if (threads > 1) await this.start();
  }

  start(): Promise<void> {
    if (this.starting) return this.starting;
    this.state = "starting";
    this.starting = this.spawn().then(
      () => {
        if (this.state === "starting") this.state = "ready";
      },
      (e) => this.fail(`the worker pool failed to start: ${e instanceof Error ? e.message : e}`),
    );
    return this.starting;
  }

  private async spawn(): Promise<void> {
    const count = this.requested - 1;
    this.ctl = new Int32Array(new SharedArrayBuffer(4 * L.WORDS));
    this.seq = 0;
    this.chunks = 0;
    const fault = g.__oxjaxWasmPoolFault ?? "";
    const ready: Promise<void>[] = [];
    for (let index = 0; index < count; index++) {
      ready.push(this.spawnOne(index, fault));
    }
    await Promise.all(ready);
  }

  private async spawnOne(index: number, fault: string): Promise<void> {
    const prefix = fault === "start" ? 'throw new Error("injected start fault");\n' : "";
    const init = { type: "init", memory: this.memory, ctl: this.ctl, layout: L, index, fault };
    if (isNode) {
      const wtName = "node:worker_threads";
      const wt = (await import(/* @vite-ignore */ wtName)) as NodeWorkerThreads;
      const src =
        prefix +
        'const { parentPort } = require("node:worker_threads");\n' +
        `(${workerMain.toString()})((m) => parentPort.postMessage(m), (f) => parentPort.on("message", f));`;
      const w = new wt.Worker(src, { eval: true });
      this.workers.push(w);
      w.on("error", (e) => this.lost(w, `a worker failed: ${e?.message ?? e}`));
      w.on("exit", () => this.lost(w, "a worker exited"));
      await new Promise<void>((resolve, reject) => {
        w.once("message", () => resolve());
        w.once("error", (e) => reject(e));
        w.once("exit", () => reject(new Error("a worker exited")));
        w.postMessage(init);
      });
      // After the last 'message' listener is gone: an idle pool never keeps Node running.
      w.unref();
      return;
    }
    const src =
      prefix +
      `(${workerMain.toString()})((m) => self.postMessage(m), (f) => { self.onmessage = (e) => f(e.data); });`;
    const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
    const w = new Worker(url, { type: "module" });
    this.workers.push(w);
    try {
      await new Promise<void>((resolve, reject) => {
        w.onmessage = () => resolve();
        w.onerror = (e) => {
          e.preventDefault?.();
          reject(new Error(e.message || "a worker failed to load"));
        };
        w.postMessage(init);
      });
    } finally {
      URL.revokeObjectURL(url);
    }
    w.onerror = (e) => this.lost(w, `a worker failed: ${e.message}`);
  }

  /** Worker `w` failed or exited: stops the pool if `w` is one of its workers. */
  private lost(w: PoolWorker, reason: string): void {
    if (this.workers.includes(w)) this.fail(reason);
  }

  /** Stops the pool with `reason`; kernels run on the calling thread from now on. */
  private fail(reason: string): void {
    this.stop();
    this.state = "failed";
    this.reason = reason;
  }

  /** Terminates every worker (never during a job: `begin` to `finish` is synchronous). */
  private stop(): void {
    const workers = this.workers;
    this.workers = [];
    for (const w of workers) w.terminate();
    this.posted.clear();
    this.chunks = 0;
    this.starting = null;
    if (this.state === "ready" || this.state === "starting") this.state = "idle";
  }

  /** The first worker failure's message. */
  private faultMessage(): string {
    let text = "";
    const n = Atomics.load(this.ctl, L.FAULT_LEN);
    for (let i = 0; i < n; i++) text += String.fromCharCode(this.ctl[L.FAULT_MSG + i]!);
    return text || "a worker threw";
  }

  /**
   * Publishes a job: chunks (start, end pairs) of module `id` (its `bytes` go to workers that
   * have not received it) over buffer addresses `args`; with `strides` (a batched routine)
   * chunk `[s, e)` is called as `(e − s, args[k] + s × strides[k]…)`, else as
   * `(s, e, args…)`. False when the pool cannot take it (the caller then runs it alone).
   */
  begin(
    id: number,
    bytes: Uint8Array,
    args: Uint32Array,
    strides: Uint32Array,
    chunks: Uint32Array,
  ): boolean {
    const n = chunks.length / 2;
    if (this.state !== "ready" || n > L.MAX_CHUNKS || args.length > L.MAX_ARGS) return false;
    if (Atomics.load(this.ctl, L.FAULT) !== 0) {
      this.fail(this.faultMessage());
      return false;
    }
    if (!this.posted.has(id)) {
      for (const w of this.workers) w.postMessage({ type: "module", id, bytes });
      this.posted.set(id, true);
      if (this.posted.size > MODULES_KEPT) {
        const old = this.posted.keys().next().value!;
        this.posted.delete(old);
        for (const w of this.workers) w.postMessage({ type: "drop", id: old });
      }
    } else {
      this.posted.delete(id);
      this.posted.set(id, true);
    }
    const ctl = this.ctl;
    this.seq = (this.seq + 1) & 0xffff;
    // Closed first (no chunk claimable) so no worker claims from a half-written job.
    Atomics.store(ctl, L.TICKET, (this.seq << 16) | 0xffff);
    ctl[L.MODULE] = id;
    ctl[L.CHUNKS_N] = n;
    ctl[L.ARGC] = args.length;
    ctl[L.STRIDED] = strides.length > 0 ? 1 : 0;
    ctl.set(args, L.ARGS);
    if (strides.length > 0) ctl.set(strides, L.STRIDES);
    ctl.set(chunks, L.CHUNKS);
    ctl.fill(0, L.STATE, L.STATE + n);
    Atomics.store(ctl, L.TICKET, this.seq << 16);
    Atomics.add(ctl, L.WAKE, 1);
    Atomics.notify(ctl, L.WAKE, Math.min(this.workers.length, n));
    this.chunks = n;
    this.mine = new Array<boolean>(n).fill(false);
    if (strides.length > 0) this.splitRoutines++;
    else this.splitKernels++;
    return true;
  }

  /** Claims the next chunk of the current job for the calling thread; −1 when none is left. */
  claim(): number {
    if (this.workersOnly) return -1;
    const i = this.take();
    if (i >= 0) this.mine[i] = true;
    return i;
  }

  /** Claims the next chunk for no one (compare-exchange on the ticket); −1 when none is left. */
  private take(): number {
    const ctl = this.ctl;
    for (;;) {
      const t = Atomics.load(ctl, L.TICKET);
      const i = t & 0xffff;
      if (i >= this.chunks) return -1;
      if (Atomics.compareExchange(ctl, L.TICKET, t, t + 1) === t) return i;
    }
  }

  /**
   * Waits for the chunks the workers claimed; returns the indices of those the calling thread
   * must compute (not completed by a worker, and not computed by the calling thread).
   */
  finish(): number[] {
    const ctl = this.ctl;
    const n = this.chunks;
    const missed: number[] = [];
    const deadline = performance.now() + STALL_MS;
    let problem: string | null = null;
    // With `workersOnly` the workers claim every chunk; wait for them to.
    while (this.workersOnly && (Atomics.load(ctl, L.TICKET) & 0xffff) < n && problem === null) {
      if (this.blocking) Atomics.wait(ctl, L.TICKET, Atomics.load(ctl, L.TICKET), 5);
      if (performance.now() > deadline) problem = `no worker took a chunk within ${STALL_MS} ms`;
    }
    for (let i = this.take(); i >= 0; i = this.take()) missed.push(i);
    const by = new Set<number>();
    for (let i = 0; i < n; i++) {
      if (this.mine[i] || missed.includes(i)) continue;
      let state = Atomics.load(ctl, L.STATE + i);
      while (state === 0 && problem === null) {
        if (this.blocking) Atomics.wait(ctl, L.STATE + i, 0, 50);
        if (performance.now() > deadline) {
          problem = `a worker did not finish a kernel within ${STALL_MS} ms`;
        }
        state = Atomics.load(ctl, L.STATE + i);
      }
      if (state >= 2) {
        by.add(state);
        this.workerChunks++;
      } else {
        missed.push(i);
        if (state === 1) problem ??= this.faultMessage();
      }
    }
    const callerRan = this.mine.some((m) => m) || missed.length > 0;
    this.threadsUsed = Math.max(this.threadsUsed, by.size + (callerRan ? 1 : 0));
    this.chunks = 0;
    if (problem !== null) this.fail(problem);
    return missed;
  }

  info(): WasmThreadInfo {
    return {
      threads: this.state === "ready" ? this.workers.length + 1 : 1,
      requested: this.requested,
      sharedMemory: this.memory.buffer instanceof SharedArrayBuffer,
      state: this.state,
      reason: this.reason,
      splitKernels: this.splitKernels,
      splitRoutines: this.splitRoutines,
      workerChunks: this.workerChunks,
      threadsUsed: this.threadsUsed,
    };
  }
}
