#!/usr/bin/env python3
"""Generates tests/data/float16_rounding_expected.json, the oracle of
tests/api/float16_rounding.test.mjs: float64 → float16 conversions and float16 sums whose exact
value lies just off a float16 tie, where rounding through float32 first (two roundings) gives
a different float16 than NumPy's one rounding.

Run by developers (`pip install numpy==2.1.3`, then
`python3 scripts/gen_float16_rounding_expected.py`); the JSON is committed. Values are JSON
numbers (float64 inputs are written with full precision; every float16 is exact in a double),
or "nan", "inf", "-inf"; "-0" marks a negative zero.
"""
import json
import math
from pathlib import Path

import numpy as np

from expected_json import enc

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "float16_rounding_expected.json"
f16 = np.float16
TINY = 2.0 ** -24  # the smallest float16 subnormal



# float64 values next to float16 ties, moved by much less than a float32 ulp.
wide = [
    1 + 2.0 ** -11 + 2.0 ** -30,  # → 1 + 2^-10 (through float32: 1 + 2^-11, a tie → 1)
    1 + 2.0 ** -11 - 2.0 ** -30,  # → 1
    1 + 3 * 2.0 ** -11 - 2.0 ** -30,  # → 1 + 2^-10
    -(2049 + 2.0 ** -25),  # → -2050
    2051 - 2.0 ** -25,  # → 2050
    1 + 2.0 ** -11,  # an exact tie → 1 (even)
    1 + 3 * 2.0 ** -11,  # an exact tie → 1 + 2^-9 (even)
    TINY / 2 + 2.0 ** -60,  # → 2^-24 (through float32: 2^-25, a tie → 0)
    -(TINY / 2 + 2.0 ** -60),
    TINY / 2,  # an exact tie → 0
    TINY * 1.5 - 2.0 ** -70,  # → 2^-24
    2.0 ** -14 - TINY / 2 + 2.0 ** -50,  # → 2^-14, the smallest normal
    65520 - 2.0 ** -20,  # → 65504 (through float32: 65520 → inf)
    -(65520 - 2.0 ** -20),
    65520.0,  # → inf
    1e300, -1e300, 1e-300, 0.0, -0.0, math.inf, -math.inf, math.nan,
    0.1, 1 / 3, 123.456,
]
wide = np.array(wide, dtype=np.float64)

# float16 rows [a, half an ulp of a, ±2^-24 or 0]: the exact sum is just off a tie (or on it).
rows = []
for a in [1.0, 1.5, 3.0, 1000.0, 2.0 ** -10, 0.3, 40000.0]:
    a = float(f16(a))
    half_ulp = float(np.spacing(f16(a))) / 2
    for nudge in [TINY, -TINY, 0.0]:
        rows.append([a, half_ulp, nudge])
        rows.append([-a, -half_ulp, nudge])
rows.append([65504.0, 16.0, -TINY])  # → 65504
rows.append([65504.0, 16.0, TINY])  # → inf
x = np.array(rows, dtype=f16)
# The exact sum (float64 holds it) rounded once: the meaning of a float16 sum in oxjax (cpu:
# accumulate in float64, round once). np.sum(x) itself accumulates in float32 and can differ.
np.seterr(over="ignore")  # 65520 and beyond overflow to inf on purpose
sums = np.sum(x.astype(np.float64), axis=1).astype(f16)
assert all(float(s) == float(f16(sum(float(v) for v in r))) for s, r in zip(sums, x))

data = {
    "wide": enc(wide), "wide_f16": enc(wide.astype(f16)),
    "rows": enc(x), "row_sums": enc(sums),
    "col_sum": enc(np.sum(x.astype(np.float64), axis=0).astype(f16)),
}
OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
print(f"wrote {OUT}")
