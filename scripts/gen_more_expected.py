#!/usr/bin/env python3
"""Generates tests/data/numpy_more_expected.json: NumPy's outputs for the second wave of numpy
functions (elementwise extras, NaN reductions, shape helpers, products, polynomials, windows)
and numpy.fft, the oracle of tests/api/numpy_more.test.mjs.

Run by developers (`pip install numpy==2.1.3 && python3 scripts/gen_more_expected.py`); the JSON
is committed. Same case format as scripts/gen_expected.py, plus "outs" for functions returning
several arrays; "fft" cases hold {real, imag} pairs.
"""
import json
import math
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "numpy_more_expected.json"
rng = np.random.default_rng(20261123)
f32 = np.float32


def enc(a):
    a = np.asarray(a)
    if a.dtype == np.int64:
        a = a.astype(np.int32)

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


cases = []


def case(fn, args, params, out, rtol=0.0, atol=0.0, **extra):
    c = {"fn": fn, "args": [enc(a) for a in args], "params": params, "rtol": rtol, "atol": atol, **extra}
    if isinstance(out, (list, tuple)):
        c["outs"] = [enc(o) for o in out]
    else:
        c["out"] = enc(out)
    cases.append(c)


def reduce(fn, x, axis, out, rtol=0.0, atol=0.0, keepdims=False):
    cases.append({"fn": fn, "args": [enc(x)], "axis": axis if axis is None or isinstance(axis, int) else list(axis),
                  "keepdims": keepdims, "out": enc(out), "rtol": rtol, "atol": atol})


X = (rng.standard_normal((3, 4)) * 3).astype(f32)
Y = (rng.standard_normal((4,)) * 2 + 0.5).astype(f32)
POS = (rng.random((3, 4)) * 10 + 0.1).astype(f32)
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -2.5, 1e-30], f32)
A8 = (rng.standard_normal(8) * 2).astype(f32)
INTS = rng.integers(-20, 20, (3, 4)).astype(np.int32)
INTS2 = np.where(rng.integers(-9, 9, (3, 4)) == 0, 3, rng.integers(-9, 9, (3, 4))).astype(np.int32)
SHIFTS = rng.integers(0, 6, (3, 4)).astype(np.int32)
NANX = X.copy()
NANX[0, 1] = np.nan
NANX[2, 3] = np.nan
NANX[1, :] = np.nan
A3 = rng.standard_normal((2, 3, 4)).astype(f32)
M45 = rng.standard_normal((4, 5)).astype(f32)
N34 = rng.standard_normal((2, 4, 3)).astype(f32)
V4 = rng.standard_normal(4).astype(f32)
TRANS, COMPOSED = 1e-6, 1e-5

