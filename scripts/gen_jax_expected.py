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

# Transformations (tests/data/jax_transforms_expected.json): per-primitive gradients (each
# named function has a twin in tests/api/grad_primitives.test.mjs; the loss weights every
# output element by (k + 1) / 4 so each rule is seen with a non-uniform cotangent) and
# compositions of vmap, grad, jacfwd, jacrev, hessian, vjp, jvp and linearize (twins in
# tests/api/vmap.test.mjs). Jacobians follow jax-js's layout (jacfwd: input axis first).
from jax import lax


def wsum(y):
    return jnp.sum(y * ((jnp.arange(y.size, dtype=jnp.float32).reshape(y.shape) + 1) * 0.25))


PX = np.array([0.31, -0.57, 0.83, 0.12, -0.29, 0.66], np.float32)
PM = np.array([[0.4, -0.7, 0.25], [0.9, -0.15, -0.55]], np.float32)
PIMG = np.random.default_rng(11).standard_normal((1, 2, 4, 3)).astype(np.float32)
conv_w = np.random.default_rng(12).standard_normal((4, 1, 2, 2)).astype(np.float32)
prim_fns = {
    "neg": (PX, lambda x: wsum(-x * x)),
    "abs": (PX, lambda x: wsum(jnp.abs(x))),
    "reciprocal": (PX, lambda x: wsum(jnp.reciprocal(x + 2))),
    "sqrt": (PX, lambda x: wsum(jnp.sqrt(x * x + 0.5))),
    "exp": (PX, lambda x: wsum(jnp.exp(x))),
    "log": (PX, lambda x: wsum(jnp.log(x + 1))),
    "sin": (PX, lambda x: wsum(jnp.sin(x))),
    "cos": (PX, lambda x: wsum(jnp.cos(x))),
    "tanh": (PX, lambda x: wsum(jnp.tanh(x))),
    "arcsin": (PX, lambda x: wsum(jnp.arcsin(x))),
    "arctan": (PX, lambda x: wsum(jnp.arctan(x))),
    "erf": (PX, lambda x: wsum(jax.scipy.special.erf(x))),
    "erfc": (PX, lambda x: wsum(jax.scipy.special.erfc(x))),
    "floor": (PX, lambda x: wsum(jnp.floor(x * 3) * x)),
    "ceil": (PX, lambda x: wsum(jnp.ceil(x * 3) * x)),
    "add": (PX, lambda x: wsum(x + jnp.flip(x))),
    "subtract": (PX, lambda x: wsum(x - x * x)),
    "multiply": (PX, lambda x: wsum(x * jnp.flip(x))),
    "divide": (PX, lambda x: wsum(x / (x * x + 1))),
    "maximum": (PX, lambda x: wsum(jnp.maximum(x, jnp.flip(x) * 0.5))),
    "minimum": (PX, lambda x: wsum(jnp.minimum(x, jnp.flip(x) * 0.5))),
    "fmod": (PX, lambda x: wsum(jnp.fmod(x * 3, x * x + 0.7))),
    "where": (PX, lambda x: wsum(jnp.where(x > 0, x * x, jnp.sin(x)))),
    "stop_gradient": (PX, lambda x: wsum(lax.stop_gradient(x) * x)),
    "power": (PX, lambda x: wsum(x ** 3)),
    "clip": (PX, lambda x: wsum(jnp.clip(x, -0.4, 0.5) * x)),
    "sum": (PM, lambda x: wsum(jnp.sum(x * x, axis=1))),
    "prod": (PM, lambda x: wsum(jnp.prod(x, axis=0))),
    "max": (PM, lambda x: wsum(jnp.max(x, axis=1))),
    "min": (PM, lambda x: wsum(jnp.min(x, axis=0))),
    "mean": (PM, lambda x: wsum(jnp.mean(jnp.sin(x), axis=0))),
    "var": (PM, lambda x: wsum(jnp.var(x, axis=1))),
    "cumsum": (PM, lambda x: wsum(jnp.cumsum(x * x, axis=1))),
    "cumprod": (PM, lambda x: wsum(jnp.cumprod(x, axis=1))),
    "reshape": (PM, lambda x: wsum(jnp.sin(x.reshape(3, 2)))),
    "transpose": (PM, lambda x: wsum(jnp.sin(x.T))),
    "broadcast_to": (PX, lambda x: wsum(jnp.sin(jnp.broadcast_to(x, (2, 6))))),
    "slice": (PM, lambda x: wsum(jnp.sin(x[:, 1:3]))),
    "flip": (PM, lambda x: wsum(jnp.sin(jnp.flip(x, 1)))),
    "concatenate": (PM, lambda x: wsum(jnp.concatenate([x, jnp.sin(x)], 0))),
    "matmul": (PM, lambda x: wsum(jnp.matmul(x, x.T))),
    "gather": (PX, lambda x: wsum(jnp.sin(x[jnp.array([4, 0, 4, -1])]))),
    "conv": (PIMG, lambda x, w: wsum(lax.conv_general_dilated(x, w, (1, 2), [(1, 0), (0, 1)], feature_group_count=2)), conv_w),
    "sort": (PX, lambda x: wsum(jnp.sort(x))),
    "softmax": (PM, lambda x: wsum(jax.nn.softmax(x))),
    "logsumexp": (PM, lambda x: wsum(jax.scipy.special.logsumexp(x, axis=0))),
    "relu": (PX, lambda x: wsum(jax.nn.relu(x) * x)),
    "sigmoid": (PX, lambda x: wsum(jax.nn.sigmoid(x))),
}
tcases = []
for name, (x, fn, *consts) in prim_fns.items():
    tcases.append({"grad": name, "args": [enc(x)] + [enc(c) for c in consts],
                   "out": enc(jax.grad(fn)(x, *consts)), "rtol": 2e-5, "atol": 2e-5})
