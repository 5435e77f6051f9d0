/**
 * `setDebug`, as in jax-js: a verbosity level (0 = silent; 1 logs each program jit lowers
 * and each scan body compiled as a loop, 2 also its kernels, 3 also the program after each
 * lowering pass — printed by Rust through the console).
 */
import { call, wasm } from "./bridge.js";

let level = 0;

/**
 * Sets how much oxjax logs to the console: 0 nothing (the default); 1 a line for each
 * program `jit` lowers and each scan body lowered for a compiled loop (its device, kernel and
 * fallback-step counts); 2 also the program's
 * steps and each kernel in oxjax's kernel IR; 3 also the program after each lowering pass
 * (fusion, then slot lifetimes). Levels above 3 log as 3. A level that is not a non-negative
 * integer throws a `TypeError`.
 *
 * @example
 * ```ts
 * setDebug(1);
 * using f = jit((x) => np.sin(x).mul(2));
 * using x = np.ones([4]);
 * using y = f(x); // logs the lowered program once
 * setDebug(0);
 * ```
 */
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
