// The one list of API tests that do not run when the suite runs on webgpu (helpers.mjs'
// `webgpuSkip(key)`), each with its reason. Every entry is a gap in the API suite on webgpu:
// keep it short, and remove an entry as soon as its tests can run.
export const WEBGPU_SKIPS = {
  float64:
    "float64 oracles (finite differences, float64 inputs) live on the cpu device, which Node " +
    "already runs; webgpu has no float64",
  node: "checks Node's own behaviour, where WebGPU is missing",
  syncMove:
    "a default-placed webgpu array cannot follow a committed cpu operand: the move is a " +
    "synchronous read, which WebGPU does not have",
};

/** Files of tests/api/ that do not run on webgpu at all, with the reason. */
export const WEBGPU_SKIP_FILES = {
  "exports.test.mjs": "device-independent: reads FEATURES.md and pkg/ from disk",
  "pack.test.mjs": "device-independent: npm pack and install of pkg/",
  "types.test.mjs": "device-independent: tsc over the type declarations",
  "memory.test.mjs": "the wasm device's own buffer pool and memory growth",
  "jit_code_size.test.mjs": "the size of the wasm device's compiled kernels",
  "assoc_wasm_calls.test.mjs": "the wasm device's module calls (one per jitted program)",
  "fuzz.test.mjs": "device-independent argument checks, run on cpu and wasm with sync reads",
  "cjs.test.mjs": "device-independent: require() and file paths of pkg/ in fresh Node processes",
  "consuming.test.mjs":
    "ownership rules of the consuming entry, compared with upstream @jax-js/jax (cpu/wasm in Node)",
  "real_clients.test.mjs":
    "Node module hooks alias @jax-js/jax for @jax-js/onnx; the clients run beside upstream in Node",
  "reclaim.test.mjs":
    "device-independent: drives the garbage collector with Node's V8 gc() (node:v8, node:vm)",
  "wasm_threads.test.mjs": "the wasm device's worker pool (Node worker_threads)",
  "read_span.test.mjs": "reads of the wasm device's arrays out of its data memory",
  "wasm_threads_faults.test.mjs": "the wasm device's worker pool (Node worker_threads)",
  "upstream_diff.test.mjs":
    "upstream @jax-js/jax is the oracle, run beside oxjax on its wasm device in Node",
  "kalman-parallel.test.mjs":
    "float64 and cpu/wasm oracles; webgpu runs the same workload in tests/deno/kalman-parallel*.test.ts",
};
