// Random draws as few kernels: threefry2x32 is one elementwise primitive
// (`threefry2x32[mode=…]`), so a jitted random.bits, uniform or split is one kernel and randint
// two (the [2, 2] of split(key, 2), then both bit streams and the modulus arithmetic), counted
// as the cpu device's dispatches (one per kernel step). Jitted draws equal the eager ones bit
// for bit on every device (their values against JAX: tests/data/jax_expected.json and
// jax_more_expected.json); under vmap each key draws what it draws alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEVICES, np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";

checkLeaksAroundEachTest();

const { random } = ox;
const draws = [
  { name: "bits", kernels: 1, f: (k) => random.bits(k, [1000]) },
  { name: "uniform", kernels: 1, f: (k) => random.uniform(k, [1000]) },
  { name: "split", kernels: 1, f: (k) => random.split(k, 5) },
  { name: "randint", kernels: 2, f: (k) => random.randint(k, [1000], -3, 1000) },
];

for (const { name, kernels, f } of draws) {
  test(`jitted random.${name} is ${kernels} kernel(s) and equals the eager draw`, async () => {
    const dispatches = (d) => ox.memoryStats().devices[d].dispatches;
    for (const device of ["cpu", ...DEVICES.filter((d) => d !== "cpu")]) {
      const key = random.key(42, { device });
      const jf = ox.jit(f);
      jf(key).dispose(); // trace, lower, compile
      const before = dispatches(device);
      const y = jf(key);
      const n = dispatches(device) - before;
      // The cpu device dispatches each kernel step; others may run a program as one call.
      if (device === "cpu") assert.equal(n, kernels, `${device} dispatches`);
      else assert.ok(n >= 1 && n <= kernels, `${device} dispatches: ${n}`);
      const eager = f(key);
      assert.deepEqual(Array.from(await y.data()), Array.from(await eager.data()), device);
      for (const t of [key, jf, y, eager]) t.dispose();
    }
  });
}

test("jaxprs show one threefry2x32 per draw, in the mode of the words used", () => {
  const key = random.key(0);
  const text = (f) => {
    const { jaxpr } = ox.makeJaxpr(f)(key);
    try {
      return jaxpr.toString();
    } finally {
      jaxpr.dispose();
    }
  };
  const count = (s, mode) => s.split(`threefry2x32[mode=${mode}]`).length - 1;
  const bits = text((k) => random.bits(k, [3]));
  assert.equal(count(bits, "xor"), 1, bits);
  assert.match(bits, /u32\[3\] = threefry2x32\[mode=xor\] \w+ \w+ 0 \w+\n/);
  const split = text((k) => random.split(k, 2));
  assert.deepEqual([count(split, "0"), count(split, "1"), count(split, "xor")], [1, 1, 0], split);
  key.dispose();
});

test("vmap of random.bits over keys draws what each key draws alone", async () => {
  for (const device of DEVICES) {
    const key = random.key(3, { device });
    const keys = random.split(key, 4);
    const batched = ox.vmap((k) => random.bits(k, [2, 3]))(keys);
    assert.deepEqual(batched.shape, [4, 2, 3]);
    const rows = np.unstack(keys);
    const alone = rows.map((k) => random.bits(k, [2, 3]));
    const want = await Promise.all(alone.map((a) => a.jsAsync()));
    assert.deepEqual(await batched.jsAsync(), want, device);
    ox.tree.dispose([key, keys, batched, rows, alone]);
  }
});

test("a compiled scan drawing from its carried key equals the cpu host loop", async () => {
  // carry: key; step: (next, sub) = split(key); y = bits(sub, [5]); carry next.
  const body = (key) => {
    const keys = random.split(key, 2);
    const [next, sub] = np.unstack(keys);
    return [next, random.bits(sub, [5])];
  };
  const run = async (device, opts) => {
    const key = random.key(11, { device });
    const [last, ys] = ox.lax.scan(body, key, null, { length: 6, ...opts });
    const out = [await last.jsAsync(), await ys.jsAsync()];
    ox.tree.dispose([key, last, ys]);
    return out;
  };
  const want = await run("cpu", {});
  for (const device of DEVICES.filter((d) => d !== "cpu")) {
    assert.deepEqual(await run(device, { acceptPath: "fused" }), want, device);
  }
});
