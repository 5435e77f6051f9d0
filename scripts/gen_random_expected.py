#!/usr/bin/env python3
"""Generates tests/data/jax_random_expected.json: JAX's random numbers for given seeds, the
oracle that oxjax's threefry-based `random` must reproduce (bit for bit for bits, split,
uniform and bernoulli; to float32 rounding for normal, whose erfinv differs in the last ulp).

Run by developers (`pip install jax==0.10.2 jaxlib==0.10.2 && python3 scripts/gen_random_expected.py`);
the JSON is committed, so tests need no Python.
"""
import json
from pathlib import Path

import jax
import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "jax_random_expected.json"


def enc(a):
    a = np.asarray(a)
    data = [bool(v) if a.dtype == np.bool_ else float(v) for v in a.ravel()]
    return {"shape": list(a.shape), "dtype": str(a.dtype), "data": data}


cases = []
for seed in [0, 42, 123456789]:
    k = jax.random.key(seed)
    cases.append({"random": "key", "seed": seed, "params": [], "out": enc(jax.random.key_data(k)), "rtol": 0, "atol": 0})
    cases.append({"random": "split", "seed": seed, "params": [3], "out": enc(jax.random.key_data(jax.random.split(k, 3))), "rtol": 0, "atol": 0})
    cases.append({"random": "bits", "seed": seed, "params": [[2, 5]], "out": enc(jax.random.bits(k, (2, 5))), "rtol": 0, "atol": 0})
    cases.append({"random": "uniform", "seed": seed, "params": [[7]], "out": enc(jax.random.uniform(k, (7,))), "rtol": 0, "atol": 0})
    # Scaled: XLA on CPU fuses u * (max - min) + min into one rounding (an FMA); oxjax rounds
    # twice, so the last bit of the scaled value (up to 2.4e-7 at |x| ~ 2) may differ.
    cases.append({"random": "uniform", "seed": seed, "params": [[3, 2], {"minval": -2, "maxval": 5}],
                  "out": enc(jax.random.uniform(k, (3, 2), minval=-2, maxval=5)), "rtol": 2.5e-7, "atol": 5e-7})
    cases.append({"random": "normal", "seed": seed, "params": [[4, 3]], "out": enc(jax.random.normal(k, (4, 3))),
                  "rtol": 1e-6, "atol": 1e-6})
    cases.append({"random": "bernoulli", "seed": seed, "params": [0.3, [9]], "out": enc(jax.random.bernoulli(k, 0.3, (9,))),
                  "rtol": 0, "atol": 0})
OUT.write_text(json.dumps({"generator": "scripts/gen_random_expected.py", "jax": jax.__version__, "cases": cases}) + "\n")
print(f"wrote {len(cases)} cases to {OUT}")
