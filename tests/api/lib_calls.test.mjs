// The typed library-call boundary (`libCall`, declared in src/library/call.rs, generated into
// js/lib-calls.ts): a value of the wrong type, a missing or unknown field, on either side of
// the boundary, is an Error naming the function and the field — never a panic — and temporary
// arrays made for a failed call are freed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { np, ox, SYNC, checkLeaksAroundEachTest, errorMessage, scoped } from "./helpers.mjs";
import { call, memory, wasm } from "../../pkg/bridge.js";
import * as lib from "../../pkg/lib-calls.js";

checkLeaksAroundEachTest();

/** The id the generated layer sends for function `name` (read from its source). */
function idOf(name) {
  const src = readFileSync(new URL("../../js/lib-calls.ts", import.meta.url), "utf8");
  const m = src.match(
    new RegExp(`export const ${name} = \\(a: \\w+\\)(?:: [^=]+)? =>\\s*run1?\\((\\d+),`),
  );
  assert.ok(m, `no generated function ${name}`);
  return Number(m[1]);
}

/** A raw `libCall` of function `id`: the handles, then the numbers, in the argument buffer. */
function rawCall(id, handles, nums, counts = [handles.length, nums.length]) {
  const all = [...handles, ...nums];
  const at = call(() => wasm.libCallBuffer(all.length));
  new Float64Array(memory.buffer, at, all.length).set(all);
  return call(() => wasm.libCall(id, ...counts));
}

/** The error of a raw `libCall`, checked to be an ordinary Error (not a trap). */
function rawError(name, handles, nums, counts) {
  const e = errorMessage(() => rawCall(idOf(name), handles, nums, counts));
  assert.ok(e instanceof Error);
  assert.doesNotMatch(e.message, /internal error/);
  return e.message;
}

test("the public functions name the function and the bad argument", () =>
  scoped((k) => {
    const x = k(
      np.array(
        [
          [1, 2],
          [3, 4],
        ],
        SYNC,
      ),
    );
    assert.throws(() => np.nansum(x, 1.5), /^TypeError: nansum: axis must be an integer, got 1\.5/);
    assert.throws(() => ox.nn.glu(x, 0.5), /^TypeError: glu: axis must be an integer, got 0\.5/);
    assert.throws(() => ox.lax.topK(x, -1), /^RangeError: topK: k must be non-negative, got -1/);
    assert.throws(
      () => np.meshgrid([x, x], { indexing: "zz" }),
      /^TypeError: meshgrid: indexing must be one of "xy", "ij", got zz/,
    );
    assert.throws(
      () => np.linalg.matrixPower(x, "2"),
      /^TypeError: matrixPower: n must be (a number|an integer)/,
    );
  }));

test("the generated layer rejects unknown and missing fields, freeing temporary arrays", () =>
  scoped((k) => {
    const x = k(np.array([1, 2, 3, 4], SYNC));
    assert.throws(
      () => lib.glu({ x, axis: 0, bogus: 1 }),
      /^TypeError: glu: unknown argument bogus/,
    );
    assert.throws(
      () => lib.take({ x }),
      /^TypeError: take: indices must be an Array, got undefined/,
    );
    // x becomes a temporary array before indices fails: it is freed (the leak check).
    assert.throws(
      () => lib.take({ x: [1, 2, 3], indices: "0" }),
      /^TypeError: take: indices must be an Array, got string/,
    );
    assert.throws(
      () =>
        lib.linalgDet({
          a: [
            [1, 0],
            [0, 1],
          ],
        }),
      /^TypeError: det: a must be an Array/,
    );
    assert.deepEqual(k(lib.glu({ x })).js(), k(ox.nn.glu(x)).js());
  }));

test("Rust's reader names the function and field of a bad buffer, and the instance works on", () =>
  scoped((k) => {
    const x = k(
      np.array(
        [
          [1, 2],
          [3, 4],
        ],
        SYNC,
      ),
    );
    const h = x._handle;
    assert.equal(rawError("glu", [h], [1.5]), "glu: axis must be an integer, got 1.5");
    assert.equal(rawError("glu", [h], []), "glu: axis is missing");
    assert.equal(rawError("glu", [], [-1]), "glu: x is missing (an Array)");
    assert.match(rawError("glu", [h], [-1, 7]), /^glu: unexpected extra arguments/);
    assert.equal(rawError("glu", [h, h], [-1]).startsWith("glu: unexpected extra"), true);
    // logmeanexp: x, axis (presence flag, count, axes), keepdims.
    assert.equal(
      rawError("logmeanexp", [h], [1, 1, 0, 2]),
      "logmeanexp: keepdims must be a boolean, got 2",
    );
    assert.equal(
      rawError("logmeanexp", [h], [1, 1e9, 0, 0]),
      "logmeanexp: axis has 1000000000 entries but only 2 were given",
    );
    assert.equal(rawError("logmeanexp", [h], [3]), "logmeanexp: axis must be a boolean, got 3");
    // meshgrid: arrays (count, handles), indexing (choice index).
    assert.match(rawError("meshgrid", [h, h], [2, 5]), /^meshgrid: indexing must be one of/);
    assert.equal(rawError("topK", [h], [-2, -1]), "topK: k must be a non-negative integer, got -2");
    assert.match(rawError("glu", [12345.5], [-1]), /^glu: /);
    assert.equal(
      errorMessage(() => rawCall(1e6, [h], [])).message,
      "libCall: unknown library function id 1000000",
    );
    assert.equal(rawError("glu", [h], [-1], [1, 1e6]), "glu: arguments beyond the argument buffer");
    assert.deepEqual(k(np.sum(x, 0)).js(), [4, 6]);
  }));

test("every layout reaches Rust intact: options, lists, axes and choices", () =>
  scoped((k) => {
    const x = k(
      np.array(
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
        SYNC,
      ),
    );
    // Axes: one axis, a list, all (null) — the one axis encoding.
    assert.deepEqual(k(np.nansum(x, 0)).js(), [5, 7, 9]);
    assert.deepEqual(k(np.nansum(x, [0, 1])).js(), 21);
    assert.deepEqual(k(np.nansum(x, null, { keepdims: true })).js(), [[21]]);
    // An option given and left out; a list of integers.
    const i = k(np.array([2, 0], { dtype: "int32", ...SYNC }));
    assert.deepEqual(k(np.take(x, i)).js(), [3, 1]);
    assert.deepEqual(k(np.take(x, i, 1)).js(), [
      [3, 1],
      [6, 4],
    ]);
    assert.deepEqual(k(np.roll(x, [1, 1], [0, 1])).js(), [
      [6, 4, 5],
      [3, 1, 2],
    ]);
    // A choice, and a NaN passed as an ordinary number.
    const [gx, gy] = np.meshgrid([k(np.array([1, 2], SYNC)), k(np.array([3], SYNC))], {
      indexing: "ij",
    });
    assert.deepEqual(
      [k(gx).shape, k(gy).shape],
      [
        [2, 1],
        [2, 1],
      ],
    );
    const p = k(np.array([0, 1], SYNC));
    assert.ok(Number.isNaN(k(np.unwrap(p, { period: NaN })).js()[1]));
  }));

test("a call with more values than the argument buffer first held grows it", () =>
  scoped((k) => {
    const xs = Array.from({ length: 600 }, (_, i) => k(np.array([i], SYNC)));
    const out = np.broadcastArrays(...xs);
    out.forEach(k);
    assert.equal(out.length, 600);
    assert.deepEqual(out[599].js(), [599]);
    assert.deepEqual(k(np.sum(xs[3], 0)).js(), 3);
  }));