# Compositions.
CX = np.array([0.5, -0.3, 0.8], np.float32)
CM = np.array([[0.2, -0.4, 0.6], [0.9, 0.1, -0.7]], np.float32)
row_loss = lambda r: jnp.sum(jnp.sin(r) * r * r)
tcases.append({"comp": "vmap_grad", "args": [enc(CM)], "out": enc(jax.vmap(jax.grad(row_loss))(CM))})
col_lse = lambda c: jnp.log(jnp.sum(jnp.exp(c)))
tcases.append({"comp": "grad_vmap", "args": [enc(CM)],
               "out": enc(jax.grad(lambda m: jnp.sum(jax.vmap(col_lse, in_axes=1)(m)))(CM))})
vec_f = lambda x: jnp.sin(x) * jnp.sum(x * x)
tcases.append({"comp": "jacfwd_jacrev", "args": [enc(CX)],
               "out": enc(jnp.moveaxis(jax.jacfwd(jax.jacrev(vec_f))(CX), -1, 0))})
three = lambda p: p[0] ** 2 * p[1] + jnp.sin(p[2]) * p[0] + jnp.exp(p[1] * p[2])
tcases.append({"comp": "hessian3", "args": [enc(CX)], "out": enc(jax.hessian(three)(CX))})
wide = lambda x: jnp.stack([x[0] * x[1], jnp.sin(x[2])])
tcases.append({"comp": "jacfwd_wide", "args": [enc(CX)], "out": enc(jax.jacfwd(wide)(CX).T)})
tcases.append({"comp": "jacrev_wide", "args": [enc(CX)], "out": enc(jax.jacrev(wide)(CX))})
pt = lambda p, c: {"s": jnp.sum(p["a"] * p["b"][0]), "v": [p["a"] * c, jnp.sin(p["b"][0])]}
P = {"a": CX, "b": [CX[::-1].copy()]}
Cc = np.float32(1.5)
out, f_vjp = jax.vjp(pt, P, Cc)
ct = {"s": np.float32(2.0), "v": [np.array([1, 2, 3], np.float32), np.array([-1, 0.5, 0.25], np.float32)]}
gp, gc = f_vjp(ct)
tcases.append({"comp": "vjp_pytree", "out": {"a": enc(gp["a"]), "b0": enc(gp["b"][0]), "c": enc(gc)}})
aux_f = lambda x: (jnp.sum(x ** 3), {"m": jnp.mean(x)})
(v, aux), gx = jax.value_and_grad(aux_f, has_aux=True)(CX)
tcases.append({"comp": "value_and_grad_aux", "out": {"value": enc(v), "m": enc(aux["m"]), "grad": enc(gx)}})
TV = np.array([1.0, 0.5, -2.0], np.float32)
po, to = jax.jvp(lambda x: jnp.sin(x) * x, (CX,), (TV,))
tcases.append({"comp": "jvp_linearize", "out": {"primal": enc(po), "tangent": enc(to)}})
TRANS_OUT = OUT.with_name("jax_transforms_expected.json")
TRANS_OUT.write_text(json.dumps({"generator": "scripts/gen_jax_expected.py", "jax": jax.__version__, "cases": tcases}) + "\n")
print(f"wrote {len(tcases)} cases to {TRANS_OUT}")