with np.errstate(all="ignore"):
    # Elementwise.
    for x in [X, SPECIAL]:
        case("cbrt", [x], [], np.cbrt(x), rtol=TRANS, atol=1e-7)
    SINC = np.array([0.0, 0.5, -1.0, 2.5, 1e-4, -3.25], f32)
    case("sinc", [SINC], [], np.sinc(SINC), rtol=COMPOSED, atol=1e-6)
    case("sinc", [X], [], np.sinc(X), rtol=COMPOSED, atol=1e-6)
    case("heaviside", [SPECIAL], [0.5], np.heaviside(SPECIAL, f32(0.5)))
    case("copysign", [X, Y], [], np.copysign(X, Y))
    case("copysign", [A8, SPECIAL], [], np.copysign(A8, np.where(np.isnan(SPECIAL), 1, SPECIAL).astype(f32)))
    for fn, np_fn in [("signbit", np.signbit), ("isposinf", np.isposinf), ("isneginf", np.isneginf)]:
        case(fn, [SPECIAL], [], np_fn(SPECIAL))
    for fn, np_fn in [("logaddexp", np.logaddexp), ("logaddexp2", np.logaddexp2)]:
        case(fn, [X, Y], [], np_fn(X, Y), rtol=COMPOSED, atol=1e-6)
        I1 = np.array([-np.inf, np.inf, -np.inf, 3.0], f32)
        I2 = np.array([-np.inf, np.inf, 1.0, -np.inf], f32)
        case(fn, [I1, I2], [], np_fn(I1, I2), rtol=COMPOSED, atol=1e-6)
    N1 = np.array([1.0, np.nan, np.nan, -2.0, 0.5], f32)
    N2 = np.array([np.nan, 3.0, np.nan, -1.0, 0.25], f32)
    case("fmax", [N1, N2], [], np.fmax(N1, N2))
    case("fmin", [N1, N2], [], np.fmin(N1, N2))
    R = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7, -3.2, 16777215.0, np.inf, np.nan, -0.0], f32)
    for fn in ["rint", "round", "around"]:
        case(fn, [R], [], np.rint(R))
    case("round", [X], [2], np.round(X, 2), rtol=1e-6, atol=1e-7)
    case("round", [INTS], [], INTS)
    case("ldexp", [X, INTS], [], np.ldexp(X, INTS))
    case("ldexp", [X], [3], np.ldexp(X, 3))
    case("floatPower", [POS, X], [], np.float_power(POS, X).astype(f32), rtol=COMPOSED, atol=1e-30)
    for fn, np_fn in [("bitwiseAnd", np.bitwise_and), ("bitwiseOr", np.bitwise_or), ("bitwiseXor", np.bitwise_xor)]:
        case(fn, [INTS, INTS2], [], np_fn(INTS, INTS2))
    case("leftShift", [INTS, SHIFTS], [], np.left_shift(INTS, SHIFTS))
    case("rightShift", [INTS, SHIFTS], [], np.right_shift(INTS, SHIFTS))
    case("bitwiseLeftShift", [INTS], [3], np.left_shift(INTS, 3))
    for fn in ["bitwiseNot", "invert", "bitwiseInvert"]:
        case(fn, [INTS], [], np.invert(INTS))
    case("bitwiseCount", [np.abs(INTS)], [], np.bitwise_count(np.abs(INTS)).astype(np.int32))
    case("nanToNum", [SPECIAL], [], np.nan_to_num(SPECIAL))
    case("nanToNum", [SPECIAL], [{"nan": 1, "posinf": 2, "neginf": -3}], np.nan_to_num(SPECIAL, nan=1, posinf=2, neginf=-3))
    FR = np.concatenate([X.ravel(), SPECIAL, np.array([1e-40, -3e-39, 0.75, 1.0], f32)])
    m, e = np.frexp(FR)
    case("frexp", [FR], [], [m, e.astype(np.int32)])
    case("modf", [X], [], list(np.modf(X)))
    case("divmod", [X, Y], [], list(np.divmod(X, Y)), atol=1e-6)

    # Reductions.
    for axis in [None, 0, 1]:
        reduce("ptp", X, axis, np.ptp(X, axis=axis))
        reduce("countNonzero", INTS % 3, axis, np.count_nonzero(INTS % 3, axis=axis))
        for fn, np_fn, tol in [("nansum", np.nansum, 1e-6), ("nanprod", np.nanprod, 1e-6), ("nanmax", np.nanmax, 0),
                               ("nanmin", np.nanmin, 0), ("nanmean", np.nanmean, 1e-6), ("nanvar", np.nanvar, 1e-5),
                               ("nanstd", np.nanstd, 1e-5)]:
            reduce(fn, NANX, axis, np_fn(NANX, axis=axis), rtol=tol, atol=tol)
    reduce("nansum", NANX, 1, np.nansum(NANX, axis=1, keepdims=True), rtol=1e-6, atol=1e-6, keepdims=True)
    NOTALL = X.copy()
    NOTALL[0, 1] = np.nan
    for axis in [None, 0, 1]:
        case("nanargmax", [NOTALL], [axis], np.nanargmax(NOTALL, axis=axis))
        case("nanargmin", [NOTALL], [axis], np.nanargmin(NOTALL, axis=axis))
        case("nancumsum", [NANX], [axis], np.nancumsum(NANX, axis=axis), rtol=1e-6, atol=1e-6)
        case("nancumprod", [NANX], [axis], np.nancumprod(NANX, axis=axis), rtol=1e-6, atol=1e-6)
    case("cumulativeProd", [POS], [1], np.cumprod(POS, axis=1), rtol=1e-6)
    W = rng.random(4).astype(f32) + 0.1
    case("average", [X], [1], np.average(X, axis=1), rtol=1e-6, atol=1e-6)
    case("average", [X, W], [1], np.average(X, axis=1, weights=W), rtol=1e-5, atol=1e-6, weightsArg=True)
    case("average", [X, POS], [None], np.average(X, weights=POS), rtol=1e-5, atol=1e-6, weightsArg=True)
    case("cov", [X], [], np.cov(X).astype(f32), rtol=1e-5, atol=1e-6)
    case("cov", [X], [None, {"rowvar": False}], np.cov(X, rowvar=False).astype(f32), rtol=1e-5, atol=1e-6)
    case("cov", [X[0], X[1]], [], np.cov(X[0], X[1]).astype(f32), rtol=1e-5, atol=1e-6)
    case("corrcoef", [X], [], np.corrcoef(X).astype(f32), rtol=1e-5, atol=1e-6)

    # Shapes and indexing.
    case("repeat", [X], [2, 1], np.repeat(X, 2, 1))
    case("repeat", [X], [3], np.repeat(X, 3))
    case("pad", [X], [[[1, 2], [0, 1]]], np.pad(X, [[1, 2], [0, 1]]))
    case("pad", [X], [1], np.pad(X, 1))
    case("roll", [X], [2], np.roll(X, 2))
    case("roll", [X], [-1, 1], np.roll(X, -1, 1))
    case("roll", [X], [[1, 2], [0, 1]], np.roll(X, (1, 2), (0, 1)))
    case("rot90", [X], [], np.rot90(X))
    case("rot90", [A3], [2, [1, 2]], np.rot90(A3, 2, (1, 2)))
    case("rot90", [X], [3], np.rot90(X, 3))
    case("rot90", [X], [-1], np.rot90(X, -1))
    case("append", [X, X[:1]], [0], np.append(X, X[:1], 0))
    case("append", [X, Y], [], np.append(X, Y))
    case("diff", [X], [], np.diff(X))
    case("diff", [X], [2, 0], np.diff(X, 2, 0))
    case("ediff1d", [X], [], np.ediff1d(X))
    IDX = np.array([2, 0, -1, 1], np.int32)
    case("take", [X, IDX], [], np.take(X, IDX))
    case("take", [X, IDX[:3] % 3], [0], np.take(X, IDX[:3] % 3, 0))
    ORDER = np.argsort(X, 1).astype(np.int32)
    case("takeAlongAxis", [X, ORDER], [1], np.take_along_axis(X, ORDER, 1))
    case("takeAlongAxis", [X, ORDER[:, :2]], [1], np.take_along_axis(X, ORDER[:, :2], 1))
    case("meshgrid", [V4, Y[:3]], [], list(np.meshgrid(V4, Y[:3])), listArgs=True)
    case("meshgrid", [V4, Y[:3], Y[:2]], [{"indexing": "ij"}], list(np.meshgrid(V4, Y[:3], Y[:2], indexing="ij")), listArgs=True)
    case("broadcastArrays", [X, Y], [], list(np.broadcast_arrays(X, Y)))
    case("unstack", [A3], [1], [A3[:, i] for i in range(3)])
    Y7 = rng.standard_normal(7).astype(f32)
    case("arraySplit", [Y7], [3], np.array_split(Y7, 3))
    case("arraySplit", [X], [[1, 3], 1], np.array_split(X, [1, 3], 1))
    case("hsplit", [X], [2], np.hsplit(X, 2))
    case("vsplit", [X], [[1]], np.vsplit(X, [1]))
    case("dsplit", [A3], [2], np.dsplit(A3, 2))
    case("diagflat", [X[:2, :2]], [1], np.diagflat(X[:2, :2], 1))
    case("vander", [V4], [], np.vander(V4).astype(f32), rtol=1e-6, atol=1e-6)
    case("vander", [V4], [3, True], np.vander(V4, 3, True).astype(f32), rtol=1e-6, atol=1e-6)
    case("select", [X > 1, X < -1, X, X * 2], [-1], np.select([X > 1, X < -1], [X, X * 2], -1), selectArgs=2)
    case("isin", [INTS, INTS2[0]], [], np.isin(INTS, INTS2[0]))
    case("isin", [INTS, INTS2[0]], [{"invert": True}], np.isin(INTS, INTS2[0], invert=True))
    case("trapezoid", [X], [], np.trapezoid(X), rtol=1e-6, atol=1e-6)
    case("trapezoid", [X], [None, 0.5, 0], np.trapezoid(X, dx=0.5, axis=0), rtol=1e-6, atol=1e-6)
    XS = np.cumsum(rng.random(4)).astype(f32)
    case("trapezoid", [X, XS], [], np.trapezoid(X, XS), rtol=1e-5, atol=1e-6)

    # Products and polynomials.
    case("tensordot", [A3, M45], [1], np.tensordot(A3, M45, 1), rtol=1e-5, atol=1e-5)
    case("tensordot", [A3, N34], [[[0, 2], [0, 1]]], np.tensordot(A3, N34, ((0, 2), (0, 1))), rtol=1e-5, atol=1e-5)
    case("tensordot", [X, X], [], np.tensordot(X, X), rtol=1e-5, atol=1e-5)
    case("inner", [X, X], [], np.inner(X, X), rtol=1e-5, atol=1e-5)
    case("outer", [V4, Y], [], np.outer(V4, Y), rtol=1e-6)
    case("vdot", [X, X], [], np.vdot(X, X), rtol=1e-5)
    case("vecdot", [X, Y], [], np.vecdot(X, Y), rtol=1e-5, atol=1e-5)
    case("vecdot", [X, X], [{"axis": 0}], np.vecdot(X, X, axis=0), rtol=1e-5, atol=1e-5)
    case("matvec", [A3, V4], [], np.einsum("bij,j->bi", A3, V4), rtol=1e-5, atol=1e-5)
    case("vecmat", [V4, M45], [], V4 @ M45, rtol=1e-5, atol=1e-5)
    C1 = rng.standard_normal((2, 3)).astype(f32)
    C2 = rng.standard_normal((2, 3)).astype(f32)
    case("cross", [C1, C2], [], np.cross(C1, C2), rtol=1e-5, atol=1e-6)
    P = np.array([1.5, -2.0, 0.5, 3.0], f32)
    P2 = np.array([2.0, 1.0], f32)
    case("polyval", [P, X], [], np.polyval(P, X), rtol=1e-5, atol=1e-5)
    case("polyadd", [P, P2], [], np.polyadd(P, P2))
    case("polysub", [P2, P], [], np.polysub(P2, P))
    case("polymul", [P, P2], [], np.polymul(P, P2), rtol=1e-6, atol=1e-6)
    case("polyder", [P], [], np.polyder(P).astype(f32))
    case("polyder", [P], [2], np.polyder(P, 2).astype(f32))
    PH = np.cumsum(rng.standard_normal(9) * 2.5).astype(f32)
    case("unwrap", [PH], [], np.unwrap(PH), rtol=1e-5, atol=1e-5)
    case("unwrap", [PH.reshape(3, 3)], [{"axis": 0}], np.unwrap(PH.reshape(3, 3), axis=0), rtol=1e-5, atol=1e-5)

