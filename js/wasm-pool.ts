/**
 * The worker pool of the `wasm` device. Where the runtime has shared memory and workers
 * (browsers when `crossOriginIsolated`, Deno, Node through `node:worker_threads`), large
 * kernels are split into ranges of output elements: Rust (`src/backend/wasm/threads.rs`)
 * decides which kernels and which ranges, hands all but the first range to this pool
 * (`begin`), computes the first itself, then waits here (`finish`) and computes again any
 * range a worker did not complete. Workers instantiate the same kernel modules against the
 * same shared data memory, so a range is one call of the kernel's `(start, end, …)` export.
 *
 * Signalling goes through a control block (an `Int32Array` over a `SharedArrayBuffer`), one
 * slot per worker: the calling thread writes a job and bumps the slot's sequence number; the
 * worker, blocked in `Atomics.wait`, runs it and publishes the sequence number as done. Kernel
 * modules reach workers by `postMessage` before their first job; a worker whose job names a
 * module it has not received yet returns to its event loop to receive it. The calling thread
 * waits with `Atomics.wait` where it may block (Node, Deno, workers) and spins on
 * `Atomics.load` on a browser's main thread.
 *
 * The pool starts lazily (the first time Rust asks for threads), runs on the calling thread
 * until every worker has reported ready, and stops on any fault — a worker that throws, fails
 * to start, or does not finish a range within `STALL_MS` — leaving the device on the calling
 * thread with the reason in `wasmThreadInfo()`. `init({ wasmThreads })` sets the thread count
 * (1 turns the pool off and terminates its workers).
 */
import { wasm } from "./bridge.js";

/** Int32 words per worker slot of the control block, and the offsets inside a slot. */
const SLOT = 512;
const SEQ = 0;
const DONE = 1;
const STATUS = 2;
const MODULE = 3;
const ARGC = 4;
const ARGS = 8;
const MAX_ARGS = 240;
const MSG_LEN = 256;
const MSG = 257;
/** Kernel modules each worker keeps (the wasm device's kernel cache holds 512). */
const MODULES_KEPT = 512;
/** A range not finished this long after the calling thread finished its own stops the pool. */
const STALL_MS = 10_000;
/** At most this many threads (the calling thread included). */
const MAX_THREADS = 64;

/**
 * The worker's program (stringified into the worker's source, so it refers to nothing outside
 * itself). `post` sends to the pool, `listen` receives from it.
 */
function workerMain(post: (m: unknown) => void, listen: (f: (m: any) => void) => void): void {
  const SLOT = 512,
    SEQ = 0,
    DONE = 1,
    STATUS = 2,
    MODULE = 3,
    ARGC = 4,
    ARGS = 8;
  const MSG_LEN = 256,
    MSG = 257,
    MSG_MAX = 250;
  let memory: WebAssembly.Memory | null = null;
  let ctl = new Int32Array(1);
  let base = 0;
  let seen = 0;
  let fault = "";
  let pending = false;
  const kernels = new Map<number, (...a: number[]) => void>();
  const execute = (): void => {
    let status = 0;
    try {
      if (fault === "throw") throw new Error("injected worker fault");
      const f = kernels.get(ctl[base + MODULE]!)!;
      const args: number[] = [];
      for (let i = 0; i < ctl[base + ARGC]!; i++) args.push(ctl[base + ARGS + i]!);
      f(...args);
    } catch (e) {
      status = 1;
      const text = String(e instanceof Error ? e.message : e).slice(0, MSG_MAX);
      for (let i = 0; i < text.length; i++) ctl[base + MSG + i] = text.charCodeAt(i);
      ctl[base + MSG_LEN] = text.length;
    }
    ctl[base + STATUS] = status;
    Atomics.store(ctl, base + DONE, seen);
    Atomics.notify(ctl, base + DONE);
  };
  const loop = (): void => {
    for (;;) {
      if (pending) {
        // The job's module has not arrived yet: receive messages, come back here.
        if (!kernels.has(ctl[base + MODULE]!)) return;
        pending = false;
        execute();
      }
      Atomics.wait(ctl, base + SEQ, seen);
      const seq = Atomics.load(ctl, base + SEQ);
      if (seq !== seen) {
        seen = seq;
        pending = true;
      }
    }
  };
  listen((m) => {
    if (m.type === "init") {
      memory = m.memory;
      ctl = m.ctl;
      base = m.slot * SLOT;
      fault = m.fault;
      seen = Atomics.load(ctl, base + SEQ);
      post({ type: "ready" });
    } else if (m.type === "module") {
      const module = new WebAssembly.Module(m.bytes);
      const instance = new WebAssembly.Instance(module, { env: { memory: memory! } });
      kernels.set(m.id, instance.exports.kernel as (...a: number[]) => void);
    } else if (m.type === "drop") {
      kernels.delete(m.id);
    }
    loop();
  });
}

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
  /** Kernels split across threads so far. */
  splitKernels: number;
  /** The most threads that computed ranges of one kernel so far. */
  threadsUsed: number;
}

