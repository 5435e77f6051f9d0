#!/usr/bin/env python3
"""Generates tests/data/linalg_expected.json: inputs and NumPy/SciPy outputs for oxjax's
lax.linalg, numpy.linalg and scipyLinalg functions, the oracle of tests/api/linalg.test.mjs.

Run by developers when cases change (`pip install numpy==2.1.3 scipy && python3
scripts/gen_linalg_expected.py`); the JSON is committed. Inputs are float32 (or float64 where a
case says so); expected values are computed in float64 from exactly those inputs. Each case
names the oxjax function (`ns.fn`), its array arguments, its options object and a tolerance.
"""
import json
import math
from pathlib import Path

import numpy as np
import scipy.linalg as sl

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "linalg_expected.json"
rng = np.random.default_rng(20261122)
cases = []


def enc(a, dtype=None):
    """The array as JSON; `dtype` labels float64-computed values with the dtype oxjax returns."""
    a = np.asarray(a)

    def one(v):
        v = float(v)
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v

    dtype = dtype or {"int64": "int32"}.get(str(a.dtype), str(a.dtype))
    return {"shape": list(a.shape), "dtype": dtype, "data": [one(v) for v in a.ravel()]}


def add(fn, args, out, opts=None, rtol=2e-4, atol=2e-5, out_dtypes=None, params=None, as_list=False):
    """A case; float outputs take the dtype of the first argument unless `out_dtypes` says."""
    outs = out if isinstance(out, tuple) else (out,)
    dtypes = out_dtypes or [str(np.asarray(args[0]).dtype)] * len(outs)
    encoded = [enc(o, d) for o, d in zip(outs, dtypes)]
    cases.append({
        "fn": fn,
        "args": [enc(a) for a in args],
        "opts": opts or {},
        "out": encoded if isinstance(out, tuple) else encoded[0],
        "rtol": rtol,
        "atol": atol,
    })
    if params is not None:
        cases[-1]["params"] = params  # positional arguments after the arrays (no options)
    if as_list:
        cases[-1]["list"] = True  # the arrays are passed as one list


def spd(shape, dtype=np.float32):
    """Well-conditioned symmetric positive definite matrices."""
    n = shape[-1]
    x = rng.standard_normal(shape)
    a = x @ np.swapaxes(x, -1, -2) / n + np.eye(n)
    return a.astype(dtype)


def tri(shape, lower, unit=False, dtype=np.float32):
    """Triangular matrices with a dominant diagonal (the other triangle holds junk that a
    correct solve never reads)."""
    n = shape[-1]
    a = rng.standard_normal(shape)
    a += np.eye(n) * (2.5 + rng.random(shape[:-1])[..., None])
    junk = rng.standard_normal(shape) * 100
    keep = np.tril(np.ones((n, n)), 0) if lower else np.triu(np.ones((n, n)), 0)
    if unit:
        a = np.where(np.eye(n) > 0, 1000.0, a)  # never read with unitDiagonal
    return np.where(keep > 0, a, junk).astype(dtype)


def f64(a):
    return np.asarray(a, dtype=np.float64)


# --- Cholesky -------------------------------------------------------------------------------
for shape in [(1, 1), (2, 2), (3, 3), (5, 5), (8, 8), (2, 3, 4, 4), (0, 3, 3)]:
    a = spd(shape)
    # The upper triangle holds junk that lax.linalg.cholesky must not read.
    junk = np.where(np.triu(np.ones(shape[-2:]), 1) > 0, 77.0, a).astype(np.float32)
    add("lax.linalg.cholesky", [junk], np.linalg.cholesky(f64(a)))
    add("lax.linalg.cholesky", [junk], np.swapaxes(np.linalg.cholesky(f64(a)), -1, -2),
        {"upper": True})
    add("numpy.linalg.cholesky", [a], np.linalg.cholesky(f64(a)))
a = spd((4, 4), np.float64)
add("numpy.linalg.cholesky", [a], np.linalg.cholesky(a), rtol=1e-12, atol=1e-12)
# symmetrizeInput: (a + aᵀ)/2 is factored; without it the lower triangle is.
a = spd((4, 4))
skew = (a + np.triu(rng.standard_normal((4, 4)) * 0.1, 1)).astype(np.float32)
add("numpy.linalg.cholesky", [skew], np.linalg.cholesky((f64(skew) + f64(skew).T) / 2))
add("numpy.linalg.cholesky", [skew], np.linalg.cholesky(np.tril(f64(skew)) + np.tril(f64(skew), -1).T),
    {"symmetrizeInput": False})
