// A user app bundled by Vite: imports the package by name (aliased to pkg/ in the config), and
// runs an ONNX model with `@jax-js/onnx`, whose `@jax-js/jax` the config aliases to
// oxjax's consuming entry.
import { numpy as np } from "oxjax";
import { numpy as jnp, memoryStats } from "@jax-js/jax";
import { ONNXModel } from "@jax-js/onnx";

const x = np.array([1, 2, 3]);
const y = x.mul(x);
const out = document.getElementById("result");
out.textContent = JSON.stringify(Array.from(await y.data()));
out.dataset.device = y.device;
x.dispose();
y.dispose();

// The model and input of tests/api/real_clients.test.mjs (scripts/gen_onnx_models.py).
const bytes = await fetch("../../tests/data/onnx/gemm_relu_softmax.onnx").then((r) =>
  r.arrayBuffer(),
);
const model = new ONNXModel(new Uint8Array(bytes));
const input = Float32Array.from({ length: 32 }, (_, i) => (((37 * i) % 23) - 11) / 8);
const { y: probs } = model.run({ x: jnp.array(input, { shape: [4, 8] }) });
const values = Array.from(await probs.data()); // data() consumes probs
model.dispose();
const onnx = document.getElementById("onnx");
onnx.textContent = JSON.stringify({ values, liveArrays: memoryStats().liveArrays });
