// The differential test's machinery: generated inputs (fast-check: shapes of rank 0–3, values
// exact in float32, axes), running one case in oxjax and in upstream @jax-js/jax, comparing
// dtype, shape and values, and recording which oxjax exports each case calls (so the test can
// check that every export both packages share is compared or excluded with a reason).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ox } from "../helpers.mjs";
import * as oxConsuming from "../../../pkg/consuming/index.js";
import { scoped } from "../../shared/scoped.mjs";
import { up } from "../../shared/upstream.mjs";

export { fc, up };

// Inputs --------------------------------------------------------------------------------------
export const dim = fc.integer({ min: 1, max: 4 });
export const shapeOf = (minRank, maxRank) =>
  fc.array(dim, { minLength: minRank, maxLength: maxRank });
const size = (shape) => shape.reduce((a, b) => a * b, 1);
/** Multiples of 1/8 in [lo, hi]: exact in float32. */
export const value = (lo = -4, hi = 4) =>
  fc.integer({ min: Math.ceil(lo * 8), max: Math.floor(hi * 8) }).map((v) => v / 8);
/** Integers in [lo, hi]. */
export const int = (lo = -9, hi = 9) => fc.integer({ min: lo, max: hi });
const nest = (flat, shape) =>
  shape.length === 0
    ? flat[0]
    : Array.from({ length: shape[0] }, (_, i) =>
        nest(flat.slice(i * size(shape.slice(1))), shape.slice(1)),
      );
/** A nested JS array of `shape` (a number for rank 0). */
export const arrayOf = (shape, v = value()) =>
  fc.array(v, { minLength: size(shape), maxLength: size(shape) }).map((f) => nest(f, shape));
export const tensor = (minRank = 0, maxRank = 3, v = value()) =>
  shapeOf(minRank, maxRank).chain((s) => arrayOf(s, v).map((data) => ({ data, shape: s })));
/** Two arrays whose shapes broadcast (some axes of the second set to 1 or dropped). */
export const broadcastPair = (v1 = value(), v2 = value()) =>
  shapeOf(0, 3).chain((s) =>
    fc
      .tuple(
        fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }),
        fc.integer({ min: 0, max: s.length }),
      )
      .chain(([ones, drop]) => {
        const s2 = s.slice(drop).map((d, i) => (ones[i + drop] ? 1 : d));
        return fc.tuple(arrayOf(s, v1), arrayOf(s2, v2));
      }),
  );
/** An array of rank ≥ 1 and a valid axis (negative half the time), or null. */
export const withAxis = (nullable = true, v = value(), minRank = 1) =>
  tensor(minRank, 3, v).chain((t) =>
    fc
      .oneof(
        fc.integer({ min: -t.shape.length, max: t.shape.length - 1 }),
        ...(nullable ? [fc.constant(null)] : []),
      )
      .map((axis) => ({ ...t, axis })),
  );

// Which oxjax exports the cases call ----------------------------------------------------------
/** `namespace.name` of every oxjax export a case called. */
export const called = new Set();

/** `ns` with every function recording its path in `called` (sub-namespaces likewise). */
function recording(ns, path, depth = 0) {
  const out = {};
  for (const [k, v] of Object.entries(ns)) {
    const name = path ? `${path}.${k}` : k;
    if (typeof v === "function" && !/^[A-Z]/.test(k)) {
      out[k] = (...args) => {
        called.add(name);
        return v(...args);
      };
    } else if (v && typeof v === "object" && !Array.isArray(v) && depth < 2) {
      out[k] = recording(v, name, depth + 1);
    } else out[k] = v;
  }
  return out;
}
const oxRecorded = recording(ox, "");
const oxConsumingRecorded = recording(oxConsuming, "");

// Running both libraries ----------------------------------------------------------------------
const isArray = (x) => x !== null && typeof x === "object" && "dtype" in x && "shape" in x;

/** dtype, shape and values of every array in a result (lists and objects followed). */
function describe(r, keep) {
  if (Array.isArray(r)) return r.map((x) => describe(x, keep));
  if (isArray(r)) {
    keep(r);
    return { dtype: r.dtype, shape: [...r.shape], values: r.js() };
  }
  if (r !== null && typeof r === "object" && Object.getPrototypeOf(r) === Object.prototype) {
    return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, describe(v, keep)]));
  }
  return { value: r };
}

