/**
 * The only importer of the wasm-bindgen glue besides the loaders. The module is instantiated
 * when this file is imported, so `cpu` and `wasm` work without `init()`: by `wasm-load.ts`
 * (ES modules: Node reads the `.wasm` file next to the glue, browsers and Deno fetch it, with a
 * top-level await), or by `wasm-load-sync.ts`, which the CommonJS build (`require`) puts in its
 * place (Node only: read and instantiated synchronously).
 *
 * `call` turns a Rust panic (a WebAssembly trap) into an `Error` carrying the panic message,
 * and keeps the instance usable after any call that did not return normally. A trap, or a JS
 * exception thrown through Rust frames (a stack overflow inside a call), abandons those frames
 * without running their epilogues: the shadow-stack pointer is left lowered and the state they
 * borrowed stays borrowed. Before the next call, `recover` rewinds the pointer (the module
 * exports it; no Rust frame is live between calls from JS, decision 1) and voids the abandoned
 * borrows (`recoverAfterTrap`); traces whose abort could not run then are aborted too.
 */
import * as glue from "./wasm/oxjax.js";
import { instanceExports as exports } from "./wasm-load.js";

export const wasm = glue;

/** The module's memory (for views into buffers Rust lends, such as `libCallBuffer`'s). */
export const memory = exports.memory;

/** The shadow-stack pointer and its value between calls (when no Rust frame is live). */
const stackPointer = exports.__stack_pointer;
const stackTop = stackPointer?.value as number | undefined;
/** Set when a call ended by an exception: the next call recovers first. */
let dirty = false;
/** Traces to abort once the instance has recovered (their abort failed, e.g. out of stack). */
const pendingAborts: number[] = [];

/**
 * @internal Aborts trace `frame` after its function threw: now, or (out of stack) before the
 * next call. Never throws, so the function's own exception propagates.
 */
export function abortTrace(frame: number): void {
  pendingAborts.push(frame);
  dirty = true;
  tryRecover();
}

/** Makes the instance usable again after abandoned calls (see the module doc). */
function recover(): void {
  if (stackPointer && stackPointer.value !== stackTop) stackPointer.value = stackTop;
  glue.recoverAfterTrap();
  while (pendingAborts.length) {
    glue.traceAbort(pendingAborts[pendingAborts.length - 1]!);
    pendingAborts.pop();
  }
  dirty = false;
}

/** `recover`, or (out of stack: the exception may be a stack overflow) before the next call. */
function tryRecover(): void {
  try {
    recover();
  } catch {
    dirty = true;
  }
}

let afterCall: (() => void) | null = null;

/** @internal Runs `hook` after every successful call into Rust (scan path reports). */
export function setAfterCall(hook: (() => void) | null): void {
  afterCall = hook;
}

/** Runs `fn`, converting a Rust panic into an `Error` that names it as an oxjax bug. */
export function call<T>(fn: () => T): T {
  if (dirty) recover();
  try {
    const result = fn();
    if (afterCall) afterCall();
    return result;
  } catch (e) {
    throw convertTrap(e);
  }
}

/** `call` for async functions. */
export async function callAsync<T>(fn: () => Promise<T>): Promise<T> {
  if (dirty) recover();
  try {
    return await fn();
  } catch (e) {
    throw convertTrap(e);
  }
}

function convertTrap(e: unknown): unknown {
  // Errors returned by Rust leave no frame behind, but telling them apart from exceptions
  // thrown through Rust frames is not worth it: recovering is always safe between calls.
  dirty = true;
  tryRecover();
  if (e instanceof WebAssembly.RuntimeError) {
    const message = glue.lastPanic();
    return new Error(
      `oxjax internal error (a Rust panic, please report it): ${message ?? e.message}`,
    );
  }
  return e;
}
