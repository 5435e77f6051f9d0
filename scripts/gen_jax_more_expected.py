#!/usr/bin/env python3
"""Generates tests/data/jax_more_expected.json: jax.nn's further activations, logit, and JAX's
samples of further random distributions for given seeds, the oracle of
tests/api/jax_more.test.mjs (same case format as scripts/gen_jax_expected.py).

Run by developers (`pip install jax==0.10.2 jaxlib==0.10.2 && python3 scripts/gen_jax_more_expected.py`).
Distributions built from uniform bits match to float32 rounding of their transcendental steps.
"""
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy import special as jsp

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "jax_more_expected.json"


def enc(a):
    a = np.asarray(a)
    data = [bool(v) if a.dtype == np.bool_ else float(v) for v in a.ravel()]
    return {"shape": list(a.shape), "dtype": str(a.dtype), "data": data}


cases = []
X = np.random.default_rng(17).standard_normal((3, 4)).astype(np.float32) * 3
POS = np.random.default_rng(18).uniform(0.05, 4, (3, 4)).astype(np.float32)
P = np.random.default_rng(19).uniform(0.01, 0.99, (3, 4)).astype(np.float32)
nn_cases = [("hardSigmoid", jax.nn.hard_sigmoid, X, []), ("hardSilu", jax.nn.hard_silu, X, []),
            ("hardSwish", jax.nn.hard_swish, X, []), ("hardTanh", jax.nn.hard_tanh, X, []),
            ("mish", jax.nn.mish, X, []), ("selu", jax.nn.selu, X, []),
            ("celu", lambda x: jax.nn.celu(x, 0.7), X, [0.7]), ("celu", jax.nn.celu, X, []),
            ("squareplus", jax.nn.squareplus, X, []), ("squareplus", lambda x: jax.nn.squareplus(x, 2.0), X, [2.0]),
            ("sparsePlus", jax.nn.sparse_plus, X / 2, []), ("sparseSigmoid", jax.nn.sparse_sigmoid, X / 2, []),
            ("log1mexp", jax.nn.log1mexp, POS, []),
            ("glu", jax.nn.glu, X, []), ("glu", lambda x: jax.nn.glu(x, 0), X[:2], [0]),
            ("logmeanexp", lambda x: jax.nn.logmeanexp(x), X, []),
            ("logmeanexp", lambda x: jax.nn.logmeanexp(x, axis=1), X, [1]),
            ("logmeanexp", lambda x: jax.nn.logmeanexp(x, axis=0, keepdims=True), X, [0, {"keepdims": True}]),
            ("standardize", jax.nn.standardize, X, []), ("standardize", lambda x: jax.nn.standardize(x, 0), X, [0]),
            ("standardize", lambda x: jax.nn.standardize(x, (0, 1), epsilon=0.1), X, [[0, 1], {"epsilon": 0.1}])]
for name, fn, x, params in nn_cases:
    cases.append({"nn": name, "args": [enc(x)], "params": params, "out": enc(fn(x)), "rtol": 2e-6, "atol": 2e-6})
cases.append({"special": "logit", "args": [enc(P)], "params": [], "out": enc(jsp.logit(P)), "rtol": 2e-6, "atol": 1e-6})

