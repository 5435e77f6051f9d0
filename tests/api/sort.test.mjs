// Sorting at scale on the compiled device (wasm in Node, webgpu when the suite runs there):
// sort and argsort of 10⁴–2·10⁵ elements (every dtype the device has, NaN of both signs, ±0,
// ±infinity, many ties), along every axis, against the `cpu` device bit for bit and against a
// JS oracle of JAX's order (stable, NaN last, -0.0 equal to 0.0); under jit, grad (the
// cotangent is scattered back through the permutation) and vmap; topK; bad input as errors
// naming the function. Leak-checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, ON_WEBGPU, checkLeaksAroundEachTest, errorMessage, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const SPECIAL = [NaN, -NaN, 0, -0, Infinity, -Infinity, 3e38, -1e-40];
/** `n` values with few distinct ones (ties), specials every 13th element. */
const data = (n, seed = 1) =>
  Array.from({ length: n }, (_, i) =>
    i % 13 === 0
      ? SPECIAL[(i / 13 + seed) % SPECIAL.length]
      : Math.round(Math.sin((i + seed) * 12.9898) * 50) / 4,
  );
const DTYPES = ON_WEBGPU
  ? ["float32", "int32", "uint32", "bool"]
  : ["float32", "float64", "float16", "int32", "uint32", "bool"];
const cast = (dtype, v) =>
  dtype.startsWith("float")
    ? v
    : dtype === "bool"
      ? v > 0
      : Number.isFinite(v)
        ? dtype === "uint32"
          ? Math.abs(Math.trunc(v * 1e6)) % 4e9
          : Math.trunc(v * 1e6) % 2e9
        : 7;

/** The positions of `values` in JAX's order: ascending, NaN last, ties by position. */
function oracleOrder(values) {
  const key = (v) => (Number.isNaN(v) ? Infinity : v);
  return values
    .map((v, i) => i)
    .sort((a, b) => {
      const [x, y] = [values[a], values[b]];
      if (Number.isNaN(x) || Number.isNaN(y))
        return Number(Number.isNaN(x)) - Number(Number.isNaN(y));
      return key(x) - key(y);
    });
}

async function read(x) {
  const out = Array.from(await x.data());
  x.dispose();
  return out;
}

test("large sorts and argsorts equal the cpu device bit for bit, every dtype and axis", async () => {
  for (const dtype of DTYPES) {
    for (const [shape, axis] of [
      [[100_000], 0],
      [[40, 500], 1],
      [[40, 500], 0],
      [[3, 2000, 2], 1],
    ]) {
      const size = shape.reduce((a, b) => a * b);
      const values = data(size).map((v) => cast(dtype, v));
      const run = async (device) => {
        const x = np.array(values, { shape, dtype, device });
        const s = np.sort(x, axis);
        const p = np.argsort(x, axis);
        x.dispose();
        const bits = new Uint8Array((await s.data()).buffer.slice(0));
        s.dispose();
        return [Array.from(bits), await read(p)];
      };
      const [got, want] = [await run(COMPILED), await run("cpu")];
      const label = `${dtype} ${JSON.stringify(shape)} axis ${axis}`;
      assert.deepEqual(got[1], want[1], `argsort ${label}`);
      assert.ok(
        got[0].length === want[0].length && got[0].every((b, i) => b === want[0][i]),
        `sort ${label}: bits differ`,
      );
    }
  }
});

test("argsort of 200,000 float32 is JAX's stable order with NaN last and -0 = 0", async () => {
  const values = Array.from(new Float32Array(data(200_000, 5)));
  const x = np.array(values, { device: COMPILED });
  const order = await read(np.argsort(x));
  const sorted = await read(np.sort(x));
  x.dispose();
  const want = oracleOrder(values);
  assert.deepEqual(order, want);
  want.forEach((j, i) => {
    if (!Object.is(sorted[i], values[j])) assert.fail(`sorted[${i}] ${sorted[i]} vs ${values[j]}`);
  });
});

