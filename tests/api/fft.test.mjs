// numpy.fft against NumPy (the "fft" cases of tests/data/numpy_more_expected.json, made by
// scripts/gen_more_expected.py) on the cpu and wasm devices, over { real, imag } pairs; gradients
// through fft against finite differences; leak-checked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DEVICES, item, np, ox, checkLeaksAroundEachTest, webgpuSkip } from "./helpers.mjs";

checkLeaksAroundEachTest();

const { fft: cases } = JSON.parse(
  readFileSync(new URL("../data/numpy_more_expected.json", import.meta.url), "utf8"),
);
const make = (e, device) => np.array(e.data, { shape: e.shape, dtype: e.dtype, device });

function run(c, device) {
  const f = np.fft[c.fn];
  const { real, imag } = c.input;
  const x = real ? make(real, device) : null;
  const y = imag ? make(imag, device) : null;
  try {
    const input = y ? { real: x, imag: y } : x;
    const p = c.params;
    if (c.fn.endsWith("freq")) return f(p.n, p.d);
    if (c.fn.endsWith("shift")) return f(input, p.axes ?? null);
    if (/[2n]$/.test(c.fn)) return f(input);
    return f(input, p.axis ?? -1);
  } finally {
    x?.dispose();
    y?.dispose();
  }
}

async function compare(got, want, label) {
  assert.deepEqual(got.shape, want.shape, `${label} shape`);
  const data = await got.data();
  want.data.forEach((w, i) =>
    assert.ok(
      Math.abs(data[i] - w) <= 2e-5 + 2e-5 * Math.abs(w),
      `${label}[${i}]: ${data[i]} vs ${w}`,
    ),
  );
}

for (const device of DEVICES) {
  describe(`numpy.fft on ${device} matches NumPy`, () => {
    cases.forEach((c, i) =>
      test(`${c.fn}#${i}(${JSON.stringify(c.params)})`, async () => {
        const prev = ox.defaultDevice();
        ox.defaultDevice(device);
        try {
          const out = run(c, device);
          const parts = out instanceof ox.Array ? { real: out } : out;
          try {
            await compare(parts.real, c.out.real, "real");
            if (c.out.imag) await compare(parts.imag, c.out.imag, "imag");
          } finally {
            ox.tree.dispose(parts);
          }
        } finally {
          ox.defaultDevice(prev);
        }
      }),
    );
  });
}

test(
  "fft round trip and gradient against finite differences",
  { skip: webgpuSkip("float64") },
  () => {
    const re = np.array([0.5, -1, 2, 0.25, 1.5, -0.75], { dtype: "float64" });
    const im = np.zerosLike(re);
    const spectrum = np.fft.fft({ real: re, imag: im });
    const back = np.fft.ifft(spectrum);
    assert.ok(np.allclose(back.real, re, { atol: 1e-12 }));
    // d/dx sum(|fft(x)|² · w) for real x, checked by central differences in float64.
    const w = np.array([1, 2, 0.5, -1, 0.25, 3], { dtype: "float64" });
    const loss = (x) => {
      const z = np.zerosLike(x);
      const f = np.fft.fft({ real: x, imag: z });
      const p = [f.real.mul(f.real), f.imag.mul(f.imag)];
      const s = p[0].add(p[1]);
      const sw = s.mul(w);
      try {
        return np.sum(sw);
      } finally {
        ox.tree.dispose([z, f, p, s, sw]);
      }
    };
    const g = ox.grad(loss)(re);
    const gd = g.dataSync();
    const x0 = re.dataSync();
    for (let i = 0; i < 6; i++) {
      const h = 1e-6;
      const at = (d) => {
        const v = Float64Array.from(x0);
        v[i] += d;
        const a = np.array(v);
        const l = loss(a);
        try {
          return l.item();
        } finally {
          a.dispose();
          l.dispose();
        }
      };
      const fd = (at(h) - at(-h)) / (2 * h);
      assert.ok(
        Math.abs(gd[i] - fd) < 1e-5 * Math.max(1, Math.abs(fd)),
        `grad[${i}] ${gd[i]} vs ${fd}`,
      );
    }
    ox.tree.dispose([re, im, spectrum, back, w, g]);
  },
);