/** The machine's cores (the default thread count). */
function cores(): number {
  const os = g.process?.getBuiltinModule?.("node:os") as
    { availableParallelism?: () => number } | undefined;
  return g.navigator?.hardwareConcurrency ?? os?.availableParallelism?.() ?? 4;
}

class WasmPool {
  requested = 1;
  /** Why this runtime can never run the pool, or null. */
  private unsupported: string | null = null;
  state: WasmThreadInfo["state"] = "off";
  reason: string | null = null;
  splitKernels = 0;
  threadsUsed = 1;
  private workers: PoolWorker[] = [];
  private ctl: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private posted = new Map<number, true>();
  /** Slots with a job out, and the calling thread's time when it finished its own range. */
  private out = 0;
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

  /** Threads usable now; starts the pool when it is idle. */
  threads(): number {
    if (this.state === "ready") return this.workers.length + 1;
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
    this.ctl = new Int32Array(new SharedArrayBuffer(4 * SLOT * count));
    const fault = g.__oxjaxWasmPoolFault ?? "";
    const ready: Promise<void>[] = [];
    for (let slot = 0; slot < count; slot++) {
      ready.push(this.spawnOne(slot, fault));
    }
    await Promise.all(ready);
  }

  private async spawnOne(slot: number, fault: string): Promise<void> {
    const prefix = fault === "start" ? 'throw new Error("injected start fault");\n' : "";
    const init = { type: "init", memory: this.memory, ctl: this.ctl, slot, fault };
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

  /** Terminates every worker (after the jobs out, if any, are settled by `finish`). */
  private stop(): void {
    const workers = this.workers;
    this.workers = [];
    for (const w of workers) w.terminate();
    this.posted.clear();
    this.out = 0;
    this.starting = null;
    if (this.state === "ready" || this.state === "starting") this.state = "idle";
  }

  /** Hands `ranges` (pairs) of kernel `id` to workers 0, 1, …; false when it cannot. */
  begin(id: number, bytes: Uint8Array, args: Uint32Array, ranges: Uint32Array): boolean {
    const jobs = ranges.length / 2;
    if (this.state !== "ready" || jobs > this.workers.length || args.length + 2 > MAX_ARGS) {
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
    for (let j = 0; j < jobs; j++) {
      const base = j * SLOT;
      ctl[base + MODULE] = id;
      ctl[base + ARGC] = args.length + 2;
      ctl[base + ARGS] = ranges[2 * j]!;
      ctl[base + ARGS + 1] = ranges[2 * j + 1]!;
      for (let i = 0; i < args.length; i++) ctl[base + ARGS + 2 + i] = args[i]!;
      Atomics.add(ctl, base + SEQ, 1);
      Atomics.notify(ctl, base + SEQ);
    }
    this.out = jobs;
    this.splitKernels++;
    this.threadsUsed = Math.max(this.threadsUsed, jobs + 1);
    return true;
  }

  /** Waits for the jobs of `begin`; returns the indices of those no worker completed. */
  finish(): number[] {
    const ctl = this.ctl;
    const missed: number[] = [];
    const deadline = performance.now() + STALL_MS;
    let problem: string | null = null;
    for (let j = 0; j < this.out; j++) {
      const base = j * SLOT;
      const seq = Atomics.load(ctl, base + SEQ);
      let done = Atomics.load(ctl, base + DONE);
      while (done !== seq && problem === null) {
        if (this.blocking) Atomics.wait(ctl, base + DONE, done, 50);
        if (performance.now() > deadline) {
          problem = `worker ${j + 1} did not finish a kernel within ${STALL_MS} ms`;
        }
        done = Atomics.load(ctl, base + DONE);
      }
      if (done !== seq) {
        missed.push(j);
      } else if (ctl[base + STATUS] !== 0) {
        missed.push(j);
        let text = "";
        for (let i = 0; i < ctl[base + MSG_LEN]!; i++) {
          text += String.fromCharCode(ctl[base + MSG + i]!);
        }
        problem ??= `worker ${j + 1} threw: ${text}`;
      }
    }
    this.out = 0;
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
      threadsUsed: this.threadsUsed,
    };
  }
}

const pool = new WasmPool(wasm.wasmDataMemory() as WebAssembly.Memory);
wasm.wasmPoolAttach({
  threads: () => pool.threads(),
  begin: (id: number, bytes: Uint8Array, args: Uint32Array, ranges: Uint32Array) =>
    pool.begin(id, bytes, args, ranges),
  finish: () => pool.finish(),
});

/** @internal `init({ wasmThreads })`: sets the thread count and waits for the pool. */
export function configureWasmThreads(threads: number): Promise<void> {
  return pool.configure(threads);
}

/**
 * The `wasm` device's threads: how many run large kernels now, how many were asked for,
 * whether the data memory is shared, the pool's state, and — when kernels run on the calling
 * thread only — why.
 *
 * @example
 * ```ts
 * await init({ wasmThreads: 4 });
 * wasmThreadInfo().threads; // 4 where the runtime has shared memory and workers
 * ```
 */
export function wasmThreadInfo(): WasmThreadInfo {
  return pool.info();
}
