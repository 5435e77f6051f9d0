// Smaller parts of the drop-in surface: Array iteration and conversion, tree helpers,
// devicePut/blockUntilReady (with jax-js's identity returns), lax.stopGradient, setDebug,
// numpy constants. Leak-checked after every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, np, ON_WEBGPU, ox, SYNC, checkLeaksAroundEachTest } from "./helpers.mjs";

checkLeaksAroundEachTest();

test("Array iterates over axis 0 and converts 0-d arrays to numbers", async () => {
  const x = np.array([
    [1, 2],
    [3, 4],
  ]);
  const [a, b] = x;
  assert.deepEqual(await a.jsAsync(), [1, 2]);
  assert.deepEqual(await b.jsAsync(), [3, 4]);
  // Conversion to a number is a synchronous read: SYNC puts s on cpu on webgpu.
  const s = np.array(3, SYNC);
  assert.equal(+s, 3);
  assert.equal(s * 2, 6);
  assert.equal(`${x}`, "Array:float32[2,2]");
  assert.throws(() => +x, /only 0-d arrays convert to a number/);
  assert.throws(() => [...s], /iteration over a 0-d array/);
  for (const y of [x, a, b, s]) y.dispose();
});

test("blockUntilReady and devicePut keep ownership and return the same objects", async () => {
  const x = np.array([1, 2, 3], { device: "cpu" });
  assert.equal(await x.blockUntilReady(), x);
  const t = { x, n: [x] };
  assert.equal(await ox.blockUntilReady(t), t);
  const same = await ox.devicePut({ x });
  assert.equal(same.x, x);
  const moved = await ox.devicePut({ x, k: 2 }, "wasm");
  assert.notEqual(moved.x, x);
  assert.equal(moved.x.device, "wasm");
  assert.deepEqual(await moved.x.jsAsync(), [1, 2, 3]);
  assert.equal(moved.k.device, "wasm");
  assert.equal(x.refCount, 1);
  ox.tree.dispose([x, moved]);
});

test("tree.ref, data, consumeData and NodeType", async () => {
  const a = np.array([1, 2]);
  const t = { a, b: [a, 5] };
  const r = ox.tree.ref(t);
  assert.equal(a.refCount, 3);
  assert.equal(r.a, a);
  assert.notEqual(r, t);
  const d = await ox.tree.data(t);
  assert.deepEqual(Array.from(d.b[0]), [1, 2]);
  assert.equal(d.b[1], 5);
  // Disposes each distinct leaf once.
  await ox.tree.consumeData(t);
  assert.equal(a.refCount, 2);
  ox.tree.dispose(r);
  assert.equal(a.refCount, 1);
  a.dispose();
  const def = ox.tree.structure({ x: [1, null] });
  assert.equal(def.nodeType, ox.tree.NodeType.Object);
  assert.equal(def.children[0].nodeType, ox.tree.NodeType.Array);
});

test("lax.stopGradient returns a new reference to a concrete input and stops gradients", async () => {
  const x = np.array([1, 2]);
  const same = ox.lax.stopGradient(x);
  assert.notEqual(same, x);
  same.dispose();
  assert.deepEqual(await x.jsAsync(), [1, 2], "disposing the result leaves the input alive");
  const f = (y) => {
    const s = ox.lax.stopGradient(y);
    const p = y.mul(s);
    try {
      return np.sum(p);
    } finally {
      s.dispose();
      p.dispose();
    }
  };
  const g = ox.grad(f)(x);
  assert.deepEqual(await g.jsAsync(), [1, 2]);
  g.dispose();
  x.dispose();
});

test("setDebug(3) logs each lowering pass of a scan body, as of a jitted program", async () => {
  const logged = [];
  const log = console.log;
  const device = COMPILED;
  const init = np.zeros([13], { device });
  const xs = np.ones([4, 13], { device });
  // A body of this module only (a fresh structure is planned, and logged, once).
  const step = (c, x) => {
    const n = c.mul(1.375).add(x);
    return [n, n.mul(-2.5)];
  };
  let outs = [];
  try {
    console.log = (...args) => logged.push(args.join(" "));
    ox.setDebug(3);
    outs = ox.lax.scan(step, init, xs);
    await outs[0].blockUntilReady();
  } finally {
    ox.setDebug(0);
    console.log = log;
  }
  const body = logged.filter((l) => l.includes(`lowered a scan body for ${device}`));
  assert.equal(body.length, 1, logged.join("\n"));
  const passes = [...body[0].matchAll(/^after (\w+):/gm)].map((m) => m[1]);
  assert.deepEqual(passes, ["fuse", "lifetimes"]);
  assert.deepEqual(Array.from(await outs[0].data()).slice(0, 2), [6.865234375, 6.865234375]);
  for (const a of [init, xs, ...outs]) a.dispose();
});

test("setDebug checks its level; numpy constants", () => {
  ox.setDebug(0);
  assert.throws(() => ox.setDebug(-1), /setDebug: the level/);
  assert.equal(np.pi, Math.PI);
  assert.equal(np.e, Math.E);
  assert.equal(np.inf, Infinity);
  assert.ok(Number.isNaN(np.nan));
  assert.equal(np.DType, ox.DType);
});
