#!/usr/bin/env python3
"""Generates tests/data/float16_linalg_expected.json, the oracle of
tests/api/float16_linalg.test.mjs: float16 matrix products, einsum, tensordot, convolution and
linear algebra, computed by JAX 0.10.2 on CPU (float16 results; XLA computes float16 dots and
convolutions in float32 and rounds once) and, where JAX rejects float16 (cholesky, LU and what
composes on them: solve, inv, det of n > 2, slogdet), by JAX in float32 on the same float16
values with the results rounded once to float16 — oxjax's rule for all of them. Gradients:
jax.grad in float16.

Run by developers (`pip install numpy==2.1.3 jax==0.10.2`, then
`python3 scripts/gen_float16_linalg_expected.py`); the JSON is committed. Values are JSON
numbers (every float16 is exact in a double).
"""
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "float16_linalg_expected.json"
rng = np.random.default_rng(20261122)
f16, f32 = np.float16, np.float32


def enc(a):
    a = np.asarray(a)
    assert np.all(np.isfinite(a)), "finite oracle values only"
    return {"shape": list(a.shape), "dtype": str(a.dtype), "data": [float(v) for v in a.ravel()]}


def h(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(f16)


def in_f32(f, *args):
    """f on the float16 values in float32, each float result rounded once to float16."""
    out = f(*[jnp.asarray(x, jnp.float32) for x in args])
    return jax.tree_util.tree_map(
        lambda r: np.asarray(r).astype(f16) if np.asarray(r).dtype == f32 else np.asarray(r), out)


a, b, v = h(4, 6), h(6, 3), h(6)
ab, bb = h(2, 3, 5), h(5, 4)
x, k = h(1, 2, 7, 7), h(3, 2, 3, 3, scale=0.5)
# Well-conditioned matrices: a symmetric positive definite one and a general one.
m = h(4, 4, scale=0.5)
spd = (m.astype(f32) @ m.astype(f32).T + 4 * np.eye(4, dtype=f32)).astype(f16)
g = (h(4, 4, scale=0.5).astype(f32) + 3 * np.eye(4, dtype=f32)).astype(f16)
low = np.tril(g)
rhs = h(4, 2)
c = h(4, 3)

J = jnp.asarray
conv = lambda x, k: jax.lax.conv_general_dilated(x, k, (1, 1), "SAME")
data = {
    "a": enc(a), "b": enc(b), "v": enc(v), "ab": enc(ab), "bb": enc(bb), "x": enc(x),
    "k": enc(k), "spd": enc(spd), "g": enc(g), "low": enc(low), "rhs": enc(rhs), "c": enc(c),
    # JAX's own float16 results.
    "matmul": enc(J(a) @ J(b)),
    "matmul_batched": enc(J(ab) @ J(bb)),
    "vec_mat": enc(J(v) @ J(b)),
    "mat_vec": enc(J(a) @ J(v)),
    "einsum_bij_jk": enc(jnp.einsum("bij,jk->bik", J(ab), J(bb))),
    "einsum_i_i": enc(jnp.einsum("i,i->", J(v), J(v))),
    "tensordot": enc(jnp.tensordot(J(a), J(b), 1)),
    "conv": enc(conv(J(x), J(k))),
    "grad_matmul_a": enc(jax.grad(lambda a: jnp.sum((a @ J(b)) * J(c)))(J(a))),
    "grad_matmul_b": enc(jax.grad(lambda b: jnp.sum((J(a) @ b) * J(c)))(J(b))),
    "grad_conv_k": enc(jax.grad(lambda k: jnp.sum(conv(J(x), k) ** 2))(J(k))),
    # JAX computes float16 triangular solves in float16 steps; oxjax in float32, rounded once.
    "trisolve_jax": enc(jax.lax.linalg.triangular_solve(J(low), J(rhs), left_side=True,
                                                        lower=True)),
    "trisolve": enc(in_f32(lambda l, r: jax.lax.linalg.triangular_solve(
        l, r, left_side=True, lower=True), low, rhs)),
    # JAX rejects these in float16 on CPU: float32 on the float16 values, rounded once.
    "cholesky": enc(in_f32(jnp.linalg.cholesky, spd)),
    "solve": enc(in_f32(jnp.linalg.solve, g, rhs)),
    "inv": enc(in_f32(jnp.linalg.inv, g)),
    "det": enc(in_f32(jnp.linalg.det, g)),
    "slogdet": [enc(r) for r in in_f32(jnp.linalg.slogdet, g)],
    "lu": [enc(r) for r in in_f32(jax.lax.linalg.lu, g)],
    "grad_solve": enc(in_f32(jax.grad(lambda g, r: jnp.sum(jnp.linalg.solve(g, r))), g, rhs)),
}
OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
print(f"wrote {OUT}")
