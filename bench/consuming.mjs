// Micro-benchmark of the consuming entry's cost (`oxjax/consuming`, upstream's ownership
// model) over the main entry's, per tiny eager operation: the same work in each style
// (`y = x.add(1)` then free y; `np.multiply(x.ref, x)`; a chain of three ops), on `wasm` and
// `cpu`. Prints the process CPU time per iteration in µs (median and minimum of 9 samples of
// at least 100 ms each) for each entry, and the difference.
//
//   node bench/consuming.mjs                           # the package in pkg/
//   OXJAX_PKG=/path/to/pkg node bench/consuming.mjs    # another build, to compare
import { cpuTime, importPackage } from "./cpu_time.mjs";

const ox = await importPackage("index.js");
const oc = await importPackage("consuming/index.js");

/** Each workload in the main entry's style and in the consuming entry's, same work. */
const workloads = [
  ["x.add(1) [4]", (np, x) => np.add(x, 1).dispose(), (np, x) => np.add(x.ref, 1).dispose()],
  [
    "multiply(x, x) [4]",
    (np, x) => np.multiply(x, x).dispose(),
    (np, x) => np.multiply(x.ref, x.ref).dispose(),
  ],
  [
    "sin(x·2 + 1) [4]",
    (np, x) => {
      const a = x.mul(2);
      const b = a.add(1);
      const c = np.sin(b);
      a.dispose();
      b.dispose();
      c.dispose();
    },
    (np, x) => np.sin(x.ref.mul(2).add(1)).dispose(),
  ],
];

const rows = [];
for (const device of ["wasm", "cpu"]) {
  ox.defaultDevice(device);
  const x = ox.numpy.array([1, 2, 3, 4]);
  const xc = oc.numpy.array([1, 2, 3, 4]);
  const live = ox.memoryStats().liveArrays;
  for (const [name, main, consuming] of workloads) {
    const [m, mMin] = cpuTime(() => main(ox.numpy, x), 500);
    const [c, cMin] = cpuTime(() => consuming(oc.numpy, xc), 500);
    rows.push({ device, name, main: m, consuming: c, extra: c - m });
    console.log(
      `${device.padEnd(5)} ${name.padEnd(20)} main ${m.toFixed(2).padStart(6)} (min ${mMin.toFixed(2)})` +
        `  consuming ${c.toFixed(2).padStart(6)} (min ${cMin.toFixed(2)})  +${(c - m).toFixed(2)} µs`,
    );
  }
  if (ox.memoryStats().liveArrays !== live) throw new Error("consuming bench: arrays leaked");
  x.dispose();
  xc.dispose();
}
console.log(`CONSUMING_JSON ${JSON.stringify(rows)}`);
