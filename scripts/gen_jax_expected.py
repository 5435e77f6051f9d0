#!/usr/bin/env python3
"""Generates tests/data/jax_expected.json: JAX's random numbers for given seeds (and jax.nn /
jax.scipy.special values), the
oracle that oxjax's threefry-based `random` must reproduce (bit for bit for bits, split,
uniform and bernoulli; to float32 rounding for normal, whose erfinv differs in the last ulp).

Run by developers (`pip install jax==0.10.2 jaxlib==0.10.2 && python3 scripts/gen_jax_expected.py`);
the JSON is committed, so tests need no Python.
"""
import json
from pathlib import Path

import jax
import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "jax_expected.json"


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
# nn and scipy.special against jax.nn / jax.scipy.special (float32).
import jax.numpy as jnp
from jax.scipy import special as jsp

X = np.random.default_rng(7).standard_normal((3, 4)).astype(np.float32) * 3
U = np.random.default_rng(8).uniform(-0.99, 0.99, (3, 4)).astype(np.float32)
C = np.array([0, 2, 1, 3], np.int32)
nn_cases = [("relu", jax.nn.relu, X, []), ("relu6", jax.nn.relu6, X, []), ("sigmoid", jax.nn.sigmoid, X, []),
            ("softplus", jax.nn.softplus, X, []), ("logSigmoid", jax.nn.log_sigmoid, X, []),
            ("silu", jax.nn.silu, X, []), ("softSign", jax.nn.soft_sign, X, []),
            ("leakyRelu", lambda x: jax.nn.leaky_relu(x, 0.1), X, [0.1]), ("elu", lambda x: jax.nn.elu(x, 0.5), X, [0.5]),
            ("gelu", jax.nn.gelu, X, []), ("gelu", lambda x: jax.nn.gelu(x, approximate=False), X, [False]),
            ("logsumexp", lambda x: jsp.logsumexp(x), X, []), ("logsumexp", lambda x: jsp.logsumexp(x, axis=1), X, [1]),
            ("softmax", jax.nn.softmax, X, []), ("softmax", lambda x: jax.nn.softmax(x, axis=0), X, [0]),
            ("logSoftmax", jax.nn.log_softmax, X, []), ("oneHot", lambda c: jax.nn.one_hot(c, 5), C, [5])]
for name, fn, x, params in nn_cases:
    cases.append({"nn": name, "args": [enc(x)], "params": params, "out": enc(fn(x)), "rtol": 2e-6, "atol": 1e-6})
for name, fn, x in [("erf", jsp.erf, X), ("erfc", jsp.erfc, X), ("erfinv", jsp.erfinv, U)]:
    cases.append({"special": name, "args": [enc(x)], "params": [], "out": enc(fn(x)), "rtol": 2e-6, "atol": 1e-6})
# Gradients: each named function below has a twin in tests/api/grad.test.mjs written with
# oxjax's API; jax.grad of the Python version is the oracle.
import jax.numpy as jnp
GX = np.array([0.3, -1.2, 2.5, 0.7], np.float32)
GM = np.random.default_rng(9).standard_normal((3, 4)).astype(np.float32)
grad_cases = []
grad_fns = {
    "sin_x": lambda x: jnp.sum(jnp.sin(x) * x),
    "exp_div": lambda x: jnp.sum(jnp.exp(x) / (1 + x * x)),
    "tanh_log": lambda x: jnp.sum(jnp.tanh(x) + jnp.log(x * x + 1)),
    "sqrt_abs": lambda x: jnp.sum(jnp.sqrt(jnp.abs(x) + 1) * jnp.cos(x)),
    "max_min": lambda x: jnp.sum(jnp.maximum(x, 0.5) - jnp.minimum(x, -0.5) * 2),
    "where": lambda x: jnp.sum(jnp.where(x > 0, x * x, -x)),
    "reductions": lambda x: jnp.max(x) + jnp.mean(x) * 3 + jnp.prod(x[:2]),
    "atan_asin_erf": lambda x: jnp.sum(jnp.arctan(x) + jnp.arcsin(x / 3) + jax.scipy.special.erf(x)),
    "matmul": lambda m: jnp.sum(jnp.tanh(m @ m.T) @ m),
    "movement": lambda m: jnp.sum(jnp.flip(m.T, 0)[1:3] * jnp.arange(3, dtype=jnp.float32)[None, :] ) + jnp.sum(jnp.concatenate([m, m * 2], 1) ** 2),
    "softmax_logsumexp": lambda m: jnp.sum(jax.nn.softmax(m) * m) + jax.scipy.special.logsumexp(m),
    "broadcast_reshape": lambda m: jnp.sum((m.reshape(4, 3) + jnp.array([1.0, 2.0, 3.0])) ** 3) / 10,
}
for name, fn in grad_fns.items():
    x = GM if name in ("matmul", "movement", "softmax_logsumexp", "broadcast_reshape") else GX
    grad_cases.append({"grad": name, "args": [enc(x)], "params": [], "out": enc(jax.grad(fn)(x)), "rtol": 2e-5, "atol": 2e-5})
OUT.write_text(json.dumps({"generator": "scripts/gen_jax_expected.py", "jax": jax.__version__, "cases": cases}) + "\n")
GRAD_OUT = OUT.with_name("jax_grad_expected.json")
GRAD_OUT.write_text(json.dumps({"generator": "scripts/gen_jax_expected.py", "jax": jax.__version__, "cases": grad_cases}) + "\n")
print(f"wrote {len(cases)} cases to {OUT} and {len(grad_cases)} to {GRAD_OUT}")
