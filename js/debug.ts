/**
 * `setDebug`, as in jax-js: a verbosity level (0 = silent; 1 logs each program jit lowers,
 * 2 also its kernels — printed by Rust through the console).
 */
import { call, wasm } from "./bridge.js";

let level = 0;

export function setDebug(newLevel: number): void {
  if (!Number.isInteger(newLevel) || newLevel < 0) {
    throw new TypeError(`setDebug: the level must be a non-negative integer, got ${newLevel}`);
  }
  level = newLevel;
  call(() => wasm.setDebug(newLevel));
}

/** @internal The current level. */
export function debugLevel(): number {
  return level;
}