for fn, np_fn, m in [("hamming", np.hamming, 7), ("hann", np.hanning, 8), ("bartlett", np.bartlett, 6),
                     ("blackman", np.blackman, 5), ("hamming", np.hamming, 1)]:
    cases.append({"fn": fn, "create": [m], "opts": {}, "out": enc(np_fn(m).astype(f32)), "rtol": 1e-6, "atol": 1e-6})
cases.append({"fn": "logspace", "create": [0, 2, 5, True, 10], "opts": {}, "out": enc(np.logspace(0, 2, 5).astype(f32)), "rtol": 1e-6, "atol": 0})
cases.append({"fn": "logspace", "create": [1, 3, 4, False, 2], "opts": {}, "out": enc(np.logspace(1, 3, 4, False, 2).astype(f32)), "rtol": 1e-6, "atol": 0})
cases.append({"fn": "geomspace", "create": [1, 1000, 4, True], "opts": {}, "out": enc(np.geomspace(1, 1000, 4).astype(f32)), "rtol": 1e-6, "atol": 0})
cases.append({"fn": "geomspace", "create": [-1, -100, 3, True], "opts": {}, "out": enc(np.geomspace(-1, -100, 3).astype(f32)), "rtol": 1e-6, "atol": 0})
cases.append({"fn": "tri", "create": [3, 4, 1], "opts": {}, "out": enc(np.tri(3, 4, 1, dtype=f32)), "rtol": 0, "atol": 0})