add("numpy.linalg.cholesky", [a], np.linalg.cholesky(f64(a)).T, {"upper": True})
# Not positive definite: NaN from the first failing pivot on, as jax-js (JAX: all NaN).
bad = np.array([[1.0, 2.0], [2.0, 1.0]], dtype=np.float32)
add("numpy.linalg.cholesky", [bad], np.array([[1.0, 0.0], [2.0, np.nan]]))
add("scipyLinalg.cholesky", [a], sl.cholesky(f64(a)))
add("scipyLinalg.cholesky", [a], sl.cholesky(f64(a), lower=True), {"lower": True})

# --- Triangular solves ----------------------------------------------------------------------
for left in [True, False]:
    for lower in [True, False]:
        for trans in [False, True]:
            for unit in [False, True]:
                k, other = 4, 3
                a = tri((k, k), lower, unit)
                b = rng.standard_normal((k, other) if left else (other, k)).astype(np.float32)
                t = f64(a)
                t = np.tril(t) if lower else np.triu(t)
                if unit:
                    t = np.where(np.eye(k) > 0, 1.0, t)
                op = t.T if trans else t
                x = np.linalg.solve(op, f64(b)) if left else np.linalg.solve(op.T, f64(b).T).T
                add("lax.linalg.triangularSolve", [a, b], x,
                    {"leftSide": left, "lower": lower, "transposeA": trans, "unitDiagonal": unit})
# Batched, with broadcast batch axes, and the jax-js defaults (right side, upper).
a = tri((2, 3, 3), True)
b = rng.standard_normal((2, 3, 2)).astype(np.float32)
add("lax.linalg.triangularSolve", [a, b], np.linalg.solve(np.tril(f64(a)), f64(b)),
    {"leftSide": True, "lower": True})
a = tri((3, 3), False)
b = rng.standard_normal((2, 5, 3)).astype(np.float32)
add("lax.linalg.triangularSolve", [a, b], f64(b) @ np.linalg.inv(np.triu(f64(a))))
a = tri((5, 5), False, dtype=np.float64)
b = rng.standard_normal((5, 2))
add("scipyLinalg.solveTriangular", [a, b], sl.solve_triangular(a, b), rtol=1e-12, atol=1e-12)
a = tri((5, 5), True)
b = rng.standard_normal((5,)).astype(np.float32)
add("scipyLinalg.solveTriangular", [a, b], sl.solve_triangular(f64(a), f64(b), lower=True, trans=1),
    {"lower": True, "trans": 1})
add("scipyLinalg.solveTriangular", [a, b], sl.solve_triangular(f64(a), f64(b), lower=True, trans="T"),
    {"lower": True, "trans": "T"})

# --- LU and what is built on it ------------------------------------------------------------
def lu_ref(a):
    """LAPACK's getrf on each matrix: (lu, pivots, permutation)."""
    a = f64(a)
    batch = a.shape[:-2]
    m, n = a.shape[-2:]
    flat = a.reshape((-1, m, n))
    lus, pivs, perms = [], [], []
    for x in flat:
        lu, piv, info = sl.lapack.dgetrf(x)
        perm = list(range(m))
        for j, p in enumerate(piv):
            perm[j], perm[p] = perm[p], perm[j]
        lus.append(lu)
        pivs.append(piv)
        perms.append(perm)
    k = min(m, n)
    return (np.array(lus).reshape(a.shape), np.array(pivs).reshape(batch + (k,)),
            np.array(perms).reshape(batch + (m,)))


for shape in [(1, 1), (4, 4), (2, 3, 5, 5), (5, 3), (3, 5)]:
    a = rng.standard_normal(shape).astype(np.float32)
    add("lax.linalg.lu", [a], lu_ref(a), params=[], out_dtypes=["float32", "int32", "int32"])
a = rng.standard_normal((4, 4))
add("lax.linalg.lu", [a], lu_ref(a), params=[], out_dtypes=["float64", "int32", "int32"],
    rtol=1e-12, atol=1e-12)
# A zero column: the pivot is zero and the column is left unscaled (LAPACK).
z = np.array([[0.0, 1.0, 2.0], [0.0, 3.0, 4.0], [0.0, 5.0, 7.0]], dtype=np.float32)
add("lax.linalg.lu", [z], lu_ref(z), params=[], out_dtypes=["float32", "int32", "int32"])

def wellcond(shape, dtype=np.float32):
    n = shape[-1]
    return (rng.standard_normal(shape) + np.eye(n) * 2).astype(dtype)


