// A browser stand-in for `node:assert/strict` with the assertions tests/api/ uses: ok, equal,
// notEqual (Object.is), deepEqual (strict: same prototypes, typed arrays by element), match,
// throws (RegExp on String(error), an Error class, or a validation function) and fail.
export class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = "AssertionError";
  }
}

const show = (v) => {
  try {
    return typeof v === "bigint" ? `${v}n` : (JSON.stringify(v) ?? String(v));
  } catch {
    return String(v);
  }
};
const failWith = (message, fallback) => {
  if (message instanceof Error) throw message;
  throw new AssertionError(message ?? fallback);
};

function deepStrictEqual(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (ArrayBuffer.isView(a) || Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepStrictEqual(a[i], b[i])) return false;
    if (ArrayBuffer.isView(a)) return true;
  }
  if (a instanceof Map || a instanceof Set) {
    return deepStrictEqual([...a], [...b]);
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepStrictEqual(a[k], b[k]));
}

function ok(value, message) {
  if (!value) failWith(message, `expected a truthy value, got ${show(value)}`);
}
const assert = (value, message) => ok(value, message);

Object.assign(assert, {
  AssertionError,
  ok,
  equal(a, b, message) {
    if (!Object.is(a, b)) failWith(message, `${show(a)} !== ${show(b)}`);
  },
  notEqual(a, b, message) {
    if (Object.is(a, b)) failWith(message, `${show(a)} === ${show(b)}`);
  },
  deepEqual(a, b, message) {
    if (!deepStrictEqual(a, b)) failWith(message, `not deep-equal: ${show(a)} vs ${show(b)}`);
  },
  notDeepEqual(a, b, message) {
    if (deepStrictEqual(a, b)) failWith(message, `deep-equal: ${show(a)}`);
  },
  match(s, re, message) {
    if (typeof s !== "string" || !re.test(s)) failWith(message, `${show(s)} does not match ${re}`);
  },
  doesNotMatch(s, re, message) {
    if (typeof s !== "string" || re.test(s)) failWith(message, `${show(s)} matches ${re}`);
  },
  fail(message) {
    failWith(message, "Failed");
  },
  throws(fn, expected, message) {
    try {
      fn();
    } catch (e) {
      if (expected instanceof RegExp) {
        if (!expected.test(String(e))) failWith(message, `${String(e)} does not match ${expected}`);
      } else if (typeof expected === "function" && expected.prototype instanceof Error) {
        if (!(e instanceof expected)) failWith(message, `${String(e)} is not a ${expected.name}`);
      } else if (typeof expected === "function" && expected !== Error) {
        if (expected(e) !== true) failWith(message, `${String(e)} failed validation`);
      } else if (expected === Error && !(e instanceof Error)) {
        failWith(message, `${String(e)} is not an Error`);
      }
      return;
    }
    failWith(typeof expected === "string" ? expected : message, "Missing expected exception.");
  },
});
assert.strict = assert;

export default assert;
export const { equal, notEqual, deepEqual, notDeepEqual, match, fail, throws } = assert;
export { ok };
