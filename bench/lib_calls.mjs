// Micro-benchmark of small eager library calls (the typed `libCall` path: reductions, shape
// functions, products, random draws, lax and linear algebra on tiny arrays), where the cost
// of crossing the JS↔Rust boundary is a large part of each call (the first two do no device
// work at all: they return a view of their input; the last five read an array's shape, dtype
// and ndim, the fifth of them with no call at all). Prints the process CPU time per call in µs
// (user + system, so other load on the machine counts less than in wall time): the median and
// the minimum of 9 samples of at least 100 ms each, per workload and device.
//
//   node bench/lib_calls.mjs                 # the package in pkg/
//   OXJAX_PKG=/path/to/pkg node bench/lib_calls.mjs   # another build, to compare
//   node bench/lib_calls.mjs roll            # only workloads whose name contains "roll"
import { cpuTime, importPackage } from "./cpu_time.mjs";

const ox = await importPackage("index.js");
const { numpy: np, lax, random, nn } = ox;
const filter = process.argv[2] ?? "";

const workloads = [
  ["roll by 0 [4] (no kernel)", (_x, _i, _k, v) => np.roll(v, 0, 0)],
  ["fftshift [1] (no kernel)", (_x, _i, _k, _v, one) => np.fft.fftshift(one)],
  ["sum axis 0 [8,8]", (x) => np.sum(x, 0)],
  ["nansum keepdims [8,8]", (x) => np.nansum(x, 1, { keepdims: true })],
  ["roll [8,8]", (x) => np.roll(x, [1, 2], [0, 1])],
  ["take [8,8]", (x, i) => np.take(x, i, 0)],
  ["tensordot [8,8]", (x) => np.tensordot(x, x, 1)],
  ["glu [8,8]", (x) => nn.glu(x, -1)],
  ["topK [8,8]", (x) => lax.topK(x, 2)],
  ["det [8,8]", (x) => np.linalg.det(x)],
  ["random.laplace [4]", (_x, _i, key) => random.laplace(key, [4])],
  // Identity and reshape-like calls with a metadata read, as the sweep does per call.
  ["reshape [8,8] + shape", (x) => withShape(np.reshape(x, [-1]))],
  ["expandDims [8,8] + shape", (x) => withShape(np.expandDims(x, 0))],
  ["positive [8,8] + shape", (x) => withShape(np.positive(x))],
  ["nn.identity [8,8] + shape", (x) => withShape(nn.identity(x))],
  ["shape, dtype, ndim (no call)", (x) => (withShape(x), [])],
];

/** `y`, after reading its shape, dtype and ndim. */
function withShape(y) {
  y.shape;
  y.dtype;
  y.ndim;
  return y;
}

const rows = [];
for (const device of ["wasm", "cpu"]) {
  ox.defaultDevice(device);
  const x = np.arange(64).astype(np.float32).reshape([8, 8]).add(np.eye(8).mul(100));
  const idx = np.array([0, 3, 5], { dtype: np.int32 });
  const key = random.key(0);
  const v = np.array([1, 2, 3, 4]);
  const one = np.array([5]);
  const live = ox.memoryStats().liveArrays;
  for (const [name, f] of workloads) {
    if (!name.includes(filter)) continue;
    const [us, min] = cpuTime(() => {
      const out = f(x, idx, key, v, one);
      for (const a of Array.isArray(out) ? out : [out]) a.dispose();
    }, 200);
    rows.push({ device, name, us, min });
    const cols = `${us.toFixed(2).padStart(8)} (min ${min.toFixed(2)})`;
    console.log(`${device.padEnd(5)} ${name.padEnd(28)} ${cols} µs/call`);
  }
  if (ox.memoryStats().liveArrays !== live) throw new Error("lib_calls: arrays leaked");
  x.dispose();
  idx.dispose();
  key.dispose();
  v.dispose();
  one.dispose();
}
console.log(`LIB_CALLS_JSON ${JSON.stringify(rows)}`);
