/**
 * The program of a worker of the `wasm` device's pool (`wasm-pool.ts`), and the layout of the
 * control block it shares with the pool (an `Int32Array` over a `SharedArrayBuffer`).
 *
 * A job is one kernel or batched routine cut into chunks (ranges of output elements, or of
 * batch items). The calling thread writes the job into the control block, publishes it in
 * `TICKET` (the job's sequence number in the high 16 bits, the next unclaimed chunk in the
 * low 16) and bumps `WAKE`. Every thread — the workers and the calling thread — claims chunks
 * one at a time with a compare-exchange on `TICKET` until none is left, so a worker that is
 * slow to wake (a busy machine) leaves its share to the others instead of holding them up.
 * A worker marks each chunk it ran in `STATE` (done, by which worker; or failed, with the
 * first failure's message in `FAULT_MSG`).
 */

/** Word offsets of the control block. */
export const LAYOUT = {
  /** Bumped for each job; idle workers `Atomics.wait` on it. */
  WAKE: 0,
  /** `seq << 16 | next chunk`. */
  TICKET: 1,
  /** 1 once a worker failed (the pool stops at its next look). */
  FAULT: 2,
  /** The job's kernel module id. */
  MODULE: 3,
  CHUNKS_N: 4,
  ARGC: 5,
  /** 1: a batched routine (`count, arg + start × stride…`); 0: a kernel (`start, end, arg…`). */
  STRIDED: 6,
  FAULT_LEN: 7,
  FAULT_MSG: 8,
  FAULT_MAX: 250,
  ARGS: 264,
  MAX_ARGS: 240,
  STRIDES: 504,
  /** Chunk `i` is `[CHUNKS + 2i, CHUNKS + 2i + 1]` = start, end. */
  CHUNKS: 744,
  MAX_CHUNKS: 256,
  /** Per chunk: 0 not finished, 1 failed, 2 + w done by worker w. */
  STATE: 1256,
  WORDS: 1512,
} as const;

/** The layout's type (the worker receives it in its `init` message). */
export type Layout = typeof LAYOUT;

/**
 * The worker's program (stringified into the worker's source, so it refers to nothing outside
 * itself). `post` sends to the pool, `listen` receives from it. Messages: `init` (the data
 * memory, the control block, the layout, this worker's index and the test fault switch),
 * `module` (a kernel module's id and bytes, compiled and instantiated here against the data
 * memory), `drop` (forget a module).
 */
export function workerMain(
  post: (m: unknown) => void,
  listen: (f: (m: any) => void) => void,
): void {
  let L: Layout | null = null;
  let memory: WebAssembly.Memory | null = null;
  let ctl = new Int32Array(1);
  let index = 0;
  let seen = 0;
  let fault = "";
  const kernels = new Map<number, (...a: number[]) => void>();
  const report = (e: unknown): void => {
    const L_ = L!;
    if (Atomics.compareExchange(ctl, L_.FAULT, 0, 1) !== 0) return;
    const text = `worker ${index + 1} threw: ${String(e instanceof Error ? e.message : e)}`;
    const cut = text.slice(0, L_.FAULT_MAX);
    for (let i = 0; i < cut.length; i++) ctl[L_.FAULT_MSG + i] = cut.charCodeAt(i);
    Atomics.store(ctl, L_.FAULT_LEN, cut.length);
  };
  /** Runs chunk `i` of the current job with kernel `f`. */
  const run = (f: (...a: number[]) => void, i: number): void => {
    const L_ = L!;
    let state = 2 + index;
    try {
      if (fault === "throw") throw new Error("injected worker fault");
      const start = ctl[L_.CHUNKS + 2 * i]!;
      const end = ctl[L_.CHUNKS + 2 * i + 1]!;
      const args: number[] = [];
      const argc = ctl[L_.ARGC]!;
      if (ctl[L_.STRIDED] === 1) {
        args.push(end - start);
        for (let k = 0; k < argc; k++) {
          args.push((ctl[L_.ARGS + k]! + start * ctl[L_.STRIDES + k]!) >>> 0);
        }
      } else {
        args.push(start, end);
        for (let k = 0; k < argc; k++) args.push(ctl[L_.ARGS + k]! >>> 0);
      }
      f(...args);
    } catch (e) {
      state = 1;
      report(e);
    }
    Atomics.store(ctl, L_.STATE + i, state);
    Atomics.notify(ctl, L_.STATE + i);
  };
  /** Claims and runs chunks of the current job; false when its module has not arrived yet. */
  const work = (): boolean => {
    const L_ = L!;
    for (;;) {
      const t = Atomics.load(ctl, L_.TICKET);
      if ((t & 0xffff) >= Atomics.load(ctl, L_.CHUNKS_N)) return true;
      const f = kernels.get(ctl[L_.MODULE]!);
      if (f === undefined) return false;
      if (Atomics.compareExchange(ctl, L_.TICKET, t, t + 1) !== t) continue;
      run(f, t & 0xffff);
    }
  };
  const loop = (): void => {
    for (;;) {
      // The test fault switch: a worker that throws whenever it wakes, ranges or not.
      if (fault === "throw" && Atomics.load(ctl, L!.CHUNKS_N) > 0) {
        report(new Error("injected worker fault"));
      }
      if (!work()) return; // receive the module's message, then come back here
      Atomics.wait(ctl, L!.WAKE, seen);
      seen = Atomics.load(ctl, L!.WAKE);
    }
  };
  listen((m) => {
    if (m.type === "init") {
      L = m.layout;
      memory = m.memory;
      ctl = m.ctl;
      index = m.index;
      fault = m.fault;
      seen = Atomics.load(ctl, L!.WAKE);
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
