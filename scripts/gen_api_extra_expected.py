#!/usr/bin/env python3
"""Generates tests/data/api_extra_expected.json, the oracle of tests/api/api_extra.test.mjs:
JAX's `lax.conv_transpose` (float64, `jax_enable_x64`) in convGeneralDilated's axis order
(NCH…/OIH…) with the gradients of a weighted sum, and `random.categorical` without replacement.

Run by developers when cases change (`pip install numpy==2.1.3 jax==0.10.2 && python3
scripts/gen_api_extra_expected.py`); the JSON is committed. Inputs are float32 values.
"""
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "api_extra_expected.json"
rng = np.random.default_rng(20261122)


def enc(a):
    a = np.asarray(a, dtype=np.float64)
    return {"shape": list(a.shape), "data": [float(v) for v in a.ravel()]}


DN = {1: ("NCH", "OIH", "NCH"), 2: ("NCHW", "OIHW", "NCHW")}
cases = []
for lhs_shape, rhs_shape, strides, padding, dil, tk in [
    ((1, 2, 5), (3, 2, 3), (2,), "SAME", None, False),
    ((2, 1, 4), (2, 1, 2), (3,), "VALID", None, False),
    ((1, 2, 4, 3), (3, 2, 3, 2), (2, 1), "SAME", None, False),
    ((1, 2, 3, 3), (2, 3, 2, 2), (2, 2), "VALID", (2, 1), True),
    ((1, 1, 4), (1, 1, 3), (2,), [(1, 2)], None, False),
    ((1, 2, 3, 4), (2, 2, 2, 3), (1, 2), [(0, 1), (2, 1)], (2, 1), True),
]:
    lhs = rng.standard_normal(lhs_shape).astype(np.float32).astype(np.float64)
    rhs = rng.standard_normal(rhs_shape).astype(np.float32).astype(np.float64)
    dn = DN[len(lhs_shape) - 2]

    def f(l, r):
        # Explicit pairs are the forward convolution's padding, as in jax-js.
        return jax.lax.conv_transpose(l, r, strides, padding, rhs_dilation=dil,
                                      dimension_numbers=dn, transpose_kernel=tk,
                                      use_consistent_padding=True)

    out = f(lhs, rhs)
    w = rng.standard_normal(out.shape)
    gl, gr = jax.grad(lambda l, r: jnp.sum(f(l, r) * w), argnums=(0, 1))(lhs, rhs)
    cases.append({
        "lhs": enc(lhs), "rhs": enc(rhs), "strides": list(strides),
        "padding": padding if isinstance(padding, str) else [list(p) for p in padding],
        "rhsDilation": list(dil) if dil else None, "transposeKernel": tk,
        "out": enc(out), "w": enc(w), "gradLhs": enc(gl), "gradRhs": enc(gr),
    })
# categorical(key, logits, axis, shape, replace=False): Gumbel-top-k (float32 logits).
categorical = []
logits = rng.standard_normal((3, 6)).astype(np.float32)
for seed, axis, shape in [(0, -1, (4, 3)), (1, -1, None), (7, 0, (2, 6))]:
    key = jax.random.PRNGKey(seed)
    out = jax.random.categorical(key, jnp.asarray(logits, dtype=jnp.float32), axis=axis,
                                 shape=shape, replace=False)
    categorical.append({"seed": seed, "axis": axis, "shape": list(shape) if shape else None,
                        "logits": enc(logits), "out": enc(out)})
# reduceWindow(x, computation, window, strides) over the trailing axes, against
# lax.reduce_window with unit windows on the leading axes ("VALID").
windows = []
for shape, window, strides, op in [
    ((4, 5), (2, 2), (2, 2), "max"),
    ((2, 3, 6), (3,), (2,), "sum"),
    ((3, 4), (2, 3), None, "sum"),
]:
    x = rng.standard_normal(shape).astype(np.float32).astype(np.float64)
    lead = len(shape) - len(window)
    full_w = (1,) * lead + tuple(window)
    full_s = (1,) * lead + tuple(strides or (1,) * len(window))
    init, fn = (-np.inf, jax.lax.max) if op == "max" else (0.0, jax.lax.add)
    out = jax.lax.reduce_window(x, init, fn, full_w, full_s, "VALID")
    windows.append({"x": enc(x), "window": list(window), "strides": list(strides) if strides else None,
                    "op": op, "out": enc(out)})
OUT.write_text(json.dumps({"cases": cases, "categorical": categorical, "windows": windows}) + "\n")
print(f"wrote {OUT}")
