// Placement of the constants an operation builds itself (iota and what follows from it in
// eye/tril/argmax/oneHot/cumsum): they go to the device of the arrays the call was given, not
// to the default device. With the default set to one device and the data committed to the
// other, grad, vmap and jit never touch the default device (its dispatch and buffer counters
// stay put) and their results stay with the data. The values are checked against the same
// computation with the data on the default device (the cpu interpreter is the oracle of wasm).
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPILED, np, ON_WEBGPU, ox, checkLeaksAroundEachTest } from "./helpers.mjs";

checkLeaksAroundEachTest();

const functions = {
  tril: (x) => np.tril(x).mul(x).sum(),
  triu: (x) => np.triu(x, 1).mul(x).sum(),
  oneHot: (x) => ox.nn.oneHot(np.argmax(x, 1), 3).mul(x).sum(),
  cumsum: (x) => np.cumsum(x, 0).mul(x).sum(),
  diagonal: (x) => np.diagonal(x).mul(np.diagonal(x)).sum(),
};

const X = [
  [0.5, -1, 2],
  [3, 0.25, -2],
  [1, 4, -0.5],
];

/** Runs `body` with the default device set to `device`, restoring it afterwards. */
function withDefault(device, body) {
  const prev = ox.defaultDevice();
  ox.defaultDevice(device);
  try {
    return body();
  } finally {
    ox.defaultDevice(prev);
  }
}

function counters(device) {
  const d = ox.memoryStats().devices[device];
  return { dispatches: d.dispatches, liveBuffers: d.liveBuffers };
}

// In Node wasm and cpu; on webgpu, webgpu and cpu (a webgpu default must never need a
// synchronous read of webgpu when the data is on cpu).
const [A, B] = ON_WEBGPU ? ["webgpu", "cpu"] : ["wasm", "cpu"];
for (const [home, data] of [
  [A, B],
  [B, A],
]) {
  test(`default ${home}, data committed to ${data}: grad, vmap and jit stay on ${data}`, async () => {
    for (const [name, f] of Object.entries(functions)) {
      // The oracle: everything on the data's device, placed by default.
      const [g0, v0] = withDefault(data, () => {
        const x = np.array(X);
        const x2 = x.mul(2);
        const xs = np.stack([x, x2]);
        const r = [ox.grad(f)(x), ox.vmap(f)(xs)];
        for (const t of [x, x2, xs]) t.dispose();
        return r;
      });
      const [expectG, expectV] = [await g0.jsAsync(), await v0.jsAsync()];
      g0.dispose();
      v0.dispose();
      const host = withDefault(home, () => np.array(X));
      const x = await ox.devicePut(host, data); // a copy, committed to `data`
      const twice = x.mul(2);
      const xs = np.stack([x, twice]);
      const jf = ox.jit(ox.grad(f));
      const results = withDefault(home, () => {
        const before = counters(home);
        const r = { grad: ox.grad(f)(x), vmap: ox.vmap(f)(xs), jit: jf(x) };
        assert.deepEqual(counters(home), before, `${name}: touched the default device ${home}`);
        return r;
      });
      for (const [how, r] of Object.entries(results)) {
        assert.equal(r.device, data, `${name} ${how}: result left ${data}`);
      }
      assert.deepEqual(await results.grad.jsAsync(), expectG, `${name}: grad`);
      assert.deepEqual(await results.jit.jsAsync(), expectG, `${name}: jit(grad)`);
      assert.deepEqual(await results.vmap.jsAsync(), expectV, `${name}: vmap`);
      jf.dispose();
      for (const t of [host, x, twice, xs, ...Object.values(results)]) t.dispose();
    }
  });
}

test("eager library calls on committed data build their constants on the data's device", async () => {
  const host = np.array(X);
  const x = await ox.devicePut(host, "cpu");
  withDefault(COMPILED, () => {
    const before = counters(COMPILED);
    const am = np.argmax(x, 1);
    const outs = [np.tril(x), np.argmax(x, 0), np.cumsum(x, 1), ox.nn.oneHot(am, 3), am];
    assert.deepEqual(counters(COMPILED), before);
    for (const o of outs) {
      assert.equal(o.device, "cpu");
      o.dispose();
    }
  });
  // Outside such a call, operand-less creation still goes to the default device.
  const e = withDefault("cpu", () => np.eye(2));
  assert.equal(e.device, "cpu");
  for (const t of [host, x, e]) t.dispose();
});