LOGITS = np.log(np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1]], np.float32))
TOL = {"rtol": 2e-6, "atol": 2e-6}
for seed in [0, 42]:
    k = jax.random.key(seed)
    draws = [
        ("exponential", [[7]], jax.random.exponential(k, (7,)), TOL),
        ("gumbel", [[2, 3]], jax.random.gumbel(k, (2, 3)), TOL),
        ("cauchy", [[6]], jax.random.cauchy(k, (6,)), {"rtol": 1e-5, "atol": 1e-5}),
        ("laplace", [[6]], jax.random.laplace(k, (6,)), TOL),
        ("logistic", [[6]], jax.random.logistic(k, (6,)), TOL),
        ("lognormal", [0.5, [5]], jax.random.lognormal(k, 0.5, (5,)), {"rtol": 1e-5, "atol": 1e-6}),
        ("rademacher", [[9]], jax.random.rademacher(k, (9,)), {"rtol": 0, "atol": 0}),
        ("rayleigh", [2.0, [5]], jax.random.rayleigh(k, 2.0, (5,)), TOL),
        ("maxwell", [[4]], jax.random.maxwell(k, (4,)), {"rtol": 1e-5, "atol": 1e-6}),
        ("doubleSidedMaxwell", [1.0, 2.0, [4]], jax.random.double_sided_maxwell(k, 1.0, 2.0, (4,)), {"rtol": 1e-5, "atol": 1e-5}),
        ("weibullMin", [2.0, 1.5, [5]], jax.random.weibull_min(k, 2.0, 1.5, (5,)), {"rtol": 1e-5, "atol": 1e-6}),
        ("pareto", [3.0, [5]], jax.random.pareto(k, 3.0, (5,)), TOL),
        ("triangular", [-1.0, 0.5, 2.0, [6]], jax.random.triangular(k, -1.0, 0.5, 2.0, (6,)), TOL),
        ("geometric", [0.3, [8]], jax.random.geometric(k, 0.3, (8,)), {"rtol": 0, "atol": 0}),
        ("randint", [[8], 0, 10], jax.random.randint(k, (8,), 0, 10), {"rtol": 0, "atol": 0}),
        ("randint", [[2, 3], -5, 1000003], jax.random.randint(k, (2, 3), -5, 1000003), {"rtol": 0, "atol": 0}),
    ]
    for name, params, out, tol in draws:
        cases.append({"random": name, "seed": seed, "params": params, "out": enc(out), **tol})
    cases.append({"random": "categorical", "seed": seed, "args": [enc(LOGITS)], "params": [],
                  "out": enc(jax.random.categorical(k, LOGITS)), "rtol": 0, "atol": 0})
    cases.append({"random": "categorical", "seed": seed, "args": [enc(LOGITS)], "params": [{"axis": 0, "shape": [5, 4]}],
                  "out": enc(jax.random.categorical(k, LOGITS, axis=0, shape=(5, 4))), "rtol": 0, "atol": 0})
# lax: dot_general, slicing with offsets, top_k, bitcasts.
from jax import lax

A = np.random.default_rng(20).standard_normal((2, 3, 4)).astype(np.float32)
Bm = np.random.default_rng(21).standard_normal((2, 4, 5)).astype(np.float32)
M = np.random.default_rng(22).standard_normal((4, 6)).astype(np.float32)
TOLD = {"rtol": 1e-5, "atol": 1e-5}
lax_cases = [
    ("dot", [A, Bm], [{"lhsContractingDims": [2], "rhsContractingDims": [1], "lhsBatchDims": [0], "rhsBatchDims": [0]}],
     lax.dot_general(A, Bm, (([2], [1]), ([0], [0]))), TOLD),
    ("dot", [A[0], M], [], lax.dot_general(A[0], M, (([1], [0]), ([], []))), TOLD),
    ("dot", [M, M], [{"lhsContractingDims": [0], "rhsContractingDims": [0]}], lax.dot_general(M, M, (([0], [0]), ([], []))), TOLD),
    ("sliceInDim", [M], [1, 3, 0], lax.slice_in_dim(M, 1, 3, axis=0), {}),
    ("sliceInDim", [M], [2, None, 1], lax.slice_in_dim(M, 2, None, axis=1), {}),
    ("dynamicSlice", [M], [[1, 2], [2, 3]], lax.dynamic_slice(M, (1, 2), (2, 3)), {}),
    ("dynamicSlice", [M], [[3, 5], [2, 3]], lax.dynamic_slice(M, (3, 5), (2, 3)), {}),
    ("dynamicIndexInDim", [M], [2, 1], lax.dynamic_index_in_dim(M, 2, 1, keepdims=False), {}),
    ("dynamicIndexInDim", [M], [3, 0, True], lax.dynamic_index_in_dim(M, 3, 0, keepdims=True), {}),
    ("dynamicUpdateSlice", [M, M[:2, :]], [1, 0], lax.dynamic_update_slice_in_dim(M, M[:2, :] * 0 + M[:2, :], 1, 0), {}),
    ("dynamicUpdateSlice", [M, M[:, :2]], [5, 1], lax.dynamic_update_slice_in_dim(M, M[:, :2], 5, 1), {}),
    ("bitcastConvertType", [M], ["int32"], lax.bitcast_convert_type(M, jnp.int32), {}),
]
for name, args, params, out, tol in lax_cases:
    cases.append({"lax": name, "args": [enc(a) for a in args], "params": params, "out": enc(out),
                  "rtol": tol.get("rtol", 0), "atol": tol.get("atol", 0)})
