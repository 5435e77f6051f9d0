/** `setDebug`, as in jax-js: a verbosity level (0 = silent). oxjax prints nothing yet. */

let level = 0;

export function setDebug(newLevel: number): void {
  if (!Number.isInteger(newLevel) || newLevel < 0) {
    throw new TypeError(`setDebug: the level must be a non-negative integer, got ${newLevel}`);
  }
  level = newLevel;
}

/** @internal The current level. */
export function debugLevel(): number {
  return level;
}
