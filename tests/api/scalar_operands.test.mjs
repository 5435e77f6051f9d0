// JS numbers and booleans as operands of every two-operand numpy function (`np.atan2(x, 2)`,
// `np.logicalAnd(x, true)`, `np.logaddexp(1, x)`), in either position, eagerly, under jit,
// vmap and grad. The oracle is the same call with the number made an array first: a number is
// weakly typed, so `f(x, 2)` must equal `f(x, np.full(x.shape, 2, { dtype: x.dtype }))` for a
// float32 `x` (the number adopts x's dtype), element for element. Integer and bool arrays
// must give a result (or the function's own dtype error), never "needs an array operand".
// Also the identity functions' ownership (a new reference, not the argument) and randint's
// options form.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkLeaksAroundEachTest, errorMessage, np, ox, scopedAsync } from "./helpers.mjs";

checkLeaksAroundEachTest();

/** Every exported numpy function that takes two array-like operands (elementwise). */
const BINARY = [
  "add",
  "subtract",
  "multiply",
  "divide",
  "trueDivide",
  "floorDivide",
  "remainder",
  "fmod",
  "power",
  "pow",
  "floatPower",
  "maximum",
  "minimum",
  "fmax",
  "fmin",
  "atan2",
  "arctan2",
  "hypot",
  "copysign",
  "heaviside",
  "ldexp",
  "logaddexp",
  "logaddexp2",
  "logicalAnd",
  "logicalOr",
  "logicalXor",
  "equal",
  "notEqual",
  "less",
  "lessEqual",
  "greater",
  "greaterEqual",
  "bitwiseAnd",
  "bitwiseOr",
  "bitwiseXor",
  "leftShift",
  "rightShift",
  "bitwiseLeftShift",
  "bitwiseRightShift",
];
const INTEGER_ONLY = /bitwise|Shift/;
const FLOAT_VALUES = [0.5, -1.5, 3, 0];

test("the listed two-operand functions are numpy exports", () => {
  for (const name of BINARY) assert.equal(typeof np[name], "function", name);
});

for (const name of BINARY.filter((n) => !INTEGER_ONLY.test(n) && n !== "ldexp")) {
  test(`np.${name} with a JS number either side equals the number as an array`, async () => {
    await scopedAsync(async (k) => {
      const x = k(np.array(FLOAT_VALUES));
      for (const lit of [2, 0.5, true]) {
        const full = k(np.full(x.shape, Number(lit)));
        for (const [got, want] of [
          [k(np[name](x, lit)), k(np[name](x, full))],
          [k(np[name](lit, x)), k(np[name](full, x))],
          [k(k(ox.jit((a) => np[name](a, lit)))(x)), k(np[name](x, full))],
          [k(ox.vmap((a) => np[name](lit, a))(x)), k(np[name](full, x))],
        ]) {
          assert.equal(got.dtype, want.dtype, `${name} ${lit}: dtype`);
          assert.deepEqual(await got.jsAsync(), await want.jsAsync(), `${name} ${lit}`);
        }
      }
    });
  });
}

test("integer and bool arrays with a number operand: a result or a dtype error", async () => {
  const made = [];
  for (const name of BINARY) {
    for (const [dtype, data, lit] of [
      ["int32", [1, -2, 3], 2],
      ["bool", [true, false, true], true],
    ]) {
      for (const order of [0, 1]) {
        const x = np.array(data, { dtype });
        const call = (a) => (order ? np[name](lit, a) : np[name](a, lit));
        const jitted = ox.jit(call);
        for (const run of [call, jitted]) {
          try {
            made.push(run(x));
          } catch (e) {
            assert.doesNotMatch(e.message, /array operand|internal|unreachable/, name);
            assert.match(e.message, new RegExp(`^${name}|^[a-zA-Z]+: .*(dtype|bool|integer)`));
          }
        }
        jitted.dispose();
        x.dispose();
      }
    }
  }
  for (const m of made) m.dispose();
  assert.ok(made.length > BINARY.length * 4, `${made.length} results`);
});

