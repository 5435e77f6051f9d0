#!/usr/bin/env python3
"""Generates tests/data/float16_expected.json: NumPy's float16 results (storage as IEEE binary16,
compute in float32, each result rounded to float16), the oracle of tests/api/float16.test.mjs.

Run by developers (`pip install numpy==2.1.3 && python3 scripts/gen_float16_expected.py`); the
JSON is committed. Values are JSON numbers (every float16 is exact in a double), or "nan",
"inf", "-inf"; "-0" marks a negative zero.
"""
import json
import math
from pathlib import Path

import numpy as np

from expected_json import enc

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "float16_expected.json"
rng = np.random.default_rng(20261122)
f16 = np.float16



# Rounding edges of the conversion from float64 (NumPy's npy_double_to_half: one rounding).
tiny = 2.0 ** -24
edges = [
    0.0, -0.0, 1.0, -2.5, 0.1, 1 / 3, 65504.0, 65519.99, 65520.0, -65520.0, 1e5, -1e9,
    1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 2049.0, 2051.0, 4097.0,  # ties to even
    tiny, tiny / 2, tiny * 0.5000001, tiny * 1.5, tiny * 2.5, 2.0 ** -14, 2.0 ** -14 - tiny / 2,
    6.1e-5, 3e-8, -3e-8, 1e-9, math.inf, -math.inf, math.nan, 123.456, -7.77,
]
# Float32 inputs (cast float32 → float16 rounds the float32 value once).
edges32 = np.array(edges, dtype=np.float32)

x = (rng.standard_normal(24) * 3).astype(f16).reshape(4, 6)
y = (rng.standard_normal(24) * 3).astype(f16).reshape(4, 6)
pos = (rng.random(24) * 10 + 0.01).astype(f16).reshape(4, 6)
w32 = rng.standard_normal(6).astype(np.float32)
big = np.array([60000, 30000, 40000, -65504, 1000, 0.5], dtype=f16)

unary = {}
with np.errstate(all="ignore"):
    for name, f, arg in [
        ("exp", np.exp, x), ("log", np.log, pos), ("sqrt", np.sqrt, pos), ("sin", np.sin, x),
        ("cos", np.cos, x), ("tanh", np.tanh, x), ("negative", np.negative, x),
        ("abs", np.abs, x), ("floor", np.floor, x), ("ceil", np.ceil, x),
        ("reciprocal", np.reciprocal, pos),
    ]:
        unary[name] = {"x": enc(arg), "out": enc(f(arg))}
    binary = {}
    for name, f in [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
                    ("divide", np.divide), ("maximum", np.maximum), ("minimum", np.minimum)]:
        binary[name] = enc(f(x, y))
    overflow = enc(big + big)

data = {
    "edges": {"values": enc(np.array(edges)), "f16": enc(np.array(edges).astype(f16)),
              "f32": enc(edges32), "f32_to_f16": enc(edges32.astype(f16))},
    "x": enc(x), "y": enc(y), "unary": unary, "binary": binary,
    "big": enc(big), "big_add": overflow,
    # float16 + float32 → float32 (each float16 value is exact in float32).
    "w32": enc(w32), "x_plus_w32": enc(x + w32),
    # A JS number (weak) keeps float16: x * 0.3 rounds 0.3 to float16 first, as JAX does.
    "x_times_weak": enc(x * f16(0.3)),
    "reductions": {
        "sum": enc(x.sum()), "sum0": enc(x.sum(axis=0)), "sum1": enc(x.sum(axis=1)),
        "max1": enc(x.max(axis=1)), "min0": enc(x.min(axis=0)), "prod1": enc(x.prod(axis=1)),
        "mean1": enc(x.mean(axis=1)), "big_sum": enc(big.sum()),
    },
    "casts": {
        "to_f32": enc(x.astype(np.float32)), "to_i32": enc(x.astype(np.int32)),
        "to_bool": enc(x.astype(np.bool_)), "to_f64": enc(x.astype(np.float64)),
        "ints": enc(np.array([0, 1, -3, 2049, 65504, 65519, 65520, 100000, -2147483647],
                             dtype=np.int32)),
        "ints_to_f16": enc(np.array([0, 1, -3, 2049, 65504, 65519, 65520, 100000, -2147483647],
                                    dtype=np.int32).astype(f16)),
    },
}
OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
print(f"wrote {OUT}")