/** oxjax's result of `run(lib, make, keep)` as plain data; every array made is disposed. */
function runOx(run) {
  return scoped((k) => {
    const make = (data, opts) => k(oxRecorded.numpy.array(data, opts));
    return describe(run(oxRecorded, make, k), k);
  });
}

/**
 * oxjax's result through `oxjax/consuming`, for code in upstream's style (`.ref`, consumed
 * arguments): reading each result (`js()`) consumes it, as upstream's does.
 */
function runOxConsuming(run) {
  const make = (data, opts) => oxConsumingRecorded.numpy.array(data, opts);
  return describe(
    run(oxConsumingRecorded, make, (x) => x),
    (x) => x,
  );
}

/** Upstream's result (its operations consume their inputs; results are dropped after). */
function runUp(run) {
  const make = (data, opts) => up.numpy.array(data, opts);
  return describe(
    run(up, make, (x) => x),
    (x) => x,
  );
}

function assertSame(got, want, label, tol) {
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `${label}: a list`);
    assert.equal(got.length, want.length, label);
    want.forEach((w, i) => assertSame(got[i], w, `${label}[${i}]`, tol));
    return;
  }
  if (!("dtype" in want) && !("value" in want)) {
    assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${label}: keys`);
    for (const k of Object.keys(want)) assertSame(got[k], want[k], `${label}.${k}`, tol);
    return;
  }
  if ("value" in want) {
    const close = (x, y) =>
      typeof y === "number" && typeof x === "number"
        ? x === y || Math.abs(x - y) <= tol * (1 + Math.abs(y)) || (isNaN(x) && isNaN(y))
        : false;
    if (!close(got.value, want.value)) assert.deepEqual(got.value, want.value, label);
    return;
  }
  assert.equal(got.dtype, want.dtype, `${label}: dtype`);
  assert.deepEqual(got.shape, want.shape, `${label}: shape`);
  const g = [got.values].flat(Infinity);
  const w = [want.values].flat(Infinity);
  g.forEach((x, i) => {
    const y = w[i];
    const ok =
      typeof y !== "number"
        ? x === y
        : Number.isNaN(y)
          ? Number.isNaN(x)
          : x === y || Math.abs(x - y) <= tol * (1 + Math.abs(y));
    assert.ok(ok, `${label}: element ${i}: oxjax ${x}, upstream ${y}`);
  });
}

/**
 * A test: `run(lib, make, input, keep)` on inputs from `arb` in both libraries (`numRuns`
 * generated inputs; float tolerance `tol`, relative). `make(data, opts)` makes an array of
 * the library, `keep(x)` hands an intermediate array to the scope (oxjax disposes it).
 * `consuming`: the code is in upstream's ownership style, run in oxjax through
 * `oxjax/consuming` (its arrays must all be consumed: the leak check sees any left).
 */
export function differential(name, arb, run, { tol = 1e-5, runs = 25, consuming = false } = {}) {
  test(name, () => {
    const details = fc.check(
      fc.property(arb, (input) => {
        const want = runUp((lib, make, keep) => run(lib, make, input, keep));
        const runIn = consuming ? runOxConsuming : runOx;
        const got = runIn((lib, make, keep) => run(lib, make, input, keep));
        assertSame(got, want, `${name}(${JSON.stringify(input)})`, tol);
      }),
      { numRuns: runs, seed: 1919 },
    );
    if (details.failed) {
      const cause = details.errorInstance;
      throw new Error(`${name}: ${cause?.message ?? details.error}`, { cause });
    }
  });
}

/** The libraries of the `consuming` cases: oxjax's consuming entry (recording) and upstream. */
export const consumingLibs = () => ({ oxc: oxConsumingRecorded, up });

/** Every function both packages export, as `namespace.name` (top-level: just the name). */
export function sharedExports() {
  const out = [];
  const walk = (o, u, path, depth) => {
    for (const k of Object.keys(u)) {
      if (!(k in o)) continue;
      const [a, b] = [o[k], u[k]];
      const name = path ? `${path}.${k}` : k;
      if (typeof a === "function" && typeof b === "function" && !/^[A-Z]/.test(k)) out.push(name);
      else if (a && b && typeof a === "object" && typeof b === "object" && depth < 2) {
        if (!Array.isArray(b)) walk(a, b, name, depth + 1);
      }
    }
  };
  walk(ox, up, "", 0);
  return out.sort();
}
