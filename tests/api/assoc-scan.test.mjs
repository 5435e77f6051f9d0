// lax.associativeScan eagerly: results against plain JS prefix loops (forward, reverse as JAX
// defines it, other axes, pytrees), N <= 1 returning the inputs themselves, fn returning one of
// its operands, ⌈log₂N⌉ calls of fn, and errors naming the function. Leak-checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ON_WEBGPU, ox, checkLeaksAroundEachTest, errorMessage } from "./helpers.mjs";

checkLeaksAroundEachTest();
const { lax } = ox;

// Non-commutative: 2x2 matrix products, fn(a, b) = b @ a (a earlier), as the Kalman compose.
const mats = Array.from({ length: 11 }, (_, i) => [
  [1 + 0.1 * i, 0.2],
  [-0.3, 0.9 - 0.05 * i],
]);
const mul2 = (a, b) =>
  a.map((r, i) => r.map((_, j) => r.reduce((s, _, k) => s + a[i][k] * b[k][j], 0)));

test("forward and reverse match a JS loop (JAX's reverse: flip, scan, flip back)", async () => {
  for (const n of [2, 3, 8, 11]) {
    // float64 (exact to 1e-12) in Node; float32 on webgpu, to 1e-4 (values below 5, 11 products).
    const xs = np.array(mats.slice(0, n), { dtype: ON_WEBGPU ? "float32" : "float64" });
    const tol = ON_WEBGPU ? 1e-4 : 1e-12;
    const calls = [];
    const fn = (a, b) => {
      calls.push(a.shape[0]);
      return np.matmul(b, a);
    };
    const fwd = lax.associativeScan(fn, xs);
    assert.equal(calls.length, Math.ceil(Math.log2(n)), `rounds for n = ${n}`);
    let acc = null;
    const want = mats.slice(0, n).map((m) => (acc = acc ? mul2(m, acc) : m));
    (await fwd.jsAsync()).flat(2).forEach((v, i) => assert.ok(Math.abs(v - want.flat(2)[i]) < tol));
    const rev = lax.associativeScan((a, b) => np.matmul(b, a), xs, { reverse: true });
    acc = null;
    const wantRev = mats
      .slice(0, n)
      .reverse()
      .map((m) => (acc = acc ? mul2(m, acc) : m))
      .reverse();
    (await rev.jsAsync())
      .flat(2)
      .forEach((v, i) => assert.ok(Math.abs(v - wantRev.flat(2)[i]) < tol));
    ox.tree.dispose([xs, fwd, rev]);
  }
});

test("pytrees, another axis, and fn returning one of its operands", async () => {
  const a = np.array([
    [1, 2, 3, 4],
    [5, 6, 7, 8],
  ]);
  const b = np.array([
    [1, 1, 1, 1],
    [2, 2, 2, 2],
  ]);
  const out = lax.associativeScan(
    (x, y) => ({ s: x.s.add(y.s), last: y.last }),
    { s: a, last: b },
    { axis: 1 },
  );
  assert.deepEqual(await out.s.jsAsync(), [
    [1, 3, 6, 10],
    [5, 11, 18, 26],
  ]);
  assert.deepEqual(await out.last.jsAsync(), await b.jsAsync());
  const neg = lax.associativeScan(
    (x, y) => ({ s: x.s.add(y.s), last: y.last }),
    { s: a, last: b },
    { axis: -1 },
  );
  assert.deepEqual(await neg.s.jsAsync(), await out.s.jsAsync());
  ox.tree.dispose([a, b, out, neg]);
});

test("N <= 1 returns the inputs themselves along axis 0", async () => {
  const one = { x: np.array([[1, 2]]), y: [np.array([3])] };
  const fn = () => assert.fail("fn must not be called");
  assert.equal(lax.associativeScan(fn, one), one);
  const col = np.array([[1], [2]]);
  const other = lax.associativeScan(fn, col, { axis: 1 });
  assert.notEqual(other, col); // a fresh array when the axis is not 0
  assert.deepEqual(await other.jsAsync(), [[1], [2]]);
  col.dispose();
  ox.tree.dispose([one, other]);
});

test("errors name associativeScan and leak nothing", () => {
  const x = np.array([1, 2, 3]);
  const y = np.array([1, 2]);
  let e = errorMessage(() => lax.associativeScan((a, b) => a.add(b), [x, y]));
  assert.match(e.message, /^associativeScan: every leaf needs the same length along axis 0/);
  e = errorMessage(() => lax.associativeScan((a, b) => a.add(b), x, { axis: 1 }));
  assert.match(e.message, /^associativeScan: axis 1 is out of range/);
  e = errorMessage(() => lax.associativeScan((a, b) => [a, b], x));
  assert.match(e.message, /^associativeScan: fn must return the structure of elems/);
  e = errorMessage(() => lax.associativeScan((a) => a.sum(), x));
  assert.match(e.message, /^associativeScan: fn must keep the leading \(batch\) axis of 2/);
  e = errorMessage(() => lax.associativeScan((a, b) => a.add(b), x, { bogus: true }));
  assert.match(e.message, /^associativeScan: unknown option\(s\) bogus/);
  ox.tree.dispose([x, y]);
});
