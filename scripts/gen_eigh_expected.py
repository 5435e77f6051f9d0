#!/usr/bin/env python3
"""Generates tests/data/eigh_expected.json: inputs with NumPy's eigh/svd and JAX's gradients
(float64, `jax_enable_x64`), the oracle of tests/api/eigh.test.mjs.

Run by developers when cases change (`pip install numpy==2.1.3 jax==0.10.2 && python3
scripts/gen_eigh_expected.py`); the JSON is committed. Inputs are float32 values (stored
exactly); NumPy's results are computed in float64 from exactly those inputs. Eigenvector and
singular vector signs are arbitrary in LAPACK, so the test aligns them before comparing; the
gradient cases use sign-invariant functions.
"""
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "eigh_expected.json"
rng = np.random.default_rng(20261122)


def f32(shape):
    return rng.standard_normal(shape).astype(np.float32)


def sym(shape):
    a = f32(shape)
    return ((a + np.swapaxes(a, -1, -2)) / 2).astype(np.float32)


def enc(a):
    a = np.asarray(a, dtype=np.float64)
    return {"shape": list(a.shape), "data": [float(v) for v in a.ravel()]}


eigh_cases = []
for a, dtype in [
    (sym([1, 1]), "float32"),
    (sym([2, 2]), "float32"),
    (sym([3, 3]), "float32"),
    (sym([5, 5]), "float32"),
    (sym([8, 8]), "float32"),
    (sym([2, 3, 3]), "float32"),
    (sym([4, 4]), "float64"),
]:
    w, v = np.linalg.eigh(a.astype(np.float64))
    eigh_cases.append({"a": enc(a), "dtype": dtype, "w": enc(w), "v": enc(v)})

# A repeated eigenvalue: Q diag(1, 1, 3) Qᵀ.
q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
rep = (q @ np.diag([1.0, 1.0, 3.0]) @ q.T).astype(np.float32)
rep = ((rep + rep.T) / 2).astype(np.float32)
degenerate = {"a": enc(rep), "w": enc(np.linalg.eigvalsh(rep.astype(np.float64)))}

# Only one triangle is read without symmetrization.
lower_in = f32([4, 4])
lower_case = {
    "a": enc(lower_in),
    "wL": enc(np.linalg.eigvalsh(lower_in.astype(np.float64), UPLO="L")),
    "wU": enc(np.linalg.eigvalsh(lower_in.astype(np.float64), UPLO="U")),
}

svd_cases = []
for a, dtype in [
    (f32([4, 3]), "float32"),
    (f32([3, 4]), "float32"),
    (f32([5, 5]), "float32"),
    (f32([2, 3, 2]), "float32"),
    (f32([1, 4]), "float32"),
    (f32([3, 3]), "float64"),
]:
    u, s, vh = np.linalg.svd(a.astype(np.float64))
    svd_cases.append({"a": enc(a), "dtype": dtype, "u": enc(u), "s": enc(s), "vh": enc(vh)})
# Rank 2 of 4×3.
low = (f32([4, 2]) @ f32([2, 3])).astype(np.float32)
rank_deficient = {"a": enc(low), "s": enc(np.linalg.svd(low.astype(np.float64), compute_uv=False))}

# Gradients (JAX, float64) of sign-invariant functions.
grads = []
a3 = sym([3, 3]).astype(np.float64)
c3 = np.array([0.5, -1.0, 2.0])
m3 = rng.standard_normal((3, 3))


def eigvals_fn(a):
    return jnp.sum(jnp.linalg.eigvalsh(a) * c3)


def eigvecs_fn(a):
    w, v = jnp.linalg.eigh(a)
    return jnp.sum(w * c3) + jnp.sum(m3 * v**2)


grads.append({"fn": "eigvalsh", "a": enc(a3), "c": enc(c3), "grad": enc(jax.grad(eigvals_fn)(a3))})
grads.append({"fn": "eigh", "a": enc(a3), "c": enc(c3), "m": enc(m3), "grad": enc(jax.grad(eigvecs_fn)(a3))})
grads.append({"fn": "eigvalsh hessian", "a": enc(a3), "c": enc(c3), "hessian": enc(jax.hessian(eigvals_fn)(a3))})

for shape in [(4, 3), (3, 4), (3, 3)]:
    a = f32(shape).astype(np.float64)
    k = min(shape)
    c = rng.standard_normal(k)
    mu = rng.standard_normal((shape[0], k))
    mv = rng.standard_normal((k, shape[1]))

    def svals_fn(a, c=c):
        return jnp.sum(jnp.linalg.svd(a, compute_uv=False) * c)

    def svd_fn(a, c=c, mu=mu, mv=mv):
        u, s, vh = jnp.linalg.svd(a, full_matrices=False)
        return jnp.sum(s * c) + jnp.sum(mu * u**2) + jnp.sum(mv * vh**2)

    grads.append({"fn": "svdvals", "a": enc(a), "c": enc(c), "grad": enc(jax.grad(svals_fn)(a))})
    grads.append({
        "fn": "svd", "a": enc(a), "c": enc(c), "mu": enc(mu), "mv": enc(mv),
        "grad": enc(jax.grad(svd_fn)(a)),
    })

OUT.write_text(json.dumps({
    "eigh": eigh_cases,
    "degenerate": degenerate,
    "triangle": lower_case,
    "svd": svd_cases,
    "rankDeficient": rank_deficient,
    "grads": grads,
}, indent=None) + "\n")
print(f"wrote {OUT}")
