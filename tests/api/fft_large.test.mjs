// numpy.fft at lengths where the algorithm matters, against NumPy (tests/data/fft_expected.json,
// made by scripts/gen_fft_expected.py): powers of two to 4096 (radix-2), 1000, 999 and the
// prime 997 (Bluestein), transforms along each axis, the real forms and 2-D, on every device
// under test. Tolerance: |got − want| ≤ tol·max|want| per case, tol = 2e-6 in float32 on cpu
// and wasm (computed in float64, rounded once), 3e-5 on webgpu (float32 arithmetic), 1e-12 in
// float64. Also jit, grad and vmap of a long transform, and bad input. Leak-checked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DEVICES, ON_WEBGPU, checkLeaksAroundEachTest, errorMessage, np, ox } from "./helpers.mjs";

checkLeaksAroundEachTest();

const { cases } = JSON.parse(
  readFileSync(new URL("../data/fft_expected.json", import.meta.url), "utf8"),
);

/** Element t of row r of input part `part` (scripts/gen_fft_expected.py's `input_value`). */
const inputValue = (t, r, part) => (((7919 * t + 104729 * r + 31 * part) % 1009) - 504) / 64;
function input(shape, part, dtype, device) {
  const n = shape[shape.length - 1];
  const size = shape.reduce((a, b) => a * b);
  const data = Array.from({ length: size }, (_, i) => inputValue(i % n, Math.floor(i / n), part));
  return np.array(data, { shape, dtype, device });
}

function run(c, device) {
  const re = input(c.shape, 0, c.dtype, device);
  const im = c.complex ? input(c.shape, 1, c.dtype, device) : null;
  try {
    const f = np.fft[c.fn];
    const arg = im ? { real: re, imag: im } : re;
    if (/[2n]$/.test(c.fn)) return f(arg);
    return f(arg, c.params.axis ?? -1);
  } finally {
    re.dispose();
    im?.dispose();
  }
}

async function compare(got, want, tol, label) {
  assert.deepEqual(got.shape, want.shape, `${label} shape`);
  const data = await got.data();
  const scale = Math.max(...want.data.map(Math.abs));
  let worst = 0;
  want.data.forEach((w, i) => (worst = Math.max(worst, Math.abs(data[i] - w))));
  assert.ok(worst <= tol * scale, `${label}: max error ${worst} > ${tol} · ${scale}`);
}

for (const device of DEVICES) {
  describe(`large numpy.fft on ${device} matches NumPy`, () => {
    for (const c of cases) {
      const skip = c.dtype === "float64" && device === "webgpu" ? "no float64 on webgpu" : false;
      test(
        `${c.fn} ${c.dtype} ${JSON.stringify(c.shape)} ${JSON.stringify(c.params)}`,
        { skip },
        async () => {
          const tol = c.dtype === "float64" ? 1e-12 : device === "webgpu" ? 3e-5 : 2e-6;
          const out = run(c, device);
          const parts = out instanceof ox.Array ? { real: out } : out;
          try {
            await compare(parts.real, c.out.real, tol, "real");
            if (c.out.imag) await compare(parts.imag, c.out.imag, tol, "imag");
          } finally {
            ox.tree.dispose(parts);
          }
        },
      );
    }
  });
}

const device = DEVICES[DEVICES.length - 1];

test("a transform of 1000 points under jit, grad and vmap", async () => {
  const n = 1000;
  const tol = ON_WEBGPU ? 3e-5 : 2e-6;
  const re = input([4, n], 0, "float32", device);
  const im = input([4, n], 1, "float32", device);
  const eager = np.fft.fft({ real: re, imag: im });
  const jitted = ox.jit((a, b) => {
    const z = np.fft.fft({ real: a, imag: b });
    return [z.real, z.imag];
  });
  const [jr, ji] = jitted(re, im);
  const batched = ox.vmap((a, b) => {
    const z = np.fft.fft({ real: a, imag: b });
    return [z.real, z.imag];
  })(re, im);
  const scale = Math.max(...(await eager.real.data()).map(Math.abs));
  for (const [label, got, want] of [
    ["jit real", jr, eager.real],
    ["jit imag", ji, eager.imag],
    ["vmap real", batched[0], eager.real],
    ["vmap imag", batched[1], eager.imag],
  ]) {
    const [g, w] = [await got.data(), await want.data()];
    let worst = 0;
    w.forEach((v, i) => (worst = Math.max(worst, Math.abs(g[i] - v))));
    assert.ok(worst <= tol * scale, `${label}: ${worst}`);
  }
  // grad of Σ w·Re(fft(x)) for real x: Σ_k w_k cos(2π k t / n), the transform of w.
  const w = input([n], 2, "float32", device);
  const loss = (x) => {
    const z = np.zerosLike(x);
    const f = np.fft.fft({ real: x, imag: z });
    try {
      return np.sum(f.real.mul(w));
    } finally {
      ox.tree.dispose([z, f]);
    }
  };
  const x = input([n], 0, "float32", device);
  const grad = ox.grad(loss)(x);
  const g = await grad.data();
  grad.dispose();
  const wd = await w.data();
  for (const t of [0, 1, 2, 499, 500, 997]) {
    let want = 0;
    for (let k = 0; k < n; k++) want += wd[k] * Math.cos((2 * Math.PI * ((k * t) % n)) / n);
    assert.ok(Math.abs(g[t] - want) <= tol * 8 * n, `grad[${t}]: ${g[t]} vs ${want}`);
  }
  ox.tree.dispose([re, im, eager, jr, ji, batched, w, x]);
  jitted.dispose();
});

test("fft of bad input throws errors naming the function; empty batches transform", async () => {
  const s = np.array(3, { device });
  const z = np.zeros([0], { device });
  const m = np.zeros([2, 3], { device });
  assert.match(errorMessage(() => np.fft.fft({ real: s, imag: s })).message, /^fft: /);
  assert.match(errorMessage(() => np.fft.rfft(s)).message, /^rfft: /);
  assert.match(errorMessage(() => np.fft.fft({ real: z, imag: z })).message, /^fft: .*positive/);
  assert.match(errorMessage(() => np.fft.ifft({ real: m, imag: m }, 2)).message, /^ifft: .*axis/);
  assert.match(errorMessage(() => np.fft.irfft({ real: m, imag: m }, 1.5)).message, /^irfft: /);
  const e = np.zeros([0, 8], { device });
  const out = np.fft.fft({ real: e, imag: e });
  assert.deepEqual(out.real.shape, [0, 8]);
  ox.tree.dispose([s, z, m, e, out]);
});
