// Tracing from TypeScript (decision 1) through makeJaxpr: the printed Jaxpr with lifted
// constants, tracers owned by their trace (no dispose needed, no leaks), and clear errors for
// reading a tracer, leaking one out of its trace, and a traced function that throws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, checkLeaksAroundEachTest, errorMessage } from "./helpers.mjs";

checkLeaksAroundEachTest();

test("makeJaxpr prints a 10-op function with its lifted constants", () => {
  const w = np.array([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const b = np.array([0.5, 0.25, 0.125]);
  const f = (x, y) => {
    let h = x.mul(w).add(b);
    h = h.mul(h).add(1);
    const g = y.mul(2).add(h);
    const k = g.mul(x).add(w);
    return [k.mul(0.5), h, x.add(w)];
  };
  const x = np.array([1, 2, 3]);
  const y = np.array([[1], [2]]);
  const { jaxpr } = ox.makeJaxpr(f)(x, y);
  const expected = `{ lambda a:f32[2,3] b:f32[3] ; c:f32[3] d:f32[2,1]. let
    e:f32[2,3] = mul c a
    f:f32[2,3] = add e b
    g:f32[2,3] = mul f f
    h:f32[2,3] = add g 1.0
    i:f32[2,1] = mul d 2.0
    j:f32[2,3] = add i h
    k:f32[2,3] = mul j c
    l:f32[2,3] = add k a
    m:f32[2,3] = mul l 0.5
    n:f32[2,3] = add c a
  in ( m, h, n ) }`;
  assert.equal(jaxpr.toString(), expected);
  assert.equal(ox.memoryStats().liveJaxprs, 1);
  // The Jaxpr owns its constants: the caller's handles can go first.
  w.dispose();
  b.dispose();
  assert.equal(jaxpr.toString(), expected);
  jaxpr.dispose();
  assert.match(
    errorMessage(() => jaxpr.dispose()).message,
    /^dispose: the jaxpr has already been disposed/,
  );
  jaxpr[Symbol.dispose](); // never throws
  x.dispose();
  y.dispose();
});

test("integer and weakly typed inputs print with their types", () => {
  const i = np.array([1, 2], { dtype: np.int32 });
  const { jaxpr } = ox.makeJaxpr((a) => a.add(3).mul(a))(i);
  assert.equal(
    jaxpr.toString(),
    `{ lambda a:i32[2]. let
    b:i32[2] = add a 3
    c:i32[2] = mul b a
  in ( c ) }`,
  );
  jaxpr.dispose();
  i.dispose();
});

test("tracers cannot be read, and cannot escape their trace", () => {
  const x = np.array([1, 2]);
  let escaped = null;
  const err = errorMessage(() =>
    ox.makeJaxpr((t) => {
      escaped = t.add(1);
      return t.add(t).dataSync();
    })(x),
  );
  assert.match(err.message, /^dataSync: cannot read a traced value/);
  assert.match(errorMessage(() => escaped.add(1)).message, /^add: the array has been disposed/);
  let kept = null;
  const { jaxpr } = ox.makeJaxpr((t) => {
    kept = t.mul(2);
    return kept;
  })(x);
  jaxpr.dispose();
  assert.match(errorMessage(() => kept.shape).message, /^shape: the array has been disposed/);
  x.dispose();
});

test("shape and dtype read before a dispose still fail after it; share results agree", () => {
  const x = np.zeros([2, 3], { dtype: np.int32 });
  assert.deepEqual(x.shape, [2, 3]);
  x.shape.push(7); // a copy each time: the array's own shape is unchanged
  assert.deepEqual([x.shape, x.dtype, x.ndim, x.size], [[2, 3], "int32", 2, 6]);
  const y = np.positive(x); // shares x's value, takes its shape and dtype
  assert.deepEqual([y.shape, y.dtype, y.toString()], [[2, 3], "int32", "Array:int32[2,3]"]);
  x.dispose();
  assert.match(errorMessage(() => x.shape).message, /^shape: the array has been disposed/);
  assert.match(errorMessage(() => x.dtype).message, /^dtype: the array has been disposed/);
  assert.match(errorMessage(() => x.ndim).message, /the array has been disposed/);
  assert.deepEqual([y.shape, y.dtype], [[2, 3], "int32"]);
  y.dispose();
  assert.match(errorMessage(() => y.shape).message, /^shape: the array has been disposed/);
  let kept = null;
  const z = np.ones([3, 2]);
  const { jaxpr } = ox.makeJaxpr((t) => {
    kept = t.reshape([6]);
    assert.deepEqual([kept.shape, kept.dtype], [[6], "float32"]);
    return kept;
  })(z);
  jaxpr.dispose();
  z.dispose();
  assert.match(errorMessage(() => kept.dtype).message, /^dtype: the array has been disposed/);
});

test("using inside a traced function is harmless; a throwing function leaves no trace", async () => {
  const x = np.array([1, 2, 3]);
  const { jaxpr } = ox.makeJaxpr((t) => {
    const a = t.add(1);
    const out = a.mul(a);
    a[Symbol.dispose](); // what `using a = …` does at block exit
    return out;
  })(x);
  assert.match(jaxpr.toString(), /c:f32\[3\] = mul b b/);
  jaxpr.dispose();
  assert.throws(
    () =>
      ox.makeJaxpr(() => {
        throw new Error("user bug");
      })(x),
    /user bug/,
  );
  // Tracing is over: eager operations run again.
  const y = x.add(1);
  assert.deepEqual(await y.jsAsync(), [2, 3, 4]);
  y.dispose();
  x.dispose();
});

test("makeJaxpr rejects non-array arguments and outputs", () => {
  const x = np.array([1]);
  assert.match(
    errorMessage(() => ox.makeJaxpr((t) => t)(5)).message,
    /^makeJaxpr: argument 0 is not an Array/,
  );
  assert.match(
    errorMessage(() => ox.makeJaxpr(() => 5)(x)).message,
    /^makeJaxpr: output 0 is not an Array/,
  );
  x.dispose();
});

test("primitives print with their parameters", () => {
  const x = np.array([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const { jaxpr } = ox.makeJaxpr((t) => {
    const s = t.sum(1, { keepdims: true });
    const tt = t.T;
    return [s, tt.astype("int32"), np.flip(t, 0), np.matmul(t, tt)];
  })(x);
  assert.equal(
    jaxpr.toString(),
    `{ lambda a:f32[2,3]. let
    b:f32[2] = reduce_sum[axes=(1,)] a
    c:f32[2,1] = reshape[new_sizes=(2, 1)] b
    d:f32[3,2] = transpose[permutation=(1, 0)] a
    e:i32[3,2] = convert_element_type[new_dtype=int32] d
    f:f32[2,3] = rev[dimensions=(0,)] a
    g:f32[2,2] = matmul a d
  in ( c, e, f, g ) }`,
  );
  jaxpr.dispose();
  x.dispose();
});