A = wellcond((4, 4))
for b in [rng.standard_normal((4,)), rng.standard_normal((4, 3)), rng.standard_normal((2, 4, 2))]:
    b = b.astype(np.float32)
    add("numpy.linalg.solve", [A, b], np.linalg.solve(f64(A), f64(b)),
        params=[])
Ab = wellcond((2, 3, 3))
bb = rng.standard_normal((3, 1)).astype(np.float32)
add("numpy.linalg.solve", [Ab, bb], np.linalg.solve(f64(Ab), np.broadcast_to(f64(bb), (2, 3, 1))), params=[])
A64 = wellcond((5, 5), np.float64)
b64 = rng.standard_normal((5, 2))
add("numpy.linalg.solve", [A64, b64], np.linalg.solve(A64, b64), params=[], rtol=1e-12, atol=1e-12)
for a in [wellcond((3, 3)), wellcond((2, 4, 4)), np.array([[0.0, 2.0], [3.0, 1.0]], dtype=np.float32)]:
    add("numpy.linalg.inv", [a], np.linalg.inv(f64(a)), params=[])
    add("numpy.linalg.det", [a], np.linalg.det(f64(a)), params=[])
    sign, logdet = np.linalg.slogdet(f64(a))
    add("numpy.linalg.slogdet", [a], (sign, logdet), params=[])
sing = np.array([[1.0, 2.0], [2.0, 4.0]], dtype=np.float32)
add("numpy.linalg.det", [sing], np.linalg.det(f64(sing)), params=[], atol=1e-6)
add("numpy.linalg.slogdet", [sing], (np.array(0.0), np.array(-np.inf)), params=[])
M2 = wellcond((3, 3)) * 0.5
for p in [-1, -3]:
    add("numpy.linalg.matrixPower", [M2], np.linalg.matrix_power(f64(M2), p), params=[p], rtol=1e-3)

# --- QR (LAPACK's sign convention) ----------------------------------------------------------
for shape in [(4, 3), (3, 4), (3, 3), (2, 4, 3)]:
    a = rng.standard_normal(shape).astype(np.float32)
    add("numpy.linalg.qr", [a], tuple(np.linalg.qr(f64(a))), rtol=1e-3, atol=1e-4)
    add("numpy.linalg.qr", [a], tuple(np.linalg.qr(f64(a), mode="complete")), {"mode": "complete"},
        rtol=1e-3, atol=1e-4)
    add("lax.linalg.qr", [a], tuple(np.linalg.qr(f64(a), mode="complete")), rtol=1e-3, atol=1e-4)
    add("lax.linalg.qr", [a], tuple(np.linalg.qr(f64(a))), {"fullMatrices": False}, rtol=1e-3, atol=1e-4)

# --- Norms and products ---------------------------------------------------------------------
X = rng.standard_normal((3, 4)).astype(np.float32)
X3 = rng.standard_normal((2, 3, 4)).astype(np.float32)
for ord_ in [2, 1, np.inf, -np.inf, 0, 3]:
    add("numpy.linalg.vectorNorm", [X], np.linalg.vector_norm(f64(X), ord=ord_),
        {"ord": float(ord_) if np.isfinite(ord_) else ("inf" if ord_ > 0 else "-inf")})
add("numpy.linalg.vectorNorm", [X3], np.linalg.vector_norm(f64(X3), axis=(0, 2), keepdims=True),
    {"axis": [0, 2], "keepdims": True})
add("numpy.linalg.vectorNorm", [X3], np.linalg.vector_norm(f64(X3), ord=1, axis=-1), {"ord": 1, "axis": -1})
for ord_ in ["fro", 1, -1, np.inf, -np.inf]:
    o = ord_ if isinstance(ord_, str) or np.isfinite(ord_) else ("inf" if ord_ > 0 else "-inf")
    add("numpy.linalg.matrixNorm", [X3], np.linalg.matrix_norm(f64(X3), ord=ord_), {"ord": o})
add("numpy.linalg.matrixNorm", [X3], np.linalg.matrix_norm(f64(X3), keepdims=True), {"keepdims": True})
add("numpy.linalg.norm", [X3], np.linalg.norm(f64(X3)))
add("numpy.linalg.norm", [X], np.linalg.norm(f64(X), "fro"), {"ord": "fro"})
add("numpy.linalg.norm", [X], np.linalg.norm(f64(X), 1), {"ord": 1})
add("numpy.linalg.norm", [X3], np.linalg.norm(f64(X3), 1, axis=1), {"ord": 1, "axis": 1})
add("numpy.linalg.norm", [X3], np.linalg.norm(f64(X3), np.inf, axis=(2, 0), keepdims=True),
    {"ord": "inf", "axis": [2, 0], "keepdims": True})
