// `__expect`, the check that tests/docs/jsdoc_examples.mjs inserts after an example line whose
// comment gives a value: the actual value (an Array read with `js()`, a `{ real, imag }` pair
// as `[real, imag]`) against the expected one, numbers to 1e-6 relative (1e-3 with `≈`).
import assert from "node:assert/strict";
import { Array as OxArray } from "../../pkg/index.js";

const SPECIAL = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };

function plain(v) {
  if (v instanceof OxArray) return v.js();
  if (ArrayBuffer.isView(v)) return globalThis.Array.from(v);
  if (v && typeof v === "object" && "real" in v && "imag" in v)
    return [plain(v.real), plain(v.imag)];
  return v;
}

function close(actual, expected, tol, path) {
  if (typeof expected === "string" && expected in SPECIAL) expected = SPECIAL[expected];
  if (globalThis.Array.isArray(expected)) {
    assert.ok(globalThis.Array.isArray(actual), `${path}: expected a list, got ${actual}`);
    assert.equal(actual.length, expected.length, `${path}: length`);
    expected.forEach((e, i) => close(actual[i], e, tol, `${path}[${i}]`));
  } else if (typeof expected === "number") {
    const a = typeof actual === "boolean" ? Number(actual) : actual;
    assert.equal(typeof a, "number", `${path}: expected a number, got ${actual}`);
    if (Number.isNaN(expected)) return assert.ok(Number.isNaN(a), `${path}: ${a} is not NaN`);
    if (!Number.isFinite(expected)) return assert.equal(a, expected, path);
    const err = Math.abs(a - expected);
    assert.ok(err <= tol * Math.max(1, Math.abs(expected)), `${path}: ${a} is not ${expected}`);
  } else {
    assert.deepEqual(actual, expected, path);
  }
}

/** Checks `value` against `expected`; disposes an Array value of a bare expression. */
export function __expect(value, expected, approx, where, dispose) {
  try {
    close(plain(value), expected, approx ? 1e-3 : 1e-6, where);
  } finally {
    if (dispose && value instanceof OxArray) value.dispose();
    if (dispose && value && typeof value === "object" && value.real instanceof OxArray) {
      value.real.dispose();
      value.imag.dispose();
    }
  }
}
