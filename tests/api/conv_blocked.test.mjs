// Convolutions of two images on the compiled device against the cpu interpreter: eagerly and
// under `jit` with an elementwise epilogue, padded and unpadded, output widths with and without
// columns left over by the wasm emitter's blocks of 8 (src/backend/wasm/emit/rowblock.rs); at
// 37×37 large enough to be split across the worker pool where it has several threads. On wasm
// bit for bit (the same summation order, src/kernel/order.rs); on webgpu within float32
// tolerance (tiled products). Leak-checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, ON_WEBGPU, np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";

checkLeaksAroundEachTest();

/** Deterministic values in [-1, 1) of `shape` on `device`. */
function values(shape, device, seed) {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    data[i] = (s / 2147483648) * 2 - 1;
  }
  const flat = np.array(data, { device });
  const shaped = flat.reshape(shape);
  flat.dispose();
  return shaped;
}

const CONVS = {
  same: (x, w) => ox.lax.conv(x, w, [1, 1], "SAME"),
  valid: (x, w) => ox.lax.conv(x, w, [1, 1], "VALID"),
  padded: (x, w) =>
    ox.lax.convWithGeneralPadding(
      x,
      w,
      [1, 1],
      [
        [2, 1],
        [0, 1],
      ],
    ),
  transpose: (x, w) => ox.lax.convTranspose(x, w, [1, 1], "SAME"),
};
const reluOf = (conv) => (x, w) => ox.nn.relu(conv(x, w));

async function run(f, device, size, jitted) {
  const x = values([2, 8, size, size], device, 3);
  const w = values([8, 8, 3, 3], device, 4);
  const g = jitted ? ox.jit(f) : f;
  const y = g(x, w);
  const out = await y.data();
  for (const a of [x, w, y]) a.dispose();
  g.dispose?.();
  return out;
}

for (const [name, conv] of Object.entries(CONVS))
  for (const jitted of [false, true])
    test(`${name} convolutions${jitted ? " with relu under jit" : ""} match the interpreter`, async () => {
      const f = jitted ? reluOf(conv) : conv;
      for (const size of [16, 37]) {
        const want = await run(f, "cpu", size, jitted);
        const got = await run(f, COMPILED, size, jitted);
        assert.equal(got.length, want.length);
        const bad = [...got].findIndex((v, i) =>
          ON_WEBGPU
            ? !(Math.abs(v - want[i]) <= 1e-5 * (1 + Math.abs(want[i])))
            : !Object.is(v, want[i]),
        );
        assert.equal(bad, -1, `${name} ${size}×${size} [${bad}]: ${got[bad]} vs ${want[bad]}`);
      }
    });
