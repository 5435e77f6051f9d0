// A browser stand-in for the part of `node:test` that tests/api/ uses (test, describe, it,
// beforeEach, afterEach, the `skip` option): tests register while their module loads, then
// tests/browser/api.html runs them in order with `runRegistered()` and reports each result.
const tests = [];
const stack = [];
const hooks = { beforeEach: [], afterEach: [] };

function options(args) {
  const [name, a, b] = args;
  const fn = typeof a === "function" ? a : b;
  const opts = typeof a === "object" && a !== null ? a : {};
  return { name, fn, opts };
}

const prefix = () => stack.map((d) => `${d.name} > `).join("");
const skipped = () => stack.find((d) => d.skip)?.skip;

export function test(...args) {
  const { name, fn, opts } = options(args);
  tests.push({ name: prefix() + name, fn, skip: opts.skip || skipped() || false });
}
export const it = test;

export function describe(...args) {
  const { name, fn, opts } = options(args);
  stack.push({ name, skip: opts.skip || false });
  try {
    fn();
  } finally {
    stack.pop();
  }
}

export function beforeEach(fn) {
  hooks.beforeEach.push(fn);
}
export function afterEach(fn) {
  hooks.afterEach.push(fn);
}

const message = (e) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/** Runs every test registered so far; resolves to { passed, failed: [{ name, error }], skipped }. */
export async function runRegistered() {
  const result = { passed: 0, failed: [], skipped: [] };
  for (const t of tests.splice(0)) {
    if (t.skip) {
      result.skipped.push(`${t.name}: ${t.skip}`);
      continue;
    }
    try {
      for (const h of hooks.beforeEach) await h();
      try {
        await t.fn();
      } finally {
        for (const h of hooks.afterEach) await h();
      }
      result.passed++;
    } catch (e) {
      result.failed.push({ name: t.name, error: message(e) });
    }
  }
  return result;
}

export default test;