U3 = rng.standard_normal((4, 3)).astype(np.float32)
V3 = rng.standard_normal((4, 3)).astype(np.float32)
add("numpy.linalg.cross", [U3, V3], np.cross(f64(U3), f64(V3)), params=[])
add("numpy.linalg.cross", [U3[0], V3], np.cross(f64(U3[0]), f64(V3)), params=[])
add("numpy.linalg.cross", [U3.T.copy(), V3.T.copy()], np.cross(f64(U3.T), f64(V3.T), axis=0), params=[0])
A1 = rng.standard_normal((3, 4)).astype(np.float32)
A2 = rng.standard_normal((4, 5)).astype(np.float32)
A3 = rng.standard_normal((5, 2)).astype(np.float32)
add("numpy.linalg.multiDot", [A1, A2, A3], np.linalg.multi_dot([f64(A1), f64(A2), f64(A3)]), as_list=True)
add("numpy.linalg.multiDot", [A2[:, 0].copy(), A2, A3[:, 0].copy()],
    np.linalg.multi_dot([f64(A2[:, 0]), f64(A2), f64(A3[:, 0])]), as_list=True)
M = (rng.standard_normal((2, 3, 3)) * 0.5).astype(np.float32)
for p in [0, 1, 2, 5]:
    add("numpy.linalg.matrixPower", [M], np.linalg.matrix_power(f64(M), p), params=[p])
T = rng.standard_normal((6, 3)).astype(np.float32)
bt = rng.standard_normal((6, 2)).astype(np.float32)
add("numpy.linalg.lstsq", [T, bt], np.linalg.lstsq(f64(T), f64(bt), rcond=None)[0], params=[])
W = rng.standard_normal((3, 6)).astype(np.float32)
bw = rng.standard_normal((3,)).astype(np.float32)
add("numpy.linalg.lstsq", [W, bw], np.linalg.lstsq(f64(W), f64(bw), rcond=None)[0], params=[])

# --- A Kalman filter (cholesky + triangular solves), 3 steps, state sizes 2..8 -----------------
# Twin of `kalman` in tests/api/linalg_grad.test.mjs. Column-vector means; U = L⁻¹ H P gives
# the gain K = (L⁻ᵀ U)ᵀ and the covariance update P - UᵀU.
kalman = []
for n in range(2, 9):
    k = (n + 1) // 2
    F = np.eye(n) + rng.standard_normal((n, n)) * 0.1
    Q = spd((n, n), np.float64) * 0.1
    H = rng.standard_normal((k, n))
    R = spd((k, k), np.float64) * 0.5
    m0 = rng.standard_normal((n, 1))
    P0 = spd((n, n), np.float64)
    ys = rng.standard_normal((3, k, 1))
    m, P, ll = m0, P0, 0.0
    for y in ys:
        m = F @ m
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        L = np.linalg.cholesky(S)
        v = y - H @ m
        z = np.linalg.solve(L, v)
        ll += -0.5 * float((z.T @ z)[0, 0]) - float(np.sum(np.log(np.diag(L)))) - k / 2 * math.log(2 * math.pi)
        U = np.linalg.solve(L, H @ P)
        K = np.linalg.solve(L.T, U).T
        m = m + K @ v
        P = P - U.T @ U
    kalman.append({"n": n, "inputs": {name: enc(x) for name, x in
                                      [("F", F), ("Q", Q), ("H", H), ("R", R), ("m0", m0), ("P0", P0), ("ys", ys)]},
                   "m": enc(m), "P": enc(P), "ll": ll})

# Matrix norms of orders 2, -2 and nuc (through oxjax's svdvals); drawn last so the cases above
# keep their inputs.
XN = rng.standard_normal((2, 3, 4)).astype(np.float32)
for ord_ in [2, -2, "nuc"]:
    add("numpy.linalg.matrixNorm", [XN], np.linalg.matrix_norm(f64(XN), ord=ord_), {"ord": ord_})
add("numpy.linalg.norm", [XN], np.linalg.norm(f64(XN), 2, axis=(2, 0), keepdims=True),
    {"ord": 2, "axis": [2, 0], "keepdims": True})

OUT.write_text(json.dumps({"cases": cases, "kalman": kalman}, separators=(",", ":")) + "\n")
print(f"wrote {len(cases)} cases to {OUT}")
