// A user app bundled by Vite: imports the package by name (aliased to pkg/ in the config).
import { numpy as np } from "oxjax";

const x = np.array([1, 2, 3]);
const y = x.mul(x);
const out = document.getElementById("result");
out.textContent = JSON.stringify(Array.from(await y.data()));
out.dataset.device = y.device;
x.dispose();
y.dispose();
