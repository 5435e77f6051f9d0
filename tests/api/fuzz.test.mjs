// The robustness fuzz test: every exported function and every Array method is
// called with generated bad and edge-case values in every argument position (fast-check, a
// fixed seed, 1500 cases per function: about a minute; OXJAX_FUZZ_RUNS and OXJAX_FUZZ_SEED
// change them). Each call must return, or throw a JS `Error` whose
// message names the called function (never an engine message, an internal op name or a trap);
// afterwards a known-good call still gives the right value and the live arrays are back at
// their baseline (nothing leaked, results and error paths alike).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { np, ox } from "./helpers.mjs";

/** Functions with global effects (devices, caches, debug output, callbacks): not fuzzed. */
const SKIP = new Set([
  "init",
  "setDebug",
  "clearCaches",
  "defaultDevice",
  "setScanPathCallback",
  "checkLeaks",
]);

/** [path, function, names]: every exported function once, with all the names it has. */
function exportedFunctions() {
  const byFunction = new Map();
  const walk = (prefix, obj, depth) => {
    for (const [k, v] of Object.entries(obj)) {
      if (SKIP.has(k)) continue;
      if (typeof v === "function" && !/^[A-Z]/.test(k)) {
        const entry = byFunction.get(v) ?? { path: prefix + k, names: [] };
        entry.names.push(k);
        byFunction.set(v, entry);
      } else if (v && typeof v === "object" && depth < 2 && !(v instanceof ox.Array)) {
        walk(`${prefix}${k}.`, v, depth + 1);
      }
    }
  };
  walk("", ox, 0);
  return [...byFunction].map(([f, { path, names }]) => [path, f, names]);
}

/** The Array methods, called on a generated receiver. */
/** Array's own methods and those of its base classes. */
const METHODS = [];
for (let p = ox.Array.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
  for (const k of Object.getOwnPropertyNames(p)) {
    const d = Object.getOwnPropertyDescriptor(p, k);
    if (k !== "constructor" && typeof d.value === "function" && !METHODS.includes(k)) {
      METHODS.push(k);
    }
  }
}

/** Fresh arrays for a case: float32 [2,3], int32 [3], bool scalar, float64 [2] on cpu, weak. */
const makeArrays = () => [
  np.array([
    [1, 2, 3],
    [4, 5, 6],
  ]),
  np.array([1, 2, 3], { dtype: "int32" }),
  np.array(true),
  np.array([0.5, -1], { dtype: "float64", device: "cpu" }),
  np.array(2.5),
];

/** Bad and edge-case values; `{ arr: i }` stands for array i of the case. */
const value = fc.oneof(
  fc.constantFrom(
    NaN,
    Infinity,
    -Infinity,
    -1,
    0,
    -0,
    1,
    2,
    1.5,
    2 ** 31,
    2 ** 32 + 1,
    1e10,
    -(2 ** 31),
    "0",
    "abc",
    "",
    "float32",
    null,
    undefined,
    {},
    [],
    [1, 0.5],
    ["3"],
    [null],
    [2, 2],
    [[1, 2], [3]],
    { length: 2 ** 32 - 1 },
    { dtype: "int32" },
    { axis: 0 },
    { device: "nope" },
    Symbol("s"),
    () => 1,
    true,
    false,
    10n,
  ),
  fc.integer({ min: 0, max: 4 }).map((arr) => ({ arr })),
);

const isPlaceholder = (a) =>
  a !== null && typeof a === "object" && !Array.isArray(a) && Object.keys(a).join() === "arr";

function disposeTree(r) {
  if (r instanceof ox.Array) {
    if (r.refCount > 0) r.dispose();
  } else if (Array.isArray(r)) {
    r.forEach(disposeTree);
  } else if (r && typeof r === "object" && Object.getPrototypeOf(r) === Object.prototype) {
    Object.values(r).forEach(disposeTree);
  } else if (r && typeof r.dispose === "function" && typeof r !== "function") {
    r.dispose();
  }
}

const describeArgs = (args) =>
  args.map((a) => (typeof a === "symbol" || typeof a === "bigint" ? String(a) : JSON.stringify(a)));

/** One call: its outcome checked, its results and arrays freed, the instance checked. */
async function checkCall(path, names, call, args) {
  const baseline = ox.memoryStats().liveArrays;
  const arrays = makeArrays();
  const real = args.map((a) => (isPlaceholder(a) ? arrays[a.arr] : a));
  let result;
  try {
    result = call(real, arrays);
    if (result instanceof Promise) result = await result;
  } catch (e) {
    const where = `${path}(${describeArgs(args)})`;
    assert.ok(e instanceof Error, `${where} threw a non-Error: ${String(e)}`);
    assert.ok(
      names.some((n) => e.message.startsWith(`${n}:`) || e.message.startsWith(`${n} is not`)),
      `${where}: the message does not name the function: ${e.message}`,
    );
    assert.doesNotMatch(e.message, /internal error|panic|unreachable/, where);
  }
  if (typeof result === "function") result.dispose?.();
  else disposeTree(result);
  for (const a of arrays) if (a.refCount > 0) a.dispose();
  const live = ox.memoryStats().liveArrays;
  assert.equal(live, baseline, `${path}(${describeArgs(args)}) leaked ${live - baseline} arrays`);
  const x = np.array([1, 2]);
  const y = x.add(1);
  assert.deepEqual(y.js(), [2, 3], `${path}: a later call fails`);
  x.dispose();
  y.dispose();
}

const RUNS = Number(process.env.OXJAX_FUZZ_RUNS ?? 1500);
const SEED = Number(process.env.OXJAX_FUZZ_SEED ?? 18);

test("every export, given bad values, throws an Error naming it and leaks nothing", async () => {
  const fns = exportedFunctions();
  assert.ok(fns.length > 300, `found only ${fns.length} functions`);
  for (const [path, f, names] of fns) {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { maxLength: 4 }), (args) =>
        checkCall(path, names, (real) => f(...real), args),
      ),
      { numRuns: RUNS, seed: SEED, includeErrorInReport: true },
    );
  }
});

test("every Array method, given bad values, throws an Error naming it and leaks nothing", async () => {
  assert.ok(METHODS.length > 30, `found only ${METHODS.length} methods`);
  for (const m of METHODS) {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.array(value, { maxLength: 3 }),
        (i, args) => checkCall(`Array.${m}`, [m], (real, arrays) => arrays[i][m](...real), args),
      ),
      { numRuns: RUNS, seed: SEED, includeErrorInReport: true },
    );
  }
});

test("the issue's silent coercions are errors naming the function", () => {
  const x = np.array([
    [1, 2],
    [3, 4],
  ]);
  const cases = [
    ["sum", () => np.sum(x, "0")],
    ["argmax", () => np.argmax(x, "abc")],
    ["argmax", () => np.argmax(x, NaN)],
    ["argmax", () => np.argmax(x, {})],
    ["transpose", () => np.transpose(x, [1, 0.5])],
    ["zeros", () => np.zeros(["3"])],
    ["zeros", () => np.zeros([null])],
    ["full", () => np.full([2], "x")],
    ["sum", () => np.sum(x, { length: 2 ** 32 - 1 })],
    ["convolve", () => np.convolve(np.array([1, 2]), np.array([1]), {})],
  ];
  for (const [name, f] of cases) {
    let err;
    try {
      disposeTree(f());
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof Error, `${name}: no error`);
    assert.match(err.message, new RegExp(`^${name}: `));
  }
  x.dispose();
});
