/**
 * The CommonJS build's module loader (in place of `wasm-load.ts`; Node only): reads the `.wasm`
 * file and instantiates it synchronously, so `require("oxjax")` returns a working module. The
 * bundle lives in `cjs/`, beside the package's `wasm/` folder.
 */
import { initSync } from "./wasm/oxjax.js";
import type { InstanceExports } from "./wasm-load.js";

declare const require: (id: string) => unknown;
declare const __dirname: string;

const fs = require("node:fs") as { readFileSync(path: string): Uint8Array };
const path = require("node:path") as { join(...parts: string[]): string };
const bytes = fs.readFileSync(path.join(__dirname, "..", "wasm", "oxjax_bg.wasm"));

export const instanceExports = initSync({ module: bytes }) as unknown as InstanceExports;