test("sort under jit, grad and vmap on the compiled device", async () => {
  const n = 5000;
  const values = Array.from(new Float32Array(data(n, 2).map((v) => (Number.isFinite(v) ? v : 1))));
  const weights = Array.from({ length: n }, (_, i) => ((i * 7) % 11) - 5);
  const x = np.array(values, { device: COMPILED });
  const w = np.array(weights, { device: COMPILED });
  const order = oracleOrder(values);
  // jit: a program with the sort among kernels (whole-program on wasm).
  const f = ox.jit((v) => np.sort(v.mul(2).add(1)).mul(3).add(np.argsort(v).astype("float32")));
  const jitted = await read(f(x));
  order.forEach((j, i) => {
    const want = Math.fround(Math.fround(Math.fround(values[j] * 2 + 1) * 3) + j);
    if (jitted[i] !== want && !(Math.abs(jitted[i] - want) <= 1e-6 * Math.abs(want)))
      assert.fail(`jit [${i}]: ${jitted[i]} vs ${want}`);
  });
  f.dispose();
  // grad of sum(sort(x) * w): w scattered back through the permutation.
  const loss = (v) => np.sum(np.sort(v).mul(w));
  const jitGrad = ox.jit(ox.grad(loss));
  const grads = [await read(ox.grad(loss)(x)), await read(jitGrad(x))];
  jitGrad.dispose();
  const want = new Array(n);
  order.forEach((j, i) => (want[j] = weights[i]));
  for (const g of grads) assert.deepEqual(g, want);
  // vmap over rows equals sorting along the last axis.
  const m = np.array(values, { shape: [10, 500], device: COMPILED });
  const batched = await read(ox.vmap((r) => np.sort(r))(m));
  const direct = await read(np.sort(m, 1));
  const columns = await read(ox.vmap((r) => np.argsort(r), 1)(m));
  const byColumn = np.argsort(m, 0);
  const columnsDirect = await read(byColumn.transpose());
  byColumn.dispose();
  assert.deepEqual(batched, direct);
  assert.deepEqual(columns, columnsDirect);
  ox.tree.dispose([x, w, m]);
});

test("topK of 100,000 takes the k largest, first positions first", async () => {
  const values = Array.from(
    new Float32Array(data(100_000, 3).map((v) => (Number.isNaN(v) ? 0 : v))),
  );
  const x = np.array(values, { device: COMPILED });
  const [v, i] = ox.lax.topK(x, 50);
  const [got, idx] = [await read(v), await read(i)];
  x.dispose();
  const want = oracleOrder(values.map((u) => -u)).slice(0, 50);
  assert.deepEqual(idx, want);
  assert.deepEqual(
    got,
    want.map((j) => values[j]),
  );
});

test("sort and argsort of bad input throw errors naming the function; empty input sorts", async () => {
  const s = np.array(3, { device: COMPILED });
  const m = np.zeros([2, 3], { device: COMPILED });
  assert.match(errorMessage(() => np.sort(s)).message, /^sort: .*at least 1 dimension/);
  assert.match(errorMessage(() => np.argsort(s)).message, /^argsort: .*at least 1 dimension/);
  assert.match(errorMessage(() => np.sort(m, 2)).message, /^sort: .*axis/);
  assert.match(errorMessage(() => np.argsort(m, -3)).message, /^argsort: .*axis/);
  for (const shape of [[0], [3, 0], [0, 4]]) {
    const e = np.zeros(shape, { device: COMPILED });
    for (const axis of [0, -1]) {
      const [a, b] = [np.sort(e, axis), np.argsort(e, axis)];
      assert.deepEqual([a.shape, b.shape, b.dtype], [shape, shape, "int32"]);
      assert.equal((await a.data()).length, 0);
      ox.tree.dispose([a, b]);
    }
    e.dispose();
  }
  ox.tree.dispose([s, m]);
});
