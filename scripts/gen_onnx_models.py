#!/usr/bin/env python3
"""Generates the small ONNX models of tests/api/onnx_client.test.mjs into tests/data/onnx/:
the models that test oxjax's consuming entry (`oxjax/consuming`) with the real client
`@jax-js/onnx`, and, for each, the outputs of ONNX's own reference evaluator on the test's
input (`<name>.expected.json`, an oracle independent of both jax-js and oxjax).

Run by developers (`pip install onnx numpy && python3 scripts/gen_onnx_models.py`); the files
are committed. Weights are seeded NumPy draws stored as float32 initializers. The test input of
every model is `input_values(shape)` below, which the test rebuilds.
"""
import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "onnx"
OPSET = 17


def input_values(shape):
    """Element i of the flattened input: ((37·i) mod 23 − 11) / 8, exact in float32."""
    n = int(np.prod(shape))
    return (((37 * np.arange(n)) % 23 - 11) / 8).astype(np.float32).reshape(shape)


def weight(rng, name, shape, scale=0.5):
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)


def model(name, nodes, inputs, outputs, inits):
    graph = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def gemm_relu_softmax(rng):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 5])
    nodes = [
        helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], transB=1),
        helper.make_node("Relu", ["h"], ["r"]),
        helper.make_node("Gemm", ["r", "w2", "b2"], ["z"], alpha=0.5, beta=2.0),
        helper.make_node("Softmax", ["z"], ["y"], axis=-1),
    ]
    inits = [
        weight(rng, "w1", [16, 8]),
        weight(rng, "b1", [16]),
        weight(rng, "w2", [16, 5]),
        weight(rng, "b2", [5]),
    ]
    return model("gemm_relu_softmax", nodes, [x], [y], inits), {"x": [4, 8]}


def matmul_add_softmax(rng):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 6])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"]),
        helper.make_node("Add", ["m", "b"], ["a"]),
        helper.make_node("Softmax", ["a"], ["y"], axis=1),
    ]
    inits = [weight(rng, "w", [6, 4]), weight(rng, "b", [4])]
    return model("matmul_add_softmax", nodes, [x], [y], inits), {"x": [2, 3, 6]}


def conv_relu_maxpool_gemm(rng):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 10])
    nodes = [
        helper.make_node("Conv", ["x", "k", "kb"], ["c"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "w", "b"], ["y"]),
    ]
    inits = [
        weight(rng, "k", [4, 3, 3, 3]),
        weight(rng, "kb", [4]),
        weight(rng, "w", [64, 10], scale=0.2),
        weight(rng, "b", [10]),
    ]
    return model("conv_relu_maxpool_gemm", nodes, [x], [y], inits), {"x": [2, 3, 8, 8]}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261127)
    for build in (gemm_relu_softmax, matmul_add_softmax, conv_relu_maxpool_gemm):
        m, shapes = build(rng)
        name = m.graph.name
        (OUT / f"{name}.onnx").write_bytes(m.SerializeToString())
        feeds = {k: input_values(s) for k, s in shapes.items()}
        outs = ReferenceEvaluator(m).run(None, feeds)
        expected = {
            "inputs": shapes,
            "outputs": {
                o.name: {"shape": list(v.shape), "values": [float(t) for t in v.ravel()]}
                for o, v in zip(m.graph.output, outs)
            },
        }
        (OUT / f"{name}.expected.json").write_text(json.dumps(expected) + "\n")
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