test("np.ldexp with a number mantissa or exponent", async () => {
  await scopedAsync(async (k) => {
    const x = k(np.array([0.5, -1.5, 3]));
    const n = k(np.array([-1, 0, 2], { dtype: "int32" }));
    assert.deepEqual(await k(np.ldexp(x, 2)).jsAsync(), [2, -6, 12]);
    assert.deepEqual(await k(np.ldexp(3, n)).jsAsync(), [1.5, 3, 12]);
    assert.deepEqual(await k(np.ldexp(true, n)).jsAsync(), [0.5, 1, 4]);
  });
});

test("np.where with a JS boolean or number as the condition", async () => {
  await scopedAsync(async (k) => {
    const x = k(np.array([1.5, -2]));
    assert.deepEqual(await k(np.where(true, x, 0)).jsAsync(), [1.5, -2]);
    assert.deepEqual(await k(np.where(false, x, 7)).jsAsync(), [7, 7]);
    assert.deepEqual(await k(np.where(2, 1, x)).jsAsync(), [1, 1]);
    const jitted = k(ox.jit((a) => np.where(false, a, a.mul(2))));
    assert.deepEqual(await k(jitted(x)).jsAsync(), [3, -4]);
  });
});

test("grad through compositions with a number operand", async () => {
  await scopedAsync(async (k) => {
    const x = k(np.array([3, 4]));
    // d/dx hypot(x, 2) = x / sqrt(x² + 4); d/dy atan2(y, 2) = 2 / (y² + 4).
    const g1 = k(ox.grad((a) => np.sum(np.hypot(a, 2)))(x));
    const g2 = k(ox.grad((a) => np.sum(np.atan2(a, 2)))(x));
    const want1 = [3 / Math.sqrt(13), 4 / Math.sqrt(20)];
    const want2 = [2 / 13, 2 / 20];
    (await g1.jsAsync()).forEach((v, i) => assert.ok(Math.abs(v - want1[i]) < 1e-6));
    (await g2.jsAsync()).forEach((v, i) => assert.ok(Math.abs(v - want2[i]) < 1e-6));
  });
});

test("identity functions return a new reference: disposing it leaves the argument", async () => {
  const x = np.array([1, 2]);
  for (const f of [np.positive, ox.nn.identity, ox.lax.stopGradient, (a) => np.clip(a)]) {
    const y = f(x);
    assert.notEqual(y, x);
    assert.equal(x.refCount, 1);
    y.dispose();
    assert.deepEqual(await x.jsAsync(), [1, 2]);
  }
  x.dispose();
});

test("random.randint's options form (jax-js's) draws what the positional form draws", async () => {
  await scopedAsync(async (k) => {
    const key = k(ox.random.key(7));
    const a = k(ox.random.randint(key, { minval: -3, maxval: 9, shape: [64] }));
    const b = k(ox.random.randint(key, [64], -3, 9));
    const u = k(ox.random.randint(key, { minval: 0, maxval: 9, shape: [2, 3], dtype: "uint32" }));
    assert.deepEqual(await a.jsAsync(), await b.jsAsync());
    assert.equal(a.dtype, "int32");
    assert.equal(u.dtype, "uint32");
    assert.deepEqual(u.shape, [2, 3]);
    for (const v of await a.jsAsync()) assert.ok(v >= -3 && v < 9);
    const s = k(ox.random.randint(key, { minval: 0, maxval: 2 }));
    assert.deepEqual(s.shape, []);
    assert.match(
      errorMessage(() => ox.random.randint(key, { minval: 3, maxval: 3 })).message,
      /^randint: empty range \[3, 3\)/,
    );
    assert.match(
      errorMessage(() => ox.random.randint(key, { minval: 0, maxval: 3, dtype: "float32" }))
        .message,
      /^randint: dtype must be/,
    );
    assert.match(
      errorMessage(() => ox.random.randint(key, { minval: -1, maxval: 3, dtype: "uint32" }))
        .message,
      /^randint: uint32 needs/,
    );
  });
});
