#!/usr/bin/env python3
"""Generates tests/data/corpus_transcendentals.tsv, the oracle of the transcendental cases of the
kernel corpus (tests/integration/common/corpus.rs, checked by tests/integration/backends.rs):
for each operation and float dtype, the corpus's 64 inputs and each result computed with mpmath
at 60 digits, then rounded once to float64.

The inputs are the corpus's `sample(dtype, 1)`, reproduced here (the same LCG; float32 inputs
rounded to float32 as the corpus encodes them); the test checks that the file's inputs are the
corpus's, so a change to `sample` shows up as a stale file.

Run by developers (`pip install mpmath==1.3.0 numpy`, then
`python3 scripts/gen_corpus_transcendentals.py`); the file is committed. One line per element:
`dtype<TAB>op<TAB>index<TAB>input<TAB>expected`, numbers as Python's shortest round-trip repr,
or nan, inf, -inf.
"""
import math
from pathlib import Path

import mpmath
import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus_transcendentals.tsv"
N = 64
M32 = 0xFFFFFFFF
mpmath.mp.dps = 60


def sample(seed):
    """corpus.rs `sample` for a float dtype."""
    out = [0.0, -0.0, 1.0, -1.0, 0.5, math.nan, math.inf, -math.inf, 1e-30, -3.5, 100.25, 1e30]
    state = (seed * 2654435761 + 12345) & M32
    while len(out) < N:
        state = (state * 1664525 + 1013904223) & M32
        unit = (state >> 8) / float(1 << 24)
        out.append((unit * 20.0 - 10.0) * (0.01 if len(out) % 3 == 0 else 1.0))
    return out[:N]


def special(op, x):
    """Results at non-finite inputs and zeros (where mpmath loses the sign), or None."""
    if math.isnan(x):
        return math.nan
    if math.isinf(x):
        s = 1.0 if x > 0 else -1.0
        return {
            "Exp": math.inf if s > 0 else 0.0,
            "Log": math.inf if s > 0 else math.nan,
            "Sin": math.nan,
            "Cos": math.nan,
            "Asin": math.nan,
            "Atan": s * math.pi / 2,
            "Tanh": s,
            "Erf": s,
            "Erfc": 0.0 if s > 0 else 2.0,
        }[op]
    if x == 0.0:
        return {"Exp": 1.0, "Log": -math.inf, "Cos": 1.0, "Erfc": 1.0}.get(op, x)
    if op == "Log" and x < 0:
        return math.nan
    if op == "Asin" and abs(x) > 1:
        return math.nan
    return None


FUNCS = {
    "Exp": mpmath.exp,
    "Log": mpmath.log,
    "Sin": mpmath.sin,
    "Cos": mpmath.cos,
    "Asin": mpmath.asin,
    "Atan": mpmath.atan,
    "Tanh": mpmath.tanh,
    "Erf": mpmath.erf,
    "Erfc": mpmath.erfc,
}


def expected(op, x):
    s = special(op, x)
    if s is not None:
        return s
    # float() of an mpf rounds to nearest; overflow gives inf.
    return float(FUNCS[op](mpmath.mpf(x)))


def fmt(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)


lines = []
for dtype in ["Float32", "Float64"]:
    xs = sample(1)
    if dtype == "Float32":
        xs = [float(np.float32(x)) for x in xs]
    for op in FUNCS:
        for i, x in enumerate(xs):
            lines.append(f"{dtype}\t{op}\t{i}\t{fmt(x)}\t{fmt(expected(op, x))}")
OUT.write_text("\n".join(lines) + "\n")
print(f"wrote {len(lines)} lines to {OUT}")
