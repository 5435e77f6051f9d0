// Work that must stay on the compiled device (wasm in Node, webgpu when the suite runs there),
// checked with memoryStats()' host-transfer counters rather than timings: sort/argsort, the
// routines (cholesky, LU, triangular solve), conv, cumulative sums, gather and random numbers
// read nothing back to the host and move nothing between devices until the test reads a
// result. Sort and argsort are also compared with the `cpu` interpreter (the cross-backend
// oracle), bit for bit, over every non-float16 dtype, special values, ties, every axis and a
// long row. A leak check follows every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, checkLeaksAroundEachTest, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const transfers = (device) => {
  const d = ox.memoryStats().devices[device];
  return { readbacks: d.readbacks, readbackBytes: d.readbackBytes, moves: d.moves };
};

/** Reads, then disposes, the arrays of `xs`. */
async function take(xs) {
  const out = [];
  for (const x of xs) {
    out.push(Array.from(await x.data()));
    x.dispose();
  }
  return out;
}

// 3 × 5 × 7 values with ties, NaN, ±0 and ±infinity in every row of every axis.
const SPECIAL = [NaN, 0, -0, Infinity, -Infinity, 2, 2, -1.5, NaN, 3e38, -1e-40];
const values = Array.from({ length: 105 }, (_, i) =>
  i % 4 === 0 ? SPECIAL[(i / 4) % SPECIAL.length] : Math.round(Math.sin(i * 1.7) * 6) / 2,
);
// Integers clamped to their dtype's range (array() refuses values out of range).
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const dtypes = {
  float32: values,
  int32: values.map((v, i) =>
    Number.isFinite(v) ? clamp(Math.trunc(v * 3), -(2 ** 31), 2 ** 31 - 1) : -2e9 - i,
  ),
  uint32: values.map((v, i) =>
    Number.isFinite(v) ? clamp(Math.abs(Math.trunc(v * 3)), 0, 2 ** 32 - 1) : 4e9 + i,
  ),
  bool: values.map((v) => v > 0),
};

test("sort and argsort match the cpu interpreter: dtypes, NaN/±0/±inf, ties, every axis", async () => {
  for (const [dtype, data] of Object.entries(dtypes)) {
    for (const axis of [0, 1, 2, -1]) {
      const run = async (device) => {
        const x = np.array(data, { shape: [3, 5, 7], dtype, device });
        const out = await take([np.sort(x, axis), np.argsort(x, axis)]);
        x.dispose();
        return out;
      };
      const [sorted, order] = await run(COMPILED);
      const [want, wantOrder] = await run("cpu");
      const label = `${dtype} axis ${axis} on ${COMPILED}`;
      assert.deepEqual(sorted, want, `sort ${label}`);
      assert.deepEqual(order, wantOrder, `argsort ${label} (stable)`);
    }
  }
});

test("sort of a long row and of a batch of rows matches the cpu interpreter", async () => {
  const n = 600;
  const data = Array.from({ length: n }, (_, i) => (i % 97 === 0 ? NaN : Math.cos(i * 0.37) * 9));
  for (const shape of [[n], [6, n / 6]]) {
    const run = async (device) => {
      const x = np.array(data, { shape, device });
      const out = await take([np.sort(x), np.argsort(x)]);
      x.dispose();
      return out;
    };
    assert.deepEqual(await run(COMPILED), await run("cpu"), `[${shape}] on ${COMPILED}`);
  }
});

test("sort, routines, conv, cumsum, gather and random stay on the device until a read", async () => {
  const d = { device: COMPILED };
  const spd = np.array([4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2], { shape: [3, 3], ...d });
  const b = np.array([1, 2, 3, 4, 5, 6], { shape: [3, 2], ...d });
  const img = np.array(
    Array.from({ length: 2 * 3 * 6 * 6 }, (_, i) => Math.sin(i)),
    { shape: [2, 3, 6, 6], ...d },
  );
  const ker = np.array(
    Array.from({ length: 4 * 3 * 3 * 3 }, (_, i) => Math.cos(i)),
    { shape: [4, 3, 3, 3], ...d },
  );
  const idx = np.array([2, 0, 1, 1], { dtype: "int32", ...d });
  const key = ox.random.key(7, d);
  const before = transfers(COMPILED);
  const outs = [];
  const keep = (x) => (outs.push(x), x);
  const l = keep(np.linalg.cholesky(spd));
  keep(ox.lax.linalg.triangularSolve(l, b, { leftSide: true, lower: true }));
  ox.lax.linalg.lu(spd).forEach(keep);
  keep(ox.lax.convGeneralDilated(img, ker, [1, 1], "SAME"));
  keep(np.sort(spd, 0));
  keep(np.argsort(spd, 1));
  keep(np.cumsum(spd, 1));
  keep(np.take(spd, idx, 0));
  keep(ox.random.normal(key, [4, 4]));
  assert.deepEqual(transfers(COMPILED), before, `no readback or move on ${COMPILED}`);
  for (const x of outs) assert.equal(x.device, COMPILED);
  const first = outs[0];
  const got = await first.data();
  const after = transfers(COMPILED);
  assert.equal(after.readbacks, before.readbacks + 1, "one read, one readback");
  assert.equal(after.readbackBytes, before.readbackBytes + got.byteLength);
  assert.equal(after.moves, before.moves);
  for (const x of [spd, b, img, ker, idx, key, ...outs]) x.dispose();
});

test("an operand moved between devices through the host is counted as a move", async () => {
  const previous = ox.defaultDevice();
  ox.defaultDevice("wasm");
  const placed = np.array([1, 2, 3]);
  ox.defaultDevice(previous);
  const committed = np.array([4, 5, 6], { device: "cpu" });
  const before = ox.memoryStats().devices.wasm;
  const sum = placed.add(committed);
  const after = ox.memoryStats().devices.wasm;
  assert.equal(sum.device, "cpu");
  assert.equal(after.moves, before.moves + 1);
  assert.equal(after.moveBytes, before.moveBytes + 12);
  assert.equal(after.readbacks, before.readbacks + 1);
  assert.deepEqual(Array.from(await sum.data()), [5, 7, 9]);
  for (const x of [placed, committed, sum]) x.dispose();
});

test("argsort of an array committed to the compiled device builds its iota there", async () => {
  const previous = ox.defaultDevice();
  ox.defaultDevice("cpu");
  try {
    const x = np.array([3, 1, 2, 1], { device: COMPILED });
    const before = ox.memoryStats().devices.cpu.moves;
    const order = np.argsort(x);
    assert.equal(ox.memoryStats().devices.cpu.moves, before, "no iota moved from cpu");
    assert.equal(order.device, COMPILED);
    assert.deepEqual(Array.from(await order.data()), [1, 3, 2, 0]);
    x.dispose();
    order.dispose();
  } finally {
    ox.defaultDevice(previous);
  }
});
