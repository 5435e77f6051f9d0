// The first vertical slice through the built package in Node: creation, add/mul with
// broadcasting on cpu and wasm, readback, ownership (non-consuming ops, ref counts, dispose,
// Symbol.dispose) and clear errors. A leak check runs after every test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  COMPILED,
  DEVICES,
  item,
  np,
  ON_WEBGPU,
  ox,
  SYNC,
  checkLeaksAroundEachTest,
  errorMessage,
  f32Broadcast,
  webgpuSkip,
} from "./helpers.mjs";

checkLeaksAroundEachTest();

const cases = [
  { a: [1, 2, 3], b: [10, 20, 30] },
  {
    a: [
      [1, 2, 3],
      [4, 5, 6],
    ],
    b: [0.1, -2.5, 1e-3],
  },
  { a: [[1], [2]], b: [[0.25, 0.5, 3]] },
  { a: [[[1.5, -2]], [[3, 4]]], b: [[7], [8], [9]] },
  {
    a: 3.25,
    b: [
      [1, 2],
      [3, 4],
    ],
  },
];

for (const device of DEVICES) {
  describe(`add and mul on ${device}`, () => {
    for (const { a, b } of cases) {
      test(`${JSON.stringify(a)} with ${JSON.stringify(b)}`, async () => {
        const x = np.array(a, { device });
        const y = np.array(b, { device });
        const sum = x.add(y);
        const prod = np.multiply(x, y);
        assert.deepEqual(
          await sum.jsAsync(),
          f32Broadcast(a, b, (p, q) => p + q),
        );
        assert.deepEqual(
          await prod.jsAsync(),
          f32Broadcast(a, b, (p, q) => p * q),
        );
        assert.equal(sum.device, device);
        for (const t of [x, y, sum, prod]) t.dispose();
      });
    }
  });
}

// wasm rounds exactly as the cpu interpreter; a GPU may contract x*y+x into one fma, so webgpu
// is held to 2 float32 ulps of the largest value (|x*y+x| < 2e3, ulp 1.2e-4).
test(`${COMPILED} agrees with the cpu interpreter${ON_WEBGPU ? "" : " bit for bit"}`, async () => {
  const values = Array.from({ length: 257 }, (_, i) => Math.sin(i) * 1e3);
  const other = Array.from({ length: 257 }, (_, i) => Math.cos(i * 0.7));
  const results = [];
  for (const device of ["cpu", COMPILED]) {
    const x = np.array(values, { device });
    const y = np.array(other, { device });
    const p = x.mul(y);
    const z = p.add(x);
    results.push(await z.data());
    for (const t of [x, y, p, z]) t.dispose();
  }
  if (ON_WEBGPU) results[1].forEach((v, i) => assert.ok(Math.abs(v - results[0][i]) <= 2.5e-4));
  else assert.deepEqual(results[1], results[0]);
});

test("operations never consume their inputs", async () => {
  const x = np.array([1, 2, 3]);
  const outs = Array.from({ length: 5 }, () => x.add(x));
  assert.equal(x.refCount, 1);
  assert.deepEqual(await x.jsAsync(), [1, 2, 3]);
  for (const o of outs) {
    assert.deepEqual(await o.jsAsync(), [2, 4, 6]);
    o.dispose();
  }
  x.dispose();
});

test("ref, dispose and Symbol.dispose follow jax-js's ownership rules", () => {
  const x = np.array([1, 2]);
  assert.equal(x.ref, x);
  assert.equal(x.refCount, 2);
  x.dispose();
  assert.equal(x.refCount, 1);
  x.dispose();
  assert.equal(x.refCount, 0);
  const err = errorMessage(() => x.dispose());
  assert.ok(err instanceof ReferenceError);
  assert.match(err.message, /^dispose: the array has been disposed/);
  assert.match(errorMessage(() => x.add(1)).message, /^add: the array has been disposed/);
  assert.match(errorMessage(() => x.dataSync()).message, /^dataSync: .*disposed/);
  x[Symbol.dispose](); // never throws
  const y = np.array([3]);
  y[Symbol.dispose]();
  assert.equal(y.refCount, 0);
});

test("scalars are weakly typed and adopt the partner's dtype", async () => {
  const s = np.array(2);
  assert.equal(s.weakType, true);
  assert.deepEqual(s.shape, []);
  const i = np.array([1, 2, 3], { dtype: np.int32 });
  const h = i.add(0.5);
  const j = h.mul(s);
  assert.equal(j.dtype, "int32");
  assert.deepEqual(await j.jsAsync(), [2, 4, 6]);
  const b = np.array([true, false]);
  assert.equal(b.dtype, "bool");
  assert.deepEqual(await b.jsAsync(), [true, false]);
  const f = b.add(1.5); // a bool array meets a number: float32, as in JAX
  assert.equal(f.dtype, "float32");
  assert.deepEqual(await f.jsAsync(), [2.5, 1.5]);
  for (const t of [s, i, h, j, b, f]) t.dispose();
});

