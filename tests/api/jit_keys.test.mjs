// jit cache keys are structural: the structure of the arguments, the static
// values and the Jaxpr are compared as data, never as printed text, so arguments whose dict
// keys contain the printed tree syntax, or static values that print alike, never share a
// program.
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, SYNC, checkLeaksAroundEachTest, scoped } from "./helpers.mjs";

checkLeaksAroundEachTest();

test("dict keys that mimic the printed tree syntax do not share a program", () =>
  scoped((k) => {
    const [x, y] = [k(np.array([1, 2], SYNC)), k(np.array([10, 20], SYNC))];
    let traces = 0;
    const f = k(
      ox.jit((d) => {
        traces++;
        return "a" in d ? d.a.mul(2) : d.c.mul(3);
      }),
    );
    // Unquoted, both structures would print as {a: *, b: *, c: *} (jax-js's printout quotes
    // such keys; the cache key never relies on printing either way).
    const first = { a: x, "b: *, c": y };
    const second = { "a: *, b": x, c: y };
    assert.deepEqual(k(f(first)).js(), [2, 4]);
    assert.deepEqual(k(f(second)).js(), [30, 60]);
    assert.equal(traces, 2);
    assert.deepEqual(k(f(first)).js(), [2, 4]);
    assert.equal(traces, 2);
  }));

test("static values that print alike are different keys", () =>
  scoped((k) => {
    const x = k(np.array([1, 2], SYNC));
    let traces = 0;
    const f = k(
      ox.jit(
        (v, s) => {
          traces++;
          return v.mul(s === a ? 2 : 3);
        },
        { staticArgnums: [1] },
      ),
    );
    const [a, b] = [Symbol("s"), Symbol("s")];
    assert.deepEqual(k(f(x, a)).js(), [2, 4]);
    assert.deepEqual(k(f(x, b)).js(), [3, 6]);
    assert.equal(traces, 2);
    const g = k(ox.jit((v, s) => v.mul(s[0] === "x|y" ? 5 : 7), { staticArgnums: [1] }));
    assert.deepEqual(k(g(x, ["x|y", "z"])).js(), [5, 10]);
    assert.deepEqual(k(g(x, ["x", "y|z"])).js(), [7, 14]);
    assert.deepEqual(k(g(x, [-0])).js(), [7, 14]);
  }));
