/**
 * Instantiates the WebAssembly module when imported (ES modules; a top-level await): Node reads
 * the `.wasm` file next to the glue; browsers (also through Vite) and Deno fetch it by URL
 * relative to the glue. The CommonJS build replaces this file by `wasm-load-sync.ts`.
 */
import initWasm, { initSync } from "./wasm/oxjax.js";

/** What the instance exports that the bridge reads (the shadow-stack pointer, the memory). */
export type InstanceExports = { __stack_pointer?: WebAssembly.Global; memory: WebAssembly.Memory };

type NodeProcess = { versions?: { node?: string } };
const g = globalThis as unknown as { process?: NodeProcess; Deno?: unknown };
const isNode = !!g.process?.versions?.node && g.Deno === undefined;

async function load(): Promise<InstanceExports> {
  if (isNode) {
    const fsModule = "node:fs/promises";
    const fs = (await import(/* @vite-ignore */ fsModule)) as {
      readFile(path: URL): Promise<Uint8Array>;
    };
    const bytes = await fs.readFile(new URL("./wasm/oxjax_bg.wasm", import.meta.url));
    return initSync({ module: bytes }) as unknown as InstanceExports;
  }
  const url = new URL("./wasm/oxjax_bg.wasm", import.meta.url);
  return (await initWasm({ module_or_path: url })) as unknown as InstanceExports;
}

export const instanceExports: InstanceExports = await load();