test("JS numbers meeting bool arrays promote as in JAX; tril/triu/diag keep bool", async () => {
  // JAX: jnp.tril(b) and jnp.diag(b) are bool; b + 1, jnp.maximum(b, 0) and
  // jnp.where(c, b, 0) are int32 (a Python int is a weak int); b + 1.5 is float32.
  const b = np.array([
    [true, false, true],
    [true, true, false],
    [false, true, true],
  ]);
  const row = b.slice(0);
  const cases = [
    [
      np.tril(b),
      "bool",
      [
        [true, false, false],
        [true, true, false],
        [false, true, true],
      ],
    ],
    [
      np.triu(b, 1),
      "bool",
      [
        [false, false, true],
        [false, false, false],
        [false, false, false],
      ],
    ],
    [
      np.diag(row),
      "bool",
      [
        [true, 0, 0],
        [0, false, 0],
        [0, 0, true],
      ].map((r) => r.map(Boolean)),
    ],
    [
      b.add(1),
      "int32",
      [
        [2, 1, 2],
        [2, 2, 1],
        [1, 2, 2],
      ],
    ],
    [
      np.maximum(b, 0),
      "int32",
      [
        [1, 0, 1],
        [1, 1, 0],
        [0, 1, 1],
      ],
    ],
    [
      np.where(b, b, 0),
      "int32",
      [
        [1, 0, 1],
        [1, 1, 0],
        [0, 1, 1],
      ],
    ],
    [
      b.add(0.5),
      "float32",
      [
        [1.5, 0.5, 1.5],
        [1.5, 1.5, 0.5],
        [0.5, 1.5, 1.5],
      ],
    ],
  ];
  for (const [got, dtype, values] of cases) {
    assert.equal(got.dtype, dtype);
    assert.deepEqual(await got.jsAsync(), values);
    got.dispose();
  }
  // An int array keeps its dtype with any JS number (jax-js's rule).
  const i = np.array([1, 2], { dtype: np.int32 });
  const m = np.maximum(i, 1.5);
  assert.equal(m.dtype, "int32");
  for (const t of [b, row, i, m]) t.dispose();
});

test("readback: data, dataSync, js, item, consumeData, typed arrays in", async () => {
  const x = np.array(new Float32Array([1.5, 2.5]));
  assert.ok((await x.data()) instanceof Float32Array);
  assert.deepEqual(Array.from(await x.data()), [1.5, 2.5]);
  const i = np.array(new Int32Array([7]));
  assert.equal(i.dtype, "int32");
  assert.equal(await item(i), 7);
  assert.match(errorMessage(() => x.item()).message, /^item: the array has 2 elements/);
  const d = np.array(new Float64Array([0.1, 0.2]), SYNC); // float64: on cpu where webgpu is default
  assert.deepEqual(Array.from(await d.consumeData()), [0.1, 0.2]);
  assert.equal(d.refCount, 0);
  assert.equal(String(x), "Array:float32[2]");
  const same = np.array(x);
  assert.notEqual(same, x);
  same.dispose();
  assert.equal(x.refCount, 1, "np.array(x) is a new reference to x's data");
  x.dispose();
  i.dispose();
});

for (const device of DEVICES) {
  test(`typed arrays in on ${device}: views at an offset, copied at the call`, async () => {
    // Float32Array/Int32Array/Uint32Array views that start inside their buffer, at sizes below
    // and above the host copy of small uploads; changing the source afterwards changes nothing.
    for (const n of [1, 3, 1000, 70000]) {
      const f = Float32Array.from({ length: n + 5 }, (_, k) => 0.1 * k - 7);
      const i = Int32Array.from({ length: n + 5 }, (_, k) => k * 7919 - 2 ** 30);
      const u = Uint32Array.from({ length: n + 5 }, (_, k) => (k * 2654435761) >>> 0);
      for (const [src, dtype] of [
        [f, "float32"],
        [i, "int32"],
        [u, "uint32"],
      ]) {
        const view = src.subarray(3, 3 + n);
        const want = view.slice();
        const x = np.array(view, { device, shape: [n] });
        src.fill(0);
        assert.equal(x.dtype, dtype);
        const got = await x.data();
        assert.ok(got instanceof want.constructor, `${dtype} reads as its typed array`);
        assert.deepEqual(got, want, `${dtype}, ${n} elements`);
        x.dispose();
      }
    }
  });
}

