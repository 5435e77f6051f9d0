// Size limits: every array is checked against the limits of
// arrays (at most 2^31 − 1 elements, 4 GiB) where its shape is made and against its device's
// limit per buffer before anything is allocated, so no size wraps around, no kernel writes or
// reads outside its buffer, a huge request fails at once (no hang) with an Error naming the
// function, and the instance keeps working with its memory unchanged.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  np,
  ox,
  DEVICES,
  ON_WEBGPU,
  checkLeaksAroundEachTest,
  errorMessage,
  scoped,
  scopedAsync,
  SYNC,
} from "./helpers.mjs";

checkLeaksAroundEachTest();

const random = ox.random;
const nn = ox.nn;

/** Asserts that `fn` throws an Error matching `re`, quickly, and that a later call works. */
function assertLimitError(fn, re) {
  const started = Date.now();
  const err = errorMessage(fn);
  assert.ok(err instanceof Error, `not an Error: ${err}`);
  assert.match(err.message, re);
  assert.doesNotMatch(err.message, /internal error|panic|unreachable/);
  assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  scoped((k) => {
    const y = k(k(np.array([1, 2, 3], SYNC)).add(1));
    assert.deepEqual(Array.from(y.dataSync()), [2, 3, 4]);
  });
}

const LIMIT = /limit|larger than the \w+ device allows/;

test("outputs of 2^30 float32 elements and more are refused before any allocation", () =>
  scoped((k) => {
    const one = k(np.array(1));
    assertLimitError(() => np.broadcastTo(one, [2 ** 30]).add(1), /^broadcastTo: .*4 GiB/);
    const key = k(random.key(0));
    assertLimitError(() => random.uniform(key, [2 ** 31]), LIMIT);
    assertLimitError(() => random.split(key, 2 ** 31), LIMIT);
    const cls = k(np.array([1, 2], { dtype: "int32" }));
    assertLimitError(() => nn.oneHot(cls, 2 ** 32 + 1), LIMIT);
    assertLimitError(() => np.indices([2 ** 31]), LIMIT);
    assertLimitError(() => np.fft.fftfreq(2 ** 31), LIMIT);
  }));

test("element counts of 2^32 and more never wrap around", () =>
  scoped((k) => {
    assertLimitError(() => np.ones([65536, 65536]).sum(), /^ones: .*4294967296 elements/);
    const other = k(np.full([8], 42, SYNC));
    assertLimitError(() => np.full([65536, 65537], 7).slice(0), /^full: .*elements/);
    assert.deepEqual(Array.from(other.dataSync()), Array(8).fill(42));
    // A reshape whose sizes agree only modulo 2^32 is refused, not read out of bounds.
    const small = k(np.zeros([131073]));
    assertLimitError(() => small.reshape([65537, 65537]), /reshape/);
  }));

test("huge requests that used to hang fail at once", () =>
  scoped((k) => {
    const key = k(random.key(0));
    assertLimitError(() => random.uniform(key, [1e5, 1e5]), LIMIT);
    assertLimitError(() => random.split(key, 1e9), LIMIT);
    const cls = k(np.array([1, 2], { dtype: "int32" }));
    assertLimitError(() => nn.oneHot(cls, 1e9), LIMIT);
    assertLimitError(() => np.zeros([4294967295, 0]).sum(1), LIMIT);
    assertLimitError(() => np.arange(0, 1e12), LIMIT);
    assertLimitError(() => np.linspace(0, 1, 2 ** 32 - 1), LIMIT);
    assertLimitError(() => np.eye(65536, 65536), LIMIT);
  }));

test("the spacing functions' endpoint must be a boolean (an options object there is a mistake)", () =>
  scoped(() => {
    for (const [name, f] of [
      ["linspace", np.linspace],
      ["logspace", np.logspace],
      ["geomspace", np.geomspace],
    ]) {
      assert.throws(
        () => f(1, 2, 5, { endpoint: false }),
        (e) =>
          e instanceof TypeError && e.message === `${name}: endpoint must be a boolean, got object`,
      );
      assert.throws(() => f(1, 2, 5, 1), /endpoint must be a boolean, got 1/);
    }
  }));

test("failed huge allocations are clear errors and give their memory back", async () => {
  const before = ox.memoryStats().wasmMemoryBytes;
  for (let i = 0; i < 4; i++) {
    assertLimitError(() => np.zeros([1e5, 1e5]), /^zeros: .*10000000000 elements/);
    for (const device of DEVICES) {
      // Under 4 GiB (the limit of every array) but over the device's limit per buffer.
      assertLimitError(() => np.zeros([65535, 16383], { device }), /^zeros: .*device allows/);
    }
  }
  assert.ok(ox.memoryStats().wasmMemoryBytes - before < 16 << 20, "memory grew");
  // A large array still fits afterwards (filled on its device, without a host copy).
  await scopedAsync(async (k) => {
    const big = k(np.full([4096, 4096], 3));
    // Column sums: lavapipe (webgpu in the tests) stops any loop after 65535 iterations.
    const sums = await k(big.sum(0)).data();
    assert.ok(sums.length === 4096 && sums.every((s) => s === 3 * 4096));
  });
});

test("the devices report their limits", { skip: ON_WEBGPU && "limits of cpu and wasm" }, () => {
  const s = ox.memoryStats();
  assert.equal(s.wasmMemoryLimit, 2 ** 32);
  for (const device of DEVICES) assert.equal(s.devices[device].maxBufferBytes, 2 ** 31 - 16);
});
