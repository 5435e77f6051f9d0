#!/usr/bin/env python3
"""Generates tests/data/numpy_expected.json: inputs and NumPy's outputs for the numpy functions
oxjax implements, the independent oracle of tests/api/numpy.test.mjs.

Run by developers when cases change (`pip install numpy==2.1.3 && python3 scripts/gen_expected.py`);
the JSON is committed, so tests need no Python. Non-finite numbers are written as the strings
"nan", "inf" and "-inf". Each case states its tolerance: 0 for exactly rounded operations,
a relative tolerance for transcendentals and compositions.
"""
import json
import math
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "numpy_expected.json"
rng = np.random.default_rng(20261122)


def enc(a):
    a = np.asarray(a)
    def one(v):
        if a.dtype == np.bool_:
            return bool(v)
        v = float(v)
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    return {"shape": list(a.shape), "dtype": str(a.dtype), "data": [one(v) for v in a.ravel()]}


f32 = np.float32
X = (rng.standard_normal((3, 4)) * 3).astype(f32)
POS = (rng.random((3, 4)) * 10 + 0.1).astype(f32)
UNIT = (rng.random((3, 4)) * 1.98 - 0.99).astype(f32)
BIG = (rng.random((3, 4)) * 10 + 1.01).astype(f32)
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -2.5, 1e-30], dtype=f32)
INTS = rng.integers(-20, 20, (3, 4)).astype(np.int32)
INTS2 = np.where(rng.integers(-9, 9, (3, 4)) == 0, 3, rng.integers(-9, 9, (3, 4))).astype(np.int32)
Y_ROW = (rng.standard_normal((4,)) * 2 + 0.5).astype(f32)

cases = []


def unary(name, fn, x, rtol=0.0, atol=0.0):
    with np.errstate(all="ignore"):
        out = fn(x)
    cases.append({"fn": name, "args": [enc(x)], "out": enc(out), "rtol": rtol, "atol": atol})


def binary(name, fn, x, y, rtol=0.0, atol=0.0, cast=None):
    with np.errstate(all="ignore"):
        out = fn(x, y)
    if cast is not None:
        out = out.astype(cast)
    cases.append({"fn": name, "args": [enc(x), enc(y)], "out": enc(out), "rtol": rtol, "atol": atol})


def reduce(name, fn, x, axis, keepdims=False, rtol=0.0, atol=0.0):
    out = fn(x, axis=axis, keepdims=keepdims)
    cases.append({"fn": name, "args": [enc(x)], "axis": axis if axis is None or isinstance(axis, int) else list(axis),
                  "keepdims": keepdims, "out": enc(out), "rtol": rtol, "atol": atol})


TRANS = 4e-7  # a few float32 ulp
COMPOSED = 1e-5  # compositions of several rounded operations
for name, fn in [("negative", np.negative), ("abs", np.abs), ("floor", np.floor), ("ceil", np.ceil),
                 ("trunc", np.trunc), ("sign", np.sign), ("square", np.square)]:
    unary(name, fn, X)
    unary(name, fn, SPECIAL)
unary("sqrt", np.sqrt, POS)
unary("sqrt", np.sqrt, SPECIAL)
unary("reciprocal", np.reciprocal, X)
for name, fn, x in [("exp", np.exp, X), ("log", np.log, POS), ("sin", np.sin, X), ("cos", np.cos, X),
                    ("arcsin", np.arcsin, UNIT), ("arctan", np.arctan, X), ("tanh", np.tanh, X)]:
    unary(name, fn, x, rtol=TRANS, atol=1e-7)
for name, fn, x in [("exp2", np.exp2, X), ("expm1", np.expm1, X), ("log2", np.log2, POS),
                    ("log10", np.log10, POS), ("log1p", np.log1p, POS), ("tan", np.tan, UNIT),
                    ("arccos", np.arccos, UNIT), ("sinh", np.sinh, UNIT), ("cosh", np.cosh, UNIT),
                    ("arcsinh", np.arcsinh, X), ("arccosh", np.arccosh, BIG), ("arctanh", np.arctanh, UNIT),
                    ("deg2rad", np.deg2rad, X), ("rad2deg", np.rad2deg, X)]:
    unary(name, fn, x, rtol=COMPOSED, atol=1e-6)