T = np.array([[3, 1, 4, 1, 5, 9, 2, 6], [2, 7, 1, 8, 2, 8, 1, 8]], np.float32)
vals, idx = lax.top_k(T, 3)
cases.append({"lax": "topK", "args": [enc(T)], "params": [3], "outs": [enc(vals), enc(idx)], "rtol": 0, "atol": 0})
MEAN = np.array([1.0, -2.0, 0.5], np.float32)
COV = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]], np.float32)
for seed in [0, 7]:
    out = jax.random.multivariate_normal(jax.random.key(seed), MEAN, COV, (4,))
    cases.append({"random": "multivariateNormal", "seed": seed, "args": [enc(MEAN), enc(COV)], "params": [[4]],
                  "out": enc(out), "rtol": 1e-5, "atol": 1e-5})
# permutation, choice (JAX) and scatterAdd (NumPy's add.at).
for seed in [0, 3]:
    k = jax.random.key(seed)
    ARR = np.arange(12, dtype=np.float32).reshape(4, 3)
    PR = np.array([0.1, 0.5, 0.15, 0.25], np.float32)
    cases += [
        {"random": "permutation", "seed": seed, "params": [10], "out": enc(jax.random.permutation(k, 10)), "rtol": 0, "atol": 0},
        {"random": "permutation", "seed": seed, "args": [enc(ARR)], "params": [], "out": enc(jax.random.permutation(k, ARR)), "rtol": 0, "atol": 0},
        {"random": "permutation", "seed": seed, "args": [enc(ARR)], "params": [1, True],
         "out": enc(jax.random.permutation(k, ARR, 1, independent=True)), "rtol": 0, "atol": 0},
        {"random": "choice", "seed": seed, "params": [5, [6]], "out": enc(jax.random.choice(k, 5, (6,))), "rtol": 0, "atol": 0},
        {"random": "choice", "seed": seed, "args": [enc(ARR)], "params": [[2], False],
         "out": enc(jax.random.choice(k, ARR, (2,), replace=False)), "rtol": 0, "atol": 0},
        {"random": "choice", "seed": seed, "params": [4, [7], True, "P"], "probs": enc(PR),
         "out": enc(jax.random.choice(k, 4, (7,), p=PR)), "rtol": 0, "atol": 0},
        {"random": "choice", "seed": seed, "params": [4, [3], False, "P"], "probs": enc(PR),
         "out": enc(jax.random.choice(k, 4, (3,), replace=False, p=PR)), "rtol": 0, "atol": 0},
    ]
T0 = np.zeros((5, 2), np.float32)
IDX = np.array([0, 3, 3, 7, 1], np.int32)
UPD = np.arange(10, dtype=np.float32).reshape(5, 2)
want = T0.copy()
for i, row in zip(IDX, UPD):
    if i < 5:
        want[i] += row
cases.append({"top": "scatterAdd", "args": [enc(T0), enc(IDX), enc(UPD)], "params": [], "out": enc(want), "rtol": 0, "atol": 0})
OUT.write_text(json.dumps({"generator": "scripts/gen_jax_more_expected.py", "jax": jax.__version__, "cases": cases}) + "\n")
print(f"wrote {len(cases)} cases to {OUT}")
