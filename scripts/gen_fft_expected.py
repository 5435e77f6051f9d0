#!/usr/bin/env python3
"""Generates tests/data/fft_expected.json: NumPy's numpy.fft at lengths where the algorithm
matters (powers of two up to 4096, Bluestein lengths such as 1000 and the prime 997, several
axes, 2-D), the oracle of tests/api/fft_large.test.mjs.

Run by developers (`pip install numpy && python3 scripts/gen_fft_expected.py`); the JSON is
committed. Inputs are not stored: element t of row r is `input_value(t, r, part)` below, exact
in float32, which the test rebuilds. Outputs are NumPy's complex128 transform of those inputs,
rounded to float32 (float64 for the float64 case).
"""
import json
import math
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "fft_expected.json"


def input_value(t, r, part):
    """An exact float32 in [-8, 8): ((7919·t + 104729·r + 31·part) mod 1009 − 504) / 64."""
    return ((7919 * t + 104729 * r + 31 * part) % 1009 - 504) / 64


def make(shape, part):
    n = shape[-1]
    flat = [input_value(i % n, i // n, part) for i in range(int(np.prod(shape)))]
    return np.array(flat, dtype=np.float64).reshape(shape)


def enc(a, dtype):
    a = np.asarray(a).astype(dtype)
    # 9 significant digits round-trip a float32; float64 keeps all of them.
    one = (lambda v: float(f"{v:.9g}")) if a.dtype == np.float32 else float
    return {"shape": list(a.shape), "dtype": str(a.dtype), "data": [one(v) for v in a.ravel()]}


cases = []


def case(fn, shape, params, out, complex_input=True, dtype=np.float32):
    if np.iscomplexobj(out):
        o = {"real": enc(out.real, dtype), "imag": enc(out.imag, dtype)}
    else:
        o = {"real": enc(out, dtype)}
    cases.append({"fn": fn, "shape": list(shape), "complex": complex_input,
                  "dtype": np.dtype(dtype).name, "params": params, "out": o})


for n in [1024, 4096, 1000, 997]:
    z = make([n], 0) + 1j * make([n], 1)
    case("fft", [n], {}, np.fft.fft(z))
z = make([1000], 0) + 1j * make([1000], 1)
case("ifft", [1000], {}, np.fft.ifft(z))
z = make([3, 1000], 0) + 1j * make([3, 1000], 1)
case("fft", [3, 1000], {"axis": 0}, np.fft.fft(z, axis=0))
case("fft", [3, 1000], {"axis": -1}, np.fft.fft(z, axis=-1))
for n in [1000, 999]:
    case("rfft", [n], {}, np.fft.rfft(make([n], 0)), complex_input=False)
case("ihfft", [1000], {}, np.fft.ihfft(make([1000], 0)), complex_input=False)
for m in [501, 513]:
    z = make([m], 0) + 1j * make([m], 1)
    case("irfft", [m], {}, np.fft.irfft(z))
    case("hfft", [m], {}, np.fft.hfft(z))
z = make([64, 48], 0) + 1j * make([64, 48], 1)
case("fft2", [64, 48], {}, np.fft.fft2(z))
case("ifftn", [64, 48], {}, np.fft.ifftn(z))
case("rfft2", [60, 50], {}, np.fft.rfft2(make([60, 50], 0)), complex_input=False)
z = make([60, 26], 0) + 1j * make([60, 26], 1)
case("irfft2", [60, 26], {}, np.fft.irfft2(z))
z = make([1000], 0) + 1j * make([1000], 1)
case("fft", [1000], {}, np.fft.fft(z), dtype=np.float64)

OUT.write_text(json.dumps({"cases": cases}) + "\n")
print(f"wrote {len(cases)} cases to {OUT}")
