// Runs the generated cases of tests/data/linalg_expected.json (NumPy/SciPy, made by
// scripts/gen_linalg_expected.py) against oxjax on one device. Shared by the Node and Deno
// tests. Reads back with `await data()`, which works on every device.

const decode = (v) => (v === "nan" ? NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : v);

export function linalgLabel(c, i) {
  const args = c.args.map((a) => `${a.dtype}[${a.shape}]`).join(", ");
  return `${c.fn}#${i}(${args}) ${JSON.stringify(c.params ?? c.opts)}`;
}

/** The function `ns.fn` (e.g. "lax.linalg.cholesky") of the oxjax module `ox`. */
export function resolve(ox, path) {
  return path.split(".").reduce((o, k) => o[k], ox);
}

function close(got, want, rtol, atol) {
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  return Math.abs(got - want) <= atol + rtol * Math.abs(want);
}

async function check(got, want, c, what) {
  if (JSON.stringify(got.shape) !== JSON.stringify(want.shape)) {
    throw new Error(
      `${what}: shape ${JSON.stringify(got.shape)}, want ${JSON.stringify(want.shape)}`,
    );
  }
  if (got.dtype !== want.dtype) throw new Error(`${what}: dtype ${got.dtype}, want ${want.dtype}`);
  const data = await got.data();
  want.data.forEach((w, i) => {
    const x = decode(w);
    if (!close(data[i], x, c.rtol, c.atol)) {
      throw new Error(`${what} element ${i}: got ${data[i]}, want ${x}`);
    }
  });
}

/**
 * Runs case `c` on `device`, disposing everything it makes. With `{ jit: true }` the function
 * runs under `ox.jit`.
 */
export async function runLinalgCase(ox, c, device, runOpts = {}) {
  const np = ox.numpy;
  const args = c.args.map((a) =>
    np.array(a.data.map(decode), { shape: a.shape, dtype: a.dtype, device }),
  );
  // Options may spell infinities as strings (JSON has no Infinity).
  const opts = Object.fromEntries(
    Object.entries(c.opts).map(([k, v]) => [
      k,
      v === "inf" ? Infinity : v === "-inf" ? -Infinity : v,
    ]),
  );
  const outs = [];
  try {
    const fn = resolve(ox, c.fn);
    const apply = (...xs) =>
      c.list ? fn(xs) : c.params ? fn(...xs, ...c.params) : fn(...xs, opts);
    let r;
    if (runOpts.jit) {
      const jf = ox.jit(apply);
      try {
        r = jf(...args);
      } finally {
        jf.dispose();
      }
    } else {
      r = apply(...args);
    }
    outs.push(...(Array.isArray(r) ? r : [r]));
    const wants = Array.isArray(c.out) ? c.out : [c.out];
    if (outs.length !== wants.length)
      throw new Error(`${outs.length} results, want ${wants.length}`);
    for (let i = 0; i < wants.length; i++) await check(outs[i], wants[i], c, `result ${i}`);
  } finally {
    for (const x of [...args, ...outs]) x.dispose();
  }
}
