// Error paths free what they made: an Array given where a list of numbers is
// expected is refused, not iterated into slices nobody frees, and the temporaries of multi-step
// functions are freed when a step fails. Checked by the leak check after every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, checkLeaksAroundEachTest, errorMessage, scoped } from "./helpers.mjs";

checkLeaksAroundEachTest();

test("an Array where a list of numbers is expected is an error, not leaked slices", () =>
  scoped((k) => {
    const x = k(np.array([1, 2]));
    const reps = k(np.array([2, 2]));
    const cases = [
      ["tile", () => np.tile(x, reps)],
      ["reshape", () => np.reshape(x, reps)],
      ["transpose", () => np.transpose(x, reps)],
      ["sum", () => np.sum(x, reps)],
      ["broadcastTo", () => np.broadcastTo(x, reps)],
      ["split", () => np.split(x, reps)],
      ["expandDims", () => np.expandDims(x, reps)],
      ["zeros", () => np.zeros(reps)],
      ["uniform", () => ox.random.uniform(k(ox.random.key(0)), reps)],
      ["roll", () => np.roll(x, reps)],
      ["conv", () => ox.lax.conv(x, x, reps, "VALID")],
      ["dynamicSlice", () => ox.lax.dynamicSlice(x, reps, [1])],
    ];
    for (const [name, f] of cases) {
      const err = errorMessage(f);
      assert.ok(err instanceof TypeError, `${name}: ${err}`);
      assert.match(err.message, new RegExp(`^${name}: .*not an Array|^${name}: .*got an Array`));
    }
  }));

test("fftn, rfftn, fromfunction and applyOverAxes free their temporaries on errors", () =>
  scoped((k) => {
    const x = k(np.ones([2, 3]));
    const zero = k(np.zeros([2, 3]));
    assert.match(
      errorMessage(() => np.fft.fftn({ real: x, imag: zero }, [0, 5])).message,
      /^fftn: /,
    );
    assert.match(errorMessage(() => np.fft.rfftn(x, [0, 7])).message, /^rfftn: /);
    assert.match(
      errorMessage(() => np.fromfunction((i) => i, [2, 2], { dtype: "nope" })).message,
      /^fromfunction: /,
    );
    const fail = () => {
      throw new Error("user error");
    };
    assert.equal(errorMessage(() => np.fromfunction(fail, [2, 2])).message, "user error");
    // The first axis gives a temporary; the second fails (rank 0).
    const secondFails = (a, axis) => (axis === 0 ? a.mul(2) : a.sum());
    assert.match(
      errorMessage(() => np.applyOverAxes(secondFails, x, [0, 1])).message,
      /^applyOverAxes: /,
    );
  }));