for name, fn in [("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)]:
    unary(name, fn, SPECIAL)
    unary(name, fn, INTS)
for name, fn in [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
                 ("divide", np.divide), ("minimum", np.minimum), ("maximum", np.maximum)]:
    binary(name, fn, X, Y_ROW)
binary("floorDivide", np.floor_divide, X, Y_ROW)
binary("remainder", np.remainder, X, Y_ROW, atol=1e-6)
binary("fmod", np.fmod, X, Y_ROW, atol=1e-6)
binary("floorDivide", np.floor_divide, INTS, INTS2)
binary("remainder", np.remainder, INTS, INTS2)
binary("fmod", np.fmod, INTS, INTS2)
binary("divide", np.divide, INTS, INTS2, rtol=1e-7, cast=f32)  # jax-js: int/int is float32
binary("add", np.add, INTS, INTS2)
binary("arctan2", np.arctan2, X, Y_ROW, rtol=COMPOSED, atol=1e-6)
binary("hypot", np.hypot, X, Y_ROW, rtol=COMPOSED)
for name, fn in [("equal", np.equal), ("notEqual", np.not_equal), ("less", np.less),
                 ("lessEqual", np.less_equal), ("greater", np.greater), ("greaterEqual", np.greater_equal)]:
    binary(name, fn, X, Y_ROW)
    binary(name, fn, INTS, INTS2)
A3 = (rng.standard_normal((2, 3, 4))).astype(f32)
M45 = (rng.standard_normal((4, 5))).astype(f32)
V4 = (rng.standard_normal((4,))).astype(f32)
binary("matmul", np.matmul, X, M45, rtol=1e-5, atol=1e-5)
binary("matmul", np.matmul, A3, M45, rtol=1e-5, atol=1e-5)
binary("matmul", np.matmul, X, V4, rtol=1e-5, atol=1e-5)
binary("matmul", np.matmul, V4, M45, rtol=1e-5, atol=1e-5)
binary("matmul", np.matmul, V4, V4, rtol=1e-5, atol=1e-5)
binary("matmul", np.matmul, INTS, INTS2.T.copy())
binary("dot", np.dot, X, M45, rtol=1e-5, atol=1e-5)
binary("dot", np.dot, V4, V4, rtol=1e-5, atol=1e-5)
B1 = X > 0
B2 = Y_ROW > 0
for name, fn in [("logicalAnd", np.logical_and), ("logicalOr", np.logical_or), ("logicalXor", np.logical_xor)]:
    binary(name, fn, B1, B2)
unary("logicalNot", np.logical_not, B1)
for axis in [None, 0, 1, (0, 1), -1]:
    reduce("sum", np.sum, X, axis, rtol=1e-6, atol=1e-6)
    reduce("max", np.max, X, axis)
    reduce("min", np.min, X, axis)
    reduce("prod", np.prod, X, axis, rtol=1e-6)
    reduce("mean", np.mean, X, axis, rtol=1e-6, atol=1e-6)
    reduce("all", np.all, B1, axis)
    reduce("any", np.any, B1, axis)
reduce("sum", np.sum, X, 1, keepdims=True, rtol=1e-6, atol=1e-6)
TIES = np.array([[1, 3, 3, 0], [np.nan, 2, np.nan, 5], [-1, -1, -4, -4]], dtype=f32)
for axis in [None, 0, 1]:
    for name, fn in [("argmax", np.argmax), ("argmin", np.argmin)]:
        for x in [X, TIES]:
            out = fn(x, axis=axis).astype(np.int32)
            cases.append({"fn": name, "args": [enc(x)], "axis": axis, "keepdims": False, "out": enc(out),
                          "rtol": 0.0, "atol": 0.0})
for axis in [None, 0, 1, -1]:
    out = np.cumsum(X, axis=axis)
    cases.append({"fn": "cumsum", "args": [enc(X)], "params": [axis], "out": enc(out), "rtol": 1e-6, "atol": 1e-6})
cases.append({"fn": "cumsum", "args": [enc(INTS)], "params": [1], "out": enc(np.cumsum(INTS, 1)), "rtol": 0, "atol": 0})
cases.append({"fn": "cumprod", "args": [enc(UNIT)], "params": [0], "out": enc(np.cumprod(UNIT, 0)), "rtol": 1e-6, "atol": 1e-7})
reduce("max", np.max, INTS, 0, keepdims=True)
reduce("sum", np.sum, INTS, None)

def creation(name, args, opts, out):
    cases.append({"fn": name, "create": args, "opts": opts, "out": enc(out), "rtol": 0.0, "atol": 0.0})


creation("zeros", [[2, 3]], {}, np.zeros((2, 3), f32))
creation("ones", [[4]], {"dtype": "int32"}, np.ones(4, np.int32))
creation("full", [[2, 2], 7.5], {}, np.full((2, 2), 7.5, f32))
creation("full", [[3], True], {}, np.full(3, True))
creation("eye", [3, None], {}, np.eye(3, dtype=f32))
creation("eye", [2, 4], {"k": 1}, np.eye(2, 4, k=1, dtype=f32))
creation("identity", [2], {"dtype": "int32"}, np.identity(2, dtype=np.int32))
creation("arange", [5, None, 1], {}, np.arange(5, dtype=np.int32))
creation("arange", [2, 11, 3], {}, np.arange(2, 11, 3, dtype=np.int32))
creation("arange", [5, -3, -2], {}, np.arange(5, -3, -2, dtype=np.int32))
creation("arange", [0, 2, 0.25], {}, np.arange(0, 2, 0.25).astype(f32))
creation("linspace", [0, 1, 7, True], {}, np.linspace(0, 1, 7).astype(f32))
creation("linspace", [-2, 3, 4, False], {}, np.linspace(-2, 3, 4, endpoint=False).astype(f32))
creation("linspace", [1, 10, 50, True], {}, np.linspace(1, 10, 50).astype(f32))

def shaped(name, args, params, out, rtol=0.0, atol=0.0):
    """A function of arrays (`args`) and extra positional parameters (`params`)."""
    cases.append({"fn": name, "args": [enc(a) for a in args], "params": params, "out": enc(out),
                  "rtol": rtol, "atol": atol})


shaped("transpose", [A3], [], np.transpose(A3))
shaped("transpose", [A3], [[1, 0, 2]], np.transpose(A3, (1, 0, 2)))
shaped("moveaxis", [A3], [0, -1], np.moveaxis(A3, 0, -1))
shaped("swapaxes", [A3], [0, 2], np.swapaxes(A3, 0, 2))
shaped("broadcastTo", [Y_ROW], [[3, 4]], np.broadcast_to(Y_ROW, (3, 4)))
shaped("expandDims", [X], [1], np.expand_dims(X, 1))
shaped("expandDims", [X], [[0, -1]], np.expand_dims(X, (0, -1)))
shaped("squeeze", [X.reshape(3, 1, 4, 1)], [], np.squeeze(X.reshape(3, 1, 4, 1)))
shaped("flip", [A3], [], np.flip(A3))
shaped("flip", [A3], [[0, 2]], np.flip(A3, (0, 2)))
shaped("tile", [Y_ROW.reshape(2, 2)], [[2, 3]], np.tile(Y_ROW.reshape(2, 2), (2, 3)))
shaped("reshape", [A3], [[4, -1]], A3.reshape(4, -1))
shaped("ravel", [np.transpose(A3).copy()], [], np.ravel(np.transpose(A3)))
# Views feeding kernels: a transposed, flipped or broadcast operand read in place.
cases.append({"fn": "compose", "steps": "transpose-add", "args": [enc(X), enc(X.T.copy())],
              "out": enc(X.T + X.T), "rtol": 0.0, "atol": 0.0})
shaped("concatenate", [X, X[:2]], [0], np.concatenate([X, X[:2]], 0), )
shaped("concatenate", [X, M45.T[:3]], [1], np.concatenate([X, M45.T[:3]], 1))
shaped("stack", [X, X * 2], [1], np.stack([X, X * 2], 1))
shaped("vstack", [Y_ROW, Y_ROW], [], np.vstack([Y_ROW, Y_ROW]))
shaped("hstack", [Y_ROW, Y_ROW], [], np.hstack([Y_ROW, Y_ROW]))

N34 = (rng.standard_normal((2, 4, 3))).astype(f32)
for spec, ops in [("ij,jk->ik", [X, M45]), ("nij,njk->nik", [A3, N34]), ("ij->ji", [X]), ("ij->", [X]),
                  ("ij->j", [X]), ("i,i->", [V4, V4]), ("i,j->ij", [V4, Y_ROW]), ("ij,kj->ik", [X, X]),
                  ("ij,jk,kl->il", [X, M45, M45.T.copy()]), ("bij,bjk", [A3, N34])]:
    cases.append({"fn": "einsum", "spec": spec, "args": [enc(o) for o in ops],
                  "out": enc(np.einsum(spec, *ops)), "rtol": 1e-5, "atol": 1e-5})

# Array.slice(...) in jax-js notation, with NumPy's equivalent.
for src, index, out in [(A3, [1], A3[1]), (A3, [[], [1, 3]], A3[:, 1:3]),
                        (A3, [None, -1, [2]], A3[None, -1, 2:]), (X, [[], 2], X[:, 2]),
                        (A3, [[0, 1], None, [], -2], A3[0:1, None, :, -2]), (X, [[-2]], X[-2:])]:
    cases.append({"fn": "slice", "args": [enc(src)], "index": index, "out": enc(out), "rtol": 0.0, "atol": 0.0})
# Advanced indexing: {"array": k} in an index list stands for integer array k of "arrays".
I1 = np.array([2, 0, -1, 1], np.int32)
I2 = np.array([[0, 1], [2, 2]], np.int32)
for src, index, arrays, out in [(X, [{"array": 0}], [I1], X[I1]), (A3, [[], {"array": 0}], [I2], A3[:, I2]),
                                (A3, [{"array": 0}, {"array": 1}], [I1[:2] % 2, I1[:2] % 3], A3[I1[:2] % 2, I1[:2] % 3]),
                                (A3, [{"array": 0}, [], {"array": 1}], [np.array([1, 0], np.int32), np.array([3, 2], np.int32)],
                                 A3[np.array([1, 0]), :, np.array([3, 2])]),
                                (A3, [1, {"array": 0}], [I2], A3[1, I2])]:
    cases.append({"fn": "slice", "args": [enc(src)], "index": index, "arrays": [enc(a) for a in arrays],
                  "out": enc(out), "rtol": 0.0, "atol": 0.0})

SQ = (rng.standard_normal((4, 4))).astype(f32)
for name, fn, args, params in [
    ("power", np.power, [X, Y_ROW], []), ("power", np.power, [POS, X], []),
    ("diagonal", np.diagonal, [SQ], []), ("diagonal", np.diagonal, [X], [1]), ("diagonal", np.diagonal, [X], [-1]),
    ("diagonal", np.diagonal, [A3], [0, 1, 2]), ("trace", np.trace, [SQ], []), ("trace", np.trace, [X], [1]),
    ("diag", np.diag, [V4], []), ("diag", np.diag, [V4], [2]), ("diag", np.diag, [V4], [-1]), ("diag", np.diag, [X], [1]),
    ("tril", np.tril, [X], []), ("tril", np.tril, [A3], [-1]), ("triu", np.triu, [X], [1]), ("triu", np.triu, [SQ], [])]:
    with np.errstate(all="ignore"):
        out = fn(*args, *params)
    cases.append({"fn": name, "args": [enc(a) for a in args], "params": params, "out": enc(out),
                  "rtol": 1e-5 if name in ("power", "trace") else 0.0, "atol": 1e-6 if name in ("power", "trace") else 0.0})
for x in [(X * 1.5).round().astype(f32), NEGS := np.array([-2.0, -1.5, 0.0, 3.0], f32)]:
    for y in [2, 3, -1, 0, 0.5, 1.5]:
        with np.errstate(all="ignore"):
            out = np.power(x, f32(y))
        cases.append({"fn": "power", "args": [enc(x)], "params": [y], "out": enc(out),
                      "rtol": 1e-6, "atol": 1e-7})
for axis, ddof in [(None, 0), (0, 0), (1, 1), (None, 1)]:
    for name, fn in [("var_", np.var), ("std", np.std)]:
        cases.append({"fn": name, "args": [enc(X)], "params": [axis, {"correction": ddof}],
                      "out": enc(fn(X, axis=axis, ddof=ddof)), "rtol": 1e-5, "atol": 1e-6})

SORTME = np.array([[3, 1, np.nan, 1, -0.5, 2], [0, -np.inf, 5, 5, np.inf, -2]], f32)
for x in [X, SORTME, INTS]:
    for axis in [-1, 0]:
        cases.append({"fn": "sort", "args": [enc(x)], "params": [axis], "out": enc(np.sort(x, axis=axis)),
                      "rtol": 0.0, "atol": 0.0})
        idx = np.argsort(x, axis=axis, kind="stable").astype(np.int32)
        cases.append({"fn": "argsort", "args": [enc(x)], "params": [axis], "out": enc(idx), "rtol": 0.0, "atol": 0.0})

A1 = rng.standard_normal(7).astype(f32)
B1 = rng.standard_normal(3).astype(f32)
for mode in ["full", "same", "valid"]:
    for name, fn in [("convolve", np.convolve), ("correlate", np.correlate)]:
        for a, b in [(A1, B1), (B1, A1)] if name == "convolve" else [(A1, B1)]:
            cases.append({"fn": name, "args": [enc(a), enc(b)], "params": [mode], "out": enc(fn(a, b, mode)),
                          "rtol": 1e-5, "atol": 1e-6})


def conv_oracle(lhs, rhs, strides, padding, lhs_dil, rhs_dil, groups):
    """Naive conv_general_dilated in NumPy (float64), independent of oxjax's kernel."""
    n, c = lhs.shape[:2]
    o, cg = rhs.shape[:2]
    sp = lhs.shape[2:]
    # Dilate and pad the input explicitly.
    dil_shape = [(s - 1) * d + 1 for s, d in zip(sp, lhs_dil)]
    x = np.zeros((n, c, *dil_shape))
    x[(slice(None), slice(None), *[slice(None, None, d) for d in lhs_dil])] = lhs
    pads = [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    x = np.pad(x, [(0, 0), (0, 0), *pads])
    crop = tuple(slice(max(-lo, 0), x.shape[2 + i] - max(-hi, 0)) for i, (lo, hi) in enumerate(padding))
    x = x[(slice(None), slice(None), *crop)]
    k = np.zeros((o, cg, *[(s - 1) * d + 1 for s, d in zip(rhs.shape[2:], rhs_dil)]))
    k[(slice(None), slice(None), *[slice(None, None, d) for d in rhs_dil])] = rhs
    out_sp = [(x.shape[2 + i] - k.shape[2 + i]) // strides[i] + 1 for i in range(len(sp))]
    out = np.zeros((n, o, *out_sp))
    for idx in np.ndindex(*out_sp):
        window = tuple(slice(i * s, i * s + kk) for i, s, kk in zip(idx, strides, k.shape[2:]))
        patch = x[(slice(None), slice(None), *window)]
        for oc in range(o):
            g = oc // (o // groups)
            out[(slice(None), oc, *idx)] = np.sum(patch[:, g * cg:(g + 1) * cg] * k[oc], axis=tuple(range(1, patch.ndim)))
    return out.astype(f32)


L2 = rng.standard_normal((2, 4, 6, 5)).astype(f32)
K2 = rng.standard_normal((6, 2, 3, 2)).astype(f32)
K1 = rng.standard_normal((3, 4, 3, 3)).astype(f32)
for lhs, rhs, strides, padding, lhs_dil, rhs_dil, groups in [
    (L2, K1, [1, 1], [[0, 0], [0, 0]], [1, 1], [1, 1], 1),
    (L2, K1, [2, 1], [[1, 1], [2, 0]], [1, 1], [1, 1], 1),
    (L2, K1, [1, 1], [[1, 2], [1, 1]], [2, 1], [1, 2], 1),
    (L2, K2, [1, 2], [[0, 1], [-1, 1]], [1, 1], [1, 1], 2),
]:
    cases.append({"fn": "convGeneralDilated", "args": [enc(lhs), enc(rhs)],
                  "params": [strides, padding, {"lhsDilation": lhs_dil, "rhsDilation": rhs_dil, "featureGroupCount": groups}],
                  "out": enc(conv_oracle(lhs, rhs, strides, padding, lhs_dil, rhs_dil, groups)), "rtol": 1e-4, "atol": 1e-5})
# SAME padding: the explicit pads JAX computes for it (lo = total // 2).
cases.append({"fn": "convGeneralDilated", "args": [enc(L2), enc(K1)], "params": [[2, 2], "SAME", {}],
              "out": enc(conv_oracle(L2, K1, [2, 2], [[0, 1], [1, 1]], [1, 1], [1, 1], 1)), "rtol": 1e-4, "atol": 1e-5})

OUT.parent.mkdir(exist_ok=True)
OUT.write_text(json.dumps({"generator": "scripts/gen_expected.py", "numpy": np.__version__, "cases": cases}, indent=None) + "\n")
print(f"wrote {len(cases)} cases to {OUT}")
