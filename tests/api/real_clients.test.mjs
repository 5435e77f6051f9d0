// Real clients of upstream `@jax-js/jax` on oxjax's consuming entry (`oxjax/consuming`):
// `@jax-js/onnx` running the small ONNX models of scripts/gen_onnx_models.py, and
// `@jax-js/loaders` reading a safetensors file this test writes. Each client runs twice side by
// side: as installed (its `@jax-js/jax` is upstream 0.1.25, the oracle) and as a second module
// instance whose `@jax-js/jax` resolves to oxjax's consuming entry (tests/api/consuming_alias.mjs).
// Outputs and gradients agree within float32 tolerance (and with ONNX's reference evaluator);
// 100 eager and 100 jitted runs plus `model.dispose()` leave oxjax's live arrays at their
// baseline.
import { test } from "node:test";
import assert from "node:assert/strict";
import { register } from "node:module";
import { readFileSync } from "node:fs";

const consumingUrl = new URL("../../pkg/consuming/index.js", import.meta.url).href;
register("./consuming_alias.mjs", { parentURL: import.meta.url, data: { target: consumingUrl } });

const ox = await import(consumingUrl);
const up = await import("@jax-js/jax");
const UpOnnx = await import("@jax-js/onnx");
const OxOnnx = await import(`${import.meta.resolve("@jax-js/onnx")}?flavour=oxjax`);
const { safetensors } = await import("@jax-js/loaders");

const MODELS = ["gemm_relu_softmax", "matmul_add_softmax", "conv_relu_maxpool_gemm"];
const dataDir = new URL("../data/onnx/", import.meta.url);
const load = (name) => ({
  bytes: new Uint8Array(readFileSync(new URL(`${name}.onnx`, dataDir))),
  expected: JSON.parse(readFileSync(new URL(`${name}.expected.json`, dataDir), "utf8")),
});

/** The generator's input: element i is ((37·i) mod 23 − 11) / 8. */
function inputValues(shape) {
  const n = shape.reduce((a, b) => a * b, 1);
  return Float32Array.from({ length: n }, (_, i) => (((37 * i) % 23) - 11) / 8);
}

/** A deterministic cotangent for gradients: element i is 1 + (i mod 7) / 4. */
function weights(n) {
  return Float32Array.from({ length: n }, (_, i) => 1 + (i % 7) / 4);
}

/** Float32 agreement: |a − b| ≤ 1e-5 + 1e-5·|b| per element. */
function assertClose(got, want, label) {
  assert.equal(got.length, want.length, `${label}: length`);
  for (let i = 0; i < want.length; i++) {
    const tol = 1e-5 + 1e-5 * Math.abs(want[i]);
    assert.ok(Math.abs(got[i] - want[i]) <= tol, `${label}[${i}]: ${got[i]} vs ${want[i]}`);
  }
}

/** Runs `model.run` (or a transform of it) on the model's input in flavour `jax`. */
function runModel(jax, Onnx, name, how) {
  const { bytes, expected } = load(name);
  const [[inName, shape]] = Object.entries(expected.inputs);
  const model = new Onnx.ONNXModel(bytes);
  const input = () => jax.numpy.array(inputValues(shape), { shape });
  try {
    if (how === "eager") {
      const out = model.run({ [inName]: input() });
      for (const v of Object.values(out)) assert.ok(v instanceof jax.Array, "the flavour's arrays");
      return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v.dataSync()]]));
    }
    if (how === "jit") {
      const f = jax.jit(model.run);
      const out = f({ [inName]: input() });
      f.dispose();
      return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v.dataSync()]]));
    }
    // Gradient of Σ w·y over the input (w: `weights`), through the model's function.
    const [[outName, { values }]] = Object.entries(expected.outputs);
    const w = jax.numpy.array(weights(values.length), { shape: expected.outputs[outName].shape });
    const loss = (x) =>
      model
        .run({ [inName]: x })
        [outName].mul(w.ref)
        .sum();
    const gradFn = how === "grad" ? jax.grad(loss) : jax.jit(jax.grad(loss));
    const g = gradFn(input());
    gradFn.dispose?.();
    w.dispose();
    return { grad: [...g.dataSync()] };
  } finally {
    model.dispose();
  }
}

