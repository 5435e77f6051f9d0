#!/usr/bin/env python3
"""Generates tests/data/float16_grad_expected.json: jax.grad / jax.vjp / jax.jvp of float16
functions (float16 inputs, float16 cotangents and tangents), the oracle of
tests/api/float16_grad.test.mjs, each with the same derivative computed in float64 at the same
(float16) inputs ("f64"), the exact value the float16 results approximate. The functions are
twins of the test's JS functions.

Run by developers (`pip install jax==0.10.2 numpy==2.1.3 &&
python3 scripts/gen_float16_grad_expected.py`); the JSON is committed. Every float16 value is
an exact JSON number.
"""
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_enable_x64", True)
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "float16_grad_expected.json"
rng = np.random.default_rng(20261122)
f16 = np.float16


def enc(a):
    a = np.asarray(a)
    assert a.dtype == f16, a.dtype
    return {"shape": list(a.shape), "dtype": str(a.dtype), "data": [float(v) for v in a.ravel()]}


def both(run, *args):
    """`run` on the float16 arguments (JAX's float16 result) and on them widened to float64."""
    lo = run(*args)
    hi = np.asarray(run(*[np.asarray(a, np.float64) for a in args]), np.float64)
    return {**enc(lo), "f64": [float(v) for v in hi.ravel()]}


x = (rng.standard_normal(8) * 1.5).astype(f16)
w = (rng.standard_normal(8)).astype(f16)
ct = (rng.standard_normal(8)).astype(f16)

fns = {
    "sum_sin_x_times_x": lambda x, w: jnp.sum(jnp.sin(x) * x),
    "mean_exp": lambda x, w: jnp.mean(jnp.exp(x)),
    "sum_tanh_xw_sq": lambda x, w: jnp.sum(jnp.tanh(x * w) ** 2),
    "sum_sq_over_1px2": lambda x, w: jnp.sum(x * x / (1 + x * x)),
}
grads = {name: both(jax.grad(f), x, w) for name, f in fns.items()}
# Both arguments of a two-argument function.
g2 = jax.grad(lambda x, w: jnp.sum(jnp.sin(x * w) + x), argnums=(0, 1))
f = lambda x: jnp.exp(x) * x  # noqa: E731

data = {
    "x": enc(x), "w": enc(w), "ct": enc(ct), "grads": grads,
    "grad2": {"x": both(lambda x, w: g2(x, w)[0], x, w), "w": both(lambda x, w: g2(x, w)[1], x, w)},
    "vjp_exp_x_times_x": both(lambda x, c: jax.vjp(f, x)[1](c)[0], x, ct),
    "jvp_exp_x_times_x": {
        "primal": both(lambda x, c: jax.jvp(f, (x,), (c,))[0], x, ct),
        "tangent": both(lambda x, c: jax.jvp(f, (x,), (c,))[1], x, ct),
    },
}
OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
print(f"wrote {OUT}")