test("bad input gives errors that name the function", () => {
  const x = np.array([1, 2]);
  const y = np.array([1, 2, 3]);
  assert.match(
    errorMessage(() => x.add(y)).message,
    /^add: shapes \[2\] and \[3\] cannot be broadcast/,
  );
  assert.match(errorMessage(() => np.array([[1, 2], [3]])).message, /^array: ragged nested arrays/);
  assert.match(
    errorMessage(() => np.array([1], { dtype: "complex64" })).message,
    /^array: unknown dtype/,
  );
  assert.match(
    errorMessage(() => np.array([1], { device: "tpu" })).message,
    /^array: unknown device/,
  );
  assert.match(
    errorMessage(() => np.array([1], { device: "webgl" })).message,
    /^array: the webgl device is not supported/,
  );
  assert.match(
    errorMessage(() => np.array([1], { colour: 1 })).message,
    /^array: unknown option\(s\) colour/,
  );
  assert.match(
    errorMessage(() => np.array([1, 2, 3], { shape: [2] })).message,
    /^array: 3 values do not fill shape/,
  );
  assert.match(errorMessage(() => np.array(["a"])).message, /^array: expected numbers or booleans/);
  assert.match(
    errorMessage(() => x.add("1")).message,
    /^add: expected an Array, number or boolean/,
  );
  const c = np.array([1], { device: "cpu" });
  const w = np.array([1, 2], { device: "wasm" });
  assert.match(
    errorMessage(() => w.add(c)).message,
    /^add: operands are committed to different devices \(wasm and cpu\)/,
  );
  for (const t of [x, y, c, w]) t.dispose();
});

test(
  "an array placed by default follows a committed operand (as in JAX)",
  { skip: webgpuSkip("syncMove") },
  async () => {
    const x = np.array([1, 2]);
    const c = np.array([1], { device: "cpu" });
    const moved = x.add(c);
    assert.equal(moved.device, "cpu");
    assert.deepEqual(await moved.jsAsync(), [2, 3]);
    for (const t of [x, c, moved]) t.dispose();
  },
);

test("a Rust panic becomes an Error, and oxjax keeps working", async () => {
  const { call, wasm } = await import("../../pkg/bridge.js");
  const err = errorMessage(() => call(() => wasm.debugPanic("deliberate test panic")));
  assert.ok(err instanceof Error);
  assert.match(
    err.message,
    /^oxjax internal error \(a Rust panic, please report it\): [^]*deliberate test panic/,
  );
  const x = np.array([1]);
  assert.deepEqual(await x.add(1).consumeData(), new Float32Array([2]));
  x.dispose();
});

test("a panic while the registry, handles and trace stack are borrowed leaves them usable", async () => {
  const { call, wasm } = await import("../../pkg/bridge.js");
  for (let round = 0; round < 3; round++) {
    const err = errorMessage(() => call(() => wasm.debugPanicHoldingState("held-state panic")));
    assert.match(err.message, /^oxjax internal error \(a Rust panic[^]*held-state panic/);
    // Every piece of state the panic held works again: devices, handles, tracing, jit.
    const x = np.array([1, 2, 3]);
    const twice = x.mul(2);
    const y = np.cumsum(twice);
    assert.deepEqual(await y.jsAsync(), [2, 6, 12]);
    const g = ox.grad((v) => v.mul(v).sum())(x);
    assert.deepEqual(await g.jsAsync(), [2, 4, 6]);
    const f = ox.jit((v) => v.add(1));
    const j = f(x);
    assert.deepEqual(await j.jsAsync(), [2, 3, 4]);
    const { jaxpr } = ox.makeJaxpr((v) => v.neg())(x);
    assert.match(jaxpr.toString(), /neg/);
    jaxpr.dispose();
    const c = await ox.devicePut(x, "cpu");
    assert.equal(c.device, "cpu");
    f.dispose();
    for (const t of [x, twice, y, g, j, c]) t.dispose();
  }
});

test(
  "init() in Node resolves without WebGPU and never throws",
  { skip: webgpuSkip("node") },
  async () => {
    assert.deepEqual(await ox.init(), ["cpu", "wasm"]);
    assert.deepEqual(await ox.init("webgpu"), []);
    assert.equal(ox.defaultDevice(), "wasm");
    assert.match(
      errorMessage(() => ox.defaultDevice("webgpu")).message,
      /^defaultDevice: the webgpu device is not initialized/,
    );
    assert.match(
      errorMessage(() => np.array([1], { device: "webgpu" })).message,
      /^array: the webgpu device is not initialized/,
    );
    assert.deepEqual(ox.devices, ["cpu", "wasm", "webgpu", "webgl"]);
  },
);

test("Array.slice errors: out of range is a RangeError, advanced indexing is named", async () => {
  const x = np.array([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const err = errorMessage(() => x.slice(2));
  assert.ok(err instanceof RangeError);
  assert.match(err.message, /^slice: index 2 is out of bounds for axis 0 with size 2/);
  assert.match(errorMessage(() => x.slice(0, 0, 0)).message, /^slice: too many indices \(3\)/);
  const i = np.array([0.5]);
  assert.match(
    errorMessage(() => x.slice(i)).message,
    /^slice: indices must be integers, got float32/,
  );
  // A slice is a view: disposing it leaves the source intact.
  const row = x.slice(1);
  row.dispose();
  assert.deepEqual(await x.jsAsync(), [
    [1, 2, 3],
    [4, 5, 6],
  ]);
  for (const t of [x, i]) t.dispose();
});
