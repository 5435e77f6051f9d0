#!/usr/bin/env python3
"""Generates tests/data/optax_expected.json: optax (Python) trajectories of several optimisers
on a small quadratic over a pytree of parameters, the oracle of tests/api/optax.test.mjs.

Run by developers (`pip install jax==0.10.2 jaxlib==0.10.2 optax==0.2.8 numpy==2.1.3 &&
python3 scripts/gen_optax_expected.py`); the JSON is committed, so tests need no Python.
The loss is sum(cw * (w - tw)**2) + sum(cb * (b - tb)**2) over params {"w": [3], "b": [2, 2]}
(float32); each case records the parameters after every step.
"""
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import optax

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "optax_expected.json"
STEPS = 25

params0 = {"w": np.array([1.0, -2.0, 0.5], np.float32), "b": np.array([[0.3, -0.7], [1.5, 0.0]], np.float32)}
problem = {
    "cw": np.array([1.0, 3.0, 0.5], np.float32),
    "tw": np.array([0.2, 0.4, -1.0], np.float32),
    "cb": np.array([[2.0, 0.7], [1.0, 4.0]], np.float32),
    "tb": np.array([[-0.5, 0.25], [0.0, 1.0]], np.float32),
}


def loss(p):
    return jnp.sum(problem["cw"] * (p["w"] - problem["tw"]) ** 2) + jnp.sum(problem["cb"] * (p["b"] - problem["tb"]) ** 2)


def trajectory(opt):
    p = jax.tree.map(jnp.asarray, params0)
    state = opt.init(p)
    out = []
    for _ in range(STEPS):
        g = jax.grad(loss)(p)
        updates, state = opt.update(g, state, p)
        p = optax.apply_updates(p, updates)
        out.append({k: np.asarray(v).ravel().tolist() for k, v in p.items()})
    return out


# name, JS call (function name and arguments as oxjax's optax takes them), Python optimiser
cases = [
    ("adam", [0.1], optax.adam(0.1)),
    ("adam", [0.05, {"b1": 0.8, "b2": 0.9}], optax.adam(0.05, b1=0.8, b2=0.9)),
    ("adam", [0.05, {"nesterov": True}], optax.adam(0.05, nesterov=True)),
    ("adamw", [0.1, {"weightDecay": 0.01}], optax.adamw(0.1, weight_decay=0.01)),
    ("sgd", [0.05], optax.sgd(0.05)),
    ("sgd", [0.05, {"momentum": 0.9}], optax.sgd(0.05, momentum=0.9)),
    ("sgd", [0.05, {"momentum": 0.9, "nesterov": True}], optax.sgd(0.05, momentum=0.9, nesterov=True)),
]
data = {
    "generator": "scripts/gen_optax_expected.py",
    "optax": optax.__version__,
    "jax": jax.__version__,
    "params0": {k: v.tolist() for k, v in params0.items()},
    "problem": {k: v.tolist() for k, v in problem.items()},
    "cases": [{"fn": name, "args": args, "trajectory": trajectory(opt)} for name, args, opt in cases],
}
# A chain with clipping: the global norm of the first gradients is above 1, so clipping acts.
clip = optax.chain(optax.clip_by_global_norm(1.0), optax.scale_by_adam(), optax.scale(-0.1))
data["chain"] = trajectory(clip)
OUT.write_text(json.dumps(data) + "\n")
print(f"wrote {len(cases) + 1} trajectories to {OUT}")