# numpy.fft over {real, imag} pairs.
fft_cases = []


def cenc(z):
    return {"real": enc(np.real(z).astype(f32)), "imag": enc(np.imag(z).astype(f32))}


Z8 = (rng.standard_normal((3, 8)) + 1j * rng.standard_normal((3, 8))).astype(np.complex64)
Z6 = (rng.standard_normal((2, 6)) + 1j * rng.standard_normal((2, 6))).astype(np.complex64)
R8 = rng.standard_normal((2, 8)).astype(f32)
R5 = rng.standard_normal(5).astype(f32)
for fn, z, kw in [("fft", Z8, {}), ("fft", Z8, {"axis": 0}), ("ifft", Z8, {}), ("fft", Z6, {}), ("ifft", Z6, {"axis": 0})]:
    out = getattr(np.fft, fn)(z, axis=kw.get("axis", -1))
    fft_cases.append({"fn": fn, "input": cenc(z), "params": kw, "out": cenc(out)})
for fn, x, kw in [("rfft", R8, {}), ("rfft", R5, {}), ("ihfft", R8, {}), ("rfft", R8, {"axis": 0})]:
    out = getattr(np.fft, fn)(x, axis=kw.get("axis", -1))
    fft_cases.append({"fn": fn, "input": {"real": enc(x)}, "params": kw, "out": cenc(out)})
