// float16 on webgpu: where the adapter has WebGPU's "shader-f16" feature (lavapipe in
// Deno) float16 arrays live on webgpu and every operation matches the cpu interpreter — exact
// operations and conversions bit for bit, transcendentals, sums and products (float32 on the
// GPU, then one rounding) within one float16 ulp — eagerly, under jit (a fused function reading
// 20 float16 arrays with the forced limit of 8 storage buffers) and grad. Where the adapter
// lacks it (SwiftShader in Chromium) a float16 array on webgpu is a clear error naming the
// devices that have float16. Runs when the suite runs on webgpu; Node has no WebGPU.
import { test } from "node:test";
import assert from "node:assert/strict";
import { np, ox, ON_WEBGPU, checkLeaksAroundEachTest, errorMessage } from "./helpers.mjs";

checkLeaksAroundEachTest();

const skip = !ON_WEBGPU && "webgpu only (Deno and Chromium run the suite there)";
const adapter = ON_WEBGPU ? await globalThis.navigator.gpu.requestAdapter() : null;
const HAS_F16 = adapter?.features.has("shader-f16") ?? false;

const n = 257; // odd: float16 buffers whose byte count is not a multiple of 4
const xs = Array.from({ length: n }, (_, i) => Math.sin(i * 1.3) * 4);
const ys = Array.from({ length: n }, (_, i) => Math.cos(i * 0.7) + 1.5);
// float16 ties and their neighbours as float32, overflow, subnormals, specials.
const ties = [1 + 2 ** -11, 1 + 3 * 2 ** -11, 2049, 2051, 65519, 65520, 2 ** -25, 3 * 2 ** -25];
const special = [...ties, ...ties.map((t) => -t), 0, -0, Infinity, -Infinity, NaN, 1e-9, 7.5];

/** `got` equals `want` bit for bit (NaN matches NaN), or within `ulps` float16 ulps. */
function near(got, want, what, ulps = 0) {
  assert.equal(got.length, want.length, what);
  for (let i = 0; i < want.length; i++) {
    const [g, w] = [got[i], want[i]];
    if (Number.isNaN(w)) assert.ok(Number.isNaN(g), `${what}[${i}]: ${g} is not NaN`);
    else if (ulps === 0 || !Number.isFinite(w))
      assert.ok(Object.is(g, w), `${what}[${i}]: ${g} !== ${w}`);
    else {
      const tol = ulps * 2 ** -10 * Math.max(Math.abs(w), 2 ** -14);
      assert.ok(Math.abs(g - w) <= tol, `${what}[${i}]: ${g} vs ${w}`);
    }
  }
}

// [name, float16 ulps, function of (k, x, y, s)]: float16 arrays x, y of n and the special
// values s (float32); `k` marks an intermediate for disposal.
const ops = [
  ["add, sub, mul, div", 0, (k, x, y) => k(k(x.add(y)).mul(x)).sub(k(y.div(k(x.add(5)))))],
  [
    "max, min, abs, neg, floor",
    0,
    (k, x, y) => np.maximum(k(np.floor(x)), k(np.minimum(y, k(np.abs(k(x.neg())))))),
  ],
  ["sqrt, compare, where", 0, (k, x, y) => np.where(k(np.greater(x, y)), k(np.sqrt(y)), x)],
  ["float32 → float16 at ties", 0, (k, x, y, s) => s.astype(np.float16)],
  [
    "float16 → float32, int32",
    0,
    (k, x) => k(x.astype(np.float32)).add(k(k(x.astype(np.int32)).astype(np.float32))),
  ],
  ["exp, log, tanh", 1, (k, x, y) => k(k(np.exp(x)).add(k(np.log(y)))).add(k(np.tanh(x)))],
  [
    "sum, max, mean",
    1,
    (k, x, y) => np.stack([k(np.sum(x)), k(np.max(y)), k(np.mean(k(x.mul(y))))]),
  ],
  ["sum over an axis", 1, (k, x) => np.sum(k(k(x.slice([0, 256])).reshape([16, 16])), 1)],
  [
    "matmul (float32 inside)",
    1,
    (k, x, y) =>
      np.matmul(k(k(x.slice([0, 48])).reshape([6, 8])), k(k(y.slice([0, 40])).reshape([8, 5]))),
  ],
];

async function run(device, f) {
  const x = np.array(xs, { dtype: np.float16, device });
  const y = np.array(ys, { dtype: np.float16, device });
  const s = np.array(special, { dtype: np.float32, device });
  const temps = [];
  const out = f((t) => (temps.push(t), t), x, y, s);
  const data = Array.from(await out.data());
  const dtype = out.dtype;
  for (const t of [x, y, s, out, ...temps]) t.dispose();
  return { data, dtype };
}

test(
  "float16 on webgpu matches the cpu interpreter",
  { skip: skip || (!HAS_F16 && "the adapter lacks shader-f16") },
  async () => {
    for (const [name, ulps, f] of ops) {
      const [got, want] = [await run("webgpu", f), await run("cpu", f)];
      assert.equal(got.dtype, want.dtype, name);
      near(got.data, want.data, name, ulps);
    }
  },
);

test(
  "float16 on webgpu under jit (20 inputs, 8 storage buffers) and grad",
  { skip: skip || (!HAS_F16 && "the adapter lacks shader-f16") },
  async () => {
    const make = (device) =>
      Array.from({ length: 20 }, (_, j) =>
        np.array(xs.slice(j, j + 64), { dtype: np.float16, device }),
      );
    const f = ox.jit((...as) => as.reduce((acc, a, j) => acc.add(a.mul(j % 3 === 0 ? 0.5 : 1.5))));
    const g = ox.grad((x) => np.sum(np.sin(x).mul(x)));
    const results = {};
    for (const device of ["webgpu", "cpu"]) {
      const as = make(device);
      const y = f(...as);
      const dy = g(as[0]);
      results[device] = {
        y: Array.from(await y.data()),
        dy: Array.from(await dy.data()),
        dtypes: [y.dtype, dy.dtype],
      };
      for (const t of [...as, y, dy]) t.dispose();
    }
    f.dispose();
    assert.deepEqual(results.webgpu.dtypes, ["float16", "float16"]);
    near(results.webgpu.y, results.cpu.y, "jit sum of 20", 0);
    near(results.webgpu.dy, results.cpu.dy, "grad", 1);
  },
);

test(
  "float16 on webgpu without shader-f16 is a clear error naming cpu and wasm",
  { skip: skip || (HAS_F16 && "the adapter has shader-f16") },
  () => {
    const e = errorMessage(() => np.array([1, 2], { dtype: np.float16, device: "webgpu" }));
    assert.ok(e instanceof Error);
    assert.match(e.message, /^array: float16 arrays are not supported on the webgpu device/);
    assert.match(e.message, /shader-f16/);
    assert.match(e.message, /"cpu" and "wasm" devices support float16/);
    const x = np.array([1, 2], { dtype: np.float32, device: "webgpu" });
    assert.match(errorMessage(() => x.astype(np.float16)).message, /float16.*shader-f16/);
    x.dispose();
  },
);