for (const name of MODELS) {
  test(`onnx ${name}: eager outputs equal upstream's and the ONNX reference`, () => {
    const want = runModel(up, UpOnnx, name, "eager");
    const got = runModel(ox, OxOnnx, name, "eager");
    const { expected } = load(name);
    for (const [k, { values }] of Object.entries(expected.outputs)) {
      assertClose(want[k], values, `${name} upstream vs reference`);
      assertClose(got[k], want[k], `${name} oxjax vs upstream`);
    }
  });

  test(`onnx ${name}: jitted outputs and gradients equal upstream's`, () => {
    for (const how of ["jit", "grad", "jit-grad"]) {
      const want = runModel(up, UpOnnx, name, how);
      const got = runModel(ox, OxOnnx, name, how);
      for (const k of Object.keys(want)) assertClose(got[k], want[k], `${name} ${how} ${k}`);
    }
  });

  test(`onnx ${name}: 100 eager and 100 jitted runs, then dispose, leak nothing`, () => {
    const { bytes, expected } = load(name);
    const [[inName, shape]] = Object.entries(expected.inputs);
    const baseline = ox.memoryStats().liveArrays;
    ox.checkLeaks.start();
    const model = new OxOnnx.ONNXModel(bytes);
    const jitted = ox.jit(model.run);
    const first = {};
    for (let i = 0; i < 100; i++) {
      for (const [label, run] of [
        ["eager", model.run],
        ["jit", jitted],
      ]) {
        const out = run({ [inName]: ox.numpy.array(inputValues(shape), { shape }) });
        for (const [k, v] of Object.entries(out)) {
          const values = [...v.dataSync()];
          if (i === 0) first[`${label}.${k}`] = values;
          else if (i === 99) assert.deepEqual(values, first[`${label}.${k}`], `${label} run 100`);
        }
      }
    }
    jitted.dispose();
    model.dispose();
    const report = ox.checkLeaks.stop();
    assert.equal(report.leaked, 0, report.summary);
    assert.equal(ox.memoryStats().liveArrays, baseline);
  });
}

test("onnx verbose output prints each operand's aval", () => {
  const { bytes, expected } = load("gemm_relu_softmax");
  const [[inName, shape]] = Object.entries(expected.inputs);
  const baseline = ox.memoryStats().liveArrays;
  const model = new OxOnnx.ONNXModel(bytes);
  const lines = [];
  const log = console.log;
  console.log = (...a) => lines.push(a.join(" "));
  try {
    const out = model.run(
      { [inName]: ox.numpy.array(inputValues(shape), { shape }) },
      { verbose: true },
    );
    for (const v of Object.values(out)) v.dispose();
  } finally {
    console.log = log;
    model.dispose();
  }
  const text = lines.join("\n");
  assert.match(
    text,
    /Gemm .*\n\s+x float32\[4,8\], w1 float32\[16,8\], b1 float32\[16\] -> h float32\[4,16\]/,
  );
  assert.doesNotMatch(text, /undefined/);
  assert.equal(ox.memoryStats().liveArrays, baseline);
});

/** A safetensors file of float32 tensors (8-byte header length, JSON header, data). */
function writeSafetensors(tensors) {
  const header = {};
  let offset = 0;
  for (const [k, { shape, data }] of Object.entries(tensors)) {
    header[k] = { dtype: "F32", shape, data_offsets: [offset, offset + data.byteLength] };
    offset += data.byteLength;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - ((8 + json.length) % 8)) % 8);
  const bytes = new Uint8Array(8 + json.length + offset);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
  bytes.set(new TextEncoder().encode(json), 8);
  let at = 8 + json.length;
  for (const { data } of Object.values(tensors)) {
    bytes.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at);
    at += data.byteLength;
  }
  return bytes;
}

/** A two-layer MLP written as upstream code is: every reuse takes `.ref`. */
function mlp(jax, params, x) {
  const np = jax.numpy;
  const [l0, l1] = params.layers;
  const h = np.maximum(np.matmul(x, l0.weight.ref.transpose()).add(l0.bias.ref), 0);
  return jax.nn.softmax(np.matmul(h, l1.weight.ref.transpose()).add(l1.bias.ref), -1);
}

test("loaders: safetensors weights drive an MLP as in upstream, and free completely", () => {
  const mk = (shape, k) =>
    Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) =>
      Math.fround(Math.sin(i * 0.7 + k) / 2),
    );
  const file = writeSafetensors({
    "layers.0.weight": { shape: [6, 4], data: mk([6, 4], 1) },
    "layers.0.bias": { shape: [6], data: mk([6], 2) },
    "layers.1.weight": { shape: [3, 6], data: mk([3, 6], 3) },
    "layers.1.bias": { shape: [3], data: mk([3], 4) },
  });
  const run = (jax) => {
    const { tensors } = safetensors.parse(file);
    const params = safetensors.toNested(
      Object.fromEntries(
        Object.entries(tensors).map(([k, t]) => [k, jax.numpy.array(t.data, { shape: t.shape })]),
      ),
    );
    const outs = [];
    const step = jax.jit((p, x) => mlp(jax, p, x));
    for (let i = 0; i < 100; i++) {
      const x = jax.numpy.array(inputValues([5, 4]), { shape: [5, 4] });
      const y = i % 2 ? step(jax.tree.ref(params), x) : mlp(jax, params, x);
      if (i < 2) outs.push([...y.dataSync()]);
      else y.dispose();
    }
    step.dispose();
    jax.tree.dispose(params);
    return outs;
  };
  const want = run(up);
  const baseline = ox.memoryStats().liveArrays;
  const got = run(ox);
  assert.equal(ox.memoryStats().liveArrays, baseline);
  assertClose(got[0], want[0], "eager");
  assertClose(got[1], want[1], "jit");
  assertClose(got[1], got[0], "jit vs eager");
});