H5 = np.fft.rfft(R8)
for fn, z, kw in [("irfft", H5, {}), ("irfft", H5.T.copy(), {"axis": 0}), ("hfft", H5[:, :4], {})]:
    out = getattr(np.fft, fn)(z, axis=kw.get("axis", -1))
    fft_cases.append({"fn": fn, "input": cenc(z), "params": kw, "out": {"real": enc(out.astype(f32))}})
Z44 = (rng.standard_normal((2, 4, 4)) + 1j * rng.standard_normal((2, 4, 4))).astype(np.complex64)
for fn in ["fft2", "ifft2", "fftn", "ifftn"]:
    fft_cases.append({"fn": fn, "input": cenc(Z44), "params": {}, "out": cenc(getattr(np.fft, fn)(Z44))})
R44 = rng.standard_normal((3, 4, 6)).astype(f32)
for fn in ["rfft2", "rfftn"]:
    fft_cases.append({"fn": fn, "input": {"real": enc(R44)}, "params": {}, "out": cenc(getattr(np.fft, fn)(R44))})
S = np.fft.rfft2(R44)
for fn in ["irfft2", "irfftn"]:
    fft_cases.append({"fn": fn, "input": cenc(S), "params": {}, "out": {"real": enc(getattr(np.fft, fn)(S).astype(f32))}})
for fn in ["fftshift", "ifftshift"]:
    fft_cases.append({"fn": fn, "input": {"real": enc(R44)}, "params": {}, "out": {"real": enc(getattr(np.fft, fn)(R44))}})
    fft_cases.append({"fn": fn, "input": {"real": enc(R44)}, "params": {"axes": [1]}, "out": {"real": enc(getattr(np.fft, fn)(R44, axes=1))}})
for fn, n, d in [("fftfreq", 8, 1.0), ("fftfreq", 7, 0.5), ("rfftfreq", 8, 0.1), ("rfftfreq", 9, 1.0)]:
    fft_cases.append({"fn": fn, "input": {}, "params": {"n": n, "d": d}, "out": {"real": enc(getattr(np.fft, fn)(n, d).astype(f32))}})

OUT.write_text(json.dumps({"generator": "scripts/gen_more_expected.py", "numpy": np.__version__,
                           "cases": cases, "fft": fft_cases}) + "\n")
print(f"wrote {len(cases)} cases and {len(fft_cases)} fft cases to {OUT}")
