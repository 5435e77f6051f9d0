// Scopes for test code on Node 20, which has no `using`: `scoped((k) => …)` disposes every
// array passed through `k` when the body ends, last made first, as `using` would.

/** Runs `body(k)`; every array passed through `k` is disposed at the end. */
export function scoped(body) {
  const made = [];
  const k = (x) => (made.push(x), x);
  try {
    return body(k);
  } finally {
    for (const x of made.reverse()) x[Symbol.dispose]();
  }
}

/** `scoped` for an async body. */
export async function scopedAsync(body) {
  const made = [];
  const k = (x) => (made.push(x), x);
  try {
    return await body(k);
  } finally {
    for (const x of made.reverse()) x[Symbol.dispose]();
  }
}
