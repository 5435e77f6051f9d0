// Epilogue fusion under jit: elementwise operations on a reduction's result run in the
// reduction's kernel, so a jitted mean (sum, then ÷ n) or log Σ exp is one dispatch per call
// on cpu and wasm. Results equal the eager ones bit for bit (same operations, same order) and
// float64 JavaScript within float32 rounding.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEVICES, np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";
import { scoped } from "../shared/grad_fns.mjs";

checkLeaksAroundEachTest();

const [N, M] = [6, 37];
const xs = Array.from({ length: N * M }, (_, i) => Math.sin(i * 0.37) * 2);
const rows = () => Array.from({ length: N }, (_, r) => xs.slice(r * M, (r + 1) * M));

const cases = [
  {
    name: "mean",
    f: (x) => np.mean(x, 1),
    want: () => rows().map((r) => r.reduce((a, b) => a + b, 0) / M),
  },
  {
    name: "log Σ exp",
    f: (x) => scoped((k) => np.log(k(np.sum(k(np.exp(x)), 1)))),
    want: () => rows().map((r) => Math.log(r.reduce((a, b) => a + Math.exp(b), 0))),
  },
  {
    name: "sqrt of the mean square",
    f: (x) => scoped((k) => np.sqrt(k(k(np.mean(k(x.mul(x)), 1)).add(1e-5)))),
    want: () => rows().map((r) => Math.sqrt(r.reduce((a, b) => a + b * b, 0) / M + 1e-5)),
  },
];

for (const device of DEVICES) {
  for (const { name, f, want } of cases) {
    test(`jitted ${name} is one kernel on ${device}`, async () => {
      const x = np.array(xs, { shape: [N, M], device });
      const jf = ox.jit(f);
      jf(x).dispose(); // trace, lower, compile
      const before = ox.memoryStats().devices[device].dispatches;
      const y = jf(x);
      assert.equal(ox.memoryStats().devices[device].dispatches - before, 1, "dispatches");
      const eager = f(x);
      const got = Array.from(await y.data());
      assert.deepEqual(got, Array.from(await eager.data()), "jit vs eager");
      want().forEach((w, i) =>
        assert.ok(Math.abs(got[i] - w) <= 1e-5 * (1 + Math.abs(w)), `${got[i]} vs ${w}`),
      );
      for (const t of [x, jf, y, eager]) t.dispose();
    });
  }
}
