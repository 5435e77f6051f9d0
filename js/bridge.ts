/**
 * The only importer of the wasm-bindgen glue. Loads the WebAssembly module at import time (top-
 * level await), so `cpu` and `wasm` work without `init()`: Node reads the `.wasm` file next to
 * this module; browsers (also through Vite) and Deno fetch it by URL relative to the glue.
 *
 * `call` turns a Rust panic (a WebAssembly trap) into an `Error` carrying the panic message.
 */
import initWasm, { initSync } from "./wasm/oxjax.js";
import * as glue from "./wasm/oxjax.js";

type NodeProcess = { versions?: { node?: string } };
const g = globalThis as unknown as { process?: NodeProcess; Deno?: unknown };
const isNode = !!g.process?.versions?.node && g.Deno === undefined;

if (isNode) {
  const fsModule = "node:fs/promises";
  const fs = (await import(/* @vite-ignore */ fsModule)) as {
    readFile(path: URL): Promise<Uint8Array>;
  };
  initSync({ module: await fs.readFile(new URL("./wasm/oxjax_bg.wasm", import.meta.url)) });
} else {
  await initWasm({ module_or_path: new URL("./wasm/oxjax_bg.wasm", import.meta.url) });
}

export const wasm = glue;

let afterCall: (() => void) | null = null;

/** @internal Runs `hook` after every successful call into Rust (scan path reports). */
export function setAfterCall(hook: (() => void) | null): void {
  afterCall = hook;
}

/** Runs `fn`, converting a Rust panic into an `Error` that names it as an oxjax bug. */
export function call<T>(fn: () => T): T {
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
  try {
    return await fn();
  } catch (e) {
    throw convertTrap(e);
  }
}

function convertTrap(e: unknown): unknown {
  if (e instanceof WebAssembly.RuntimeError) {
    const message = glue.lastPanic();
    return new Error(
      `oxjax internal error (a Rust panic, please report it): ${message ?? e.message}`,
    );
  }
  return e;
}
