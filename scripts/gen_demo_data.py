#!/usr/bin/env python3
"""Writes the data the www/ demos ship with, and the float64 oracles their browser tests check.

Run by developers when the demos' data change (the outputs are committed, so neither the demos
nor the tests need Python):

    pip install statsmodels==0.15.0 scikit-learn==1.9.1
    python3 scripts/gen_demo_data.py

- www/data/nile.json: the Nile river annual flow at Aswan, 1871-1970 (public domain; as shipped
  by statsmodels.datasets.nile), plus the maximum-likelihood fit of the local level model
  y_t = mu_t + eps_t, mu_{t+1} = mu_t + eta_t (diffuse initial level): sigma2_eps, sigma2_eta,
  the log-likelihood, and the smoothed level with its variance. Two independent float64 fits
  must agree: statsmodels' UnobservedComponents and a NumPy Kalman filter maximised by SciPy.
  Durbin & Koopman (2012, section 2.10) report sigma2_eps = 15099 and sigma2_eta = 1469.1.
- www/data/digits.json: scikit-learn's 8x8 handwritten digits (1797 images, pixel values 0..16)
  packed as one base-17 character per pixel, shuffled with a fixed seed; the first 1500
  images train, the other 297 are held out.
- tests/data/mandelbrot_expected.json: escape counts of the showcase's first frame at 64x48
  points (64 iterations of z <- z^2 + c in float32, the page's order of operations).
"""
import json
from pathlib import Path

import numpy as np
from scipy.optimize import minimize
from sklearn.datasets import load_digits
import statsmodels.api as sm

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "www" / "data"


def kalman_loglik(y, s_eps, s_eta):
    """Diffuse log-likelihood of the local level model (the first observation sets the level)."""
    a, p, ll = y[0], s_eps + s_eta, 0.0
    for t in range(1, len(y)):
        f = p + s_eps
        v = y[t] - a
        k = p / f
        ll -= 0.5 * (np.log(2 * np.pi) + np.log(f) + v * v / f)
        a, p = a + k * v, p * (1 - k) + s_eta
    return ll


def smoother(y, s_eps, s_eta):
    """Kalman filter then RTS smoother: smoothed level and its variance (diffuse start)."""
    n = len(y)
    m, P = np.zeros(n), np.zeros(n)
    m[0], P[0] = y[0], s_eps
    for t in range(1, n):
        pp = P[t - 1] + s_eta
        k = pp / (pp + s_eps)
        m[t] = m[t - 1] + k * (y[t] - m[t - 1])
        P[t] = (1 - k) * pp
    ms, Ps = m.copy(), P.copy()
    for t in range(n - 2, -1, -1):
        g = P[t] / (P[t] + s_eta)
        ms[t] = m[t] + g * (ms[t + 1] - m[t])
        Ps[t] = P[t] + g * g * (Ps[t + 1] - (P[t] + s_eta))
    return ms, Ps


def nile():
    data = sm.datasets.nile.load_pandas().data
    years = [int(v) for v in data["year"]]
    y = data["volume"].to_numpy(dtype=np.float64)
    assert years == list(range(1871, 1971)) and len(y) == 100

    model = sm.tsa.UnobservedComponents(y, "local level", use_exact_diffuse=True)
    res = model.fit(
        disp=False, method="nm", maxiter=20000, xtol=1e-10, ftol=1e-12, cov_type="none"
    )
    sm_eps, sm_eta = float(res.params[0]), float(res.params[1])

    fit = minimize(
        lambda th: -kalman_loglik(y, np.exp(th[0]), np.exp(th[1])),
        x0=np.log([np.var(y), np.var(y) / 10]),
        method="Nelder-Mead",
        options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000},
    )
    s_eps, s_eta = np.exp(fit.x)
    for ours, theirs in ((s_eps, sm_eps), (s_eta, sm_eta)):
        assert abs(ours / theirs - 1) < 1e-3, (ours, theirs)
    assert abs(s_eps / 15099 - 1) < 1e-3 and abs(s_eta / 1469.1 - 1) < 1e-3, (s_eps, s_eta)
    ms, Ps = smoother(y, s_eps, s_eta)
    # The NumPy smoother against statsmodels' at statsmodels' estimate.
    sm_ms, sm_ps = smoother(y, sm_eps, sm_eta)
    assert np.allclose(sm_ms, res.smoothed_state[0], rtol=1e-6)
    assert np.allclose(sm_ps, res.smoothed_state_cov[0, 0], rtol=1e-6)

    return {
        "source": "statsmodels.datasets.nile (Nile river flow at Aswan, 10^8 m^3/year)",
        "years": years,
        "flow": [float(v) for v in y],
        "mle": {
            "sigma2_eps": float(s_eps),
            "sigma2_eta": float(s_eta),
            # Without the constant -log(2 pi)/2 of the first observation, which statsmodels adds.
            "loglik": float(kalman_loglik(y, s_eps, s_eta)),
            "statsmodels_sigma2_eps": sm_eps,
            "statsmodels_sigma2_eta": sm_eta,
            "smoothed_level": [float(v) for v in ms],
            "smoothed_var": [float(v) for v in Ps],
        },
    }


def digits():
    d = load_digits()
    # Shuffled once with a fixed seed, so the first 1500 (training) and the last 297 (held out)
    # images both mix all writers.
    perm = np.random.default_rng(20261122).permutation(len(d.target))
    x, target = d.data.astype(np.int64)[perm], d.target[perm]
    assert x.shape == (1797, 64) and x.min() == 0 and x.max() == 16
    alphabet = "0123456789abcdefg"
    pixels = "".join(alphabet[v] for v in x.ravel())
    labels = "".join(str(int(v)) for v in target)
    return {
        "source": "sklearn.datasets.load_digits (UCI optical recognition of handwritten digits)",
        "count": int(x.shape[0]),
        "size": 8,
        "alphabet": alphabet,
        "train": 1500,
        "pixels": pixels,
        "labels": labels,
    }


def mandelbrot(w=64, iterations=64):
    """The showcase's first frame: centre (-0.743643887037151, 0.13182590420533), width 3."""
    f = np.float32
    h = w * 3 // 4
    u = np.linspace(-0.5, 0.5, w, dtype=f)[None, :]
    v = (np.linspace(-0.5, 0.5, h, dtype=f) * f(h / w))[:, None]
    cr = np.broadcast_to(u * f(3) + f(-0.743643887037151), (h, w))
    ci = np.broadcast_to(v * f(3) + f(0.13182590420533), (h, w))
    zr = np.zeros((h, w), f)
    zi = np.zeros((h, w), f)
    count = np.zeros((h, w), f)
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(iterations):
            zr2, zi2 = zr * zr, zi * zi
            inside = zr2 + zi2 <= f(4)
            nzr = (zr2 - zi2) + cr
            nzi = (zr * zi) * f(2) + ci
            zr, zi = np.where(inside, nzr, zr), np.where(inside, nzi, zi)
            count = count + inside.astype(f)
    return {"width": w, "height": h, "iterations": iterations, "counts": count.astype(int).ravel().tolist()}


if __name__ == "__main__":
    oracle = ROOT / "tests" / "data" / "mandelbrot_expected.json"
    oracle.write_text(json.dumps(mandelbrot(), separators=(",", ":")) + "\n")
    print(f"wrote {oracle.relative_to(ROOT)}")
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in (("nile", nile), ("digits", digits)):
        path = OUT / f"{name}.json"
        path.write_text(json.dumps(make(), separators=(",", ":")) + "\n")
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KB)")
