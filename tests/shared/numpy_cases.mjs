// Runs the generated cases of tests/data/ — numpy_expected.json (NumPy, made by
// scripts/gen_expected.py) and jax_expected.json (JAX, scripts/gen_jax_expected.py)
// — against oxjax on one device. Shared by the Node, Deno and browser
// tests, so every runtime checks the same oracle. Reads back with `await data()`, which works
// on every device (WebGPU has no synchronous read in browsers or Deno).

const decode = (v) => (v === "nan" ? NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : v);
// NumPy's 64-bit integer results correspond to oxjax's int32 (JAX without x64).
const dtypeOf = (d) => (d === "int64" ? "int32" : d);
// Functions that take a list of arrays.
const LIST_FNS = ["concatenate", "stack", "vstack", "hstack"];
// Cases of scripts/gen_more_expected.py that pass arrays in other than positional order.
function special(np, c, args) {
  if (c.listArgs) return np[c.fn](args, ...c.params);
  if (c.weightsArg) return np[c.fn](args[0], c.params[0], args[1]);
  if (c.selectArgs) {
    const k = c.selectArgs;
    return np[c.fn](args.slice(0, k), args.slice(k, 2 * k), ...c.params);
  }
  return undefined;
}

export function caseLabel(c, i) {
  if (c.random) return `random.${c.random}#${i}(seed ${c.seed}, ${JSON.stringify(c.params)})`;
  if (c.top) return `${c.top}#${i}`;
  if (c.lax) return `lax.${c.lax}#${i}(${c.args.map((a) => `${a.dtype}[${a.shape}]`).join(", ")})`;
  if (c.nn || c.special)
    return `${c.nn ? "nn" : "scipySpecial"}.${c.nn ?? c.special}#${i}(${JSON.stringify(c.params)})`;
  if (c.create) return `${c.fn}#${i}(${JSON.stringify(c.create)})`;
  const args = c.args.map((a) => `${a.dtype}[${a.shape}]`).join(", ");
  const axis = "axis" in c ? ` axis=${JSON.stringify(c.axis)}${c.keepdims ? " keepdims" : ""}` : "";
  const extra = c.spec ? ` "${c.spec}"` : c.index ? ` ${JSON.stringify(c.index)}` : "";
  return `${c.fn}#${i}(${args})${axis}${extra}`;
}

function close(got, want, rtol, atol) {
  if (typeof want === "boolean") return (got !== 0) === want;
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  return Math.abs(got - want) <= atol + rtol * Math.abs(want);
}

/** `x.T + xt`: the add reads its first operand through a transposed view. */
function transposeThenAdd(x, xt) {
  const t = x.T;
  try {
    return t.add(xt);
  } finally {
    t.dispose();
  }
}

function call(ox, c, args, device) {
  const { numpy: np, lax, random, nn, scipySpecial } = ox;
  if (c.nn) return nn[c.nn](...args, ...c.params);
  if (c.lax) return lax[c.lax](...args, ...c.params);
  if (c.top) return ox[c.top](...args, ...c.params);
  if (c.special) return scipySpecial[c.special](...args);
  if (c.random) {
    const key = random.key(c.seed, { device });
    if (c.random === "key") return key;
    try {
      // "P" in params stands for the probability array of `c.probs`.
      const probs = c.probs ? makeArray(np, c.probs, device) : null;
      try {
        return random[c.random](key, ...args, ...c.params.map((x) => (x === "P" ? probs : x)));
      } finally {
        probs?.dispose();
      }
    } finally {
      key.dispose();
    }
  }
  if (c.create) {
    // Positional arguments as generated (null = left out), then the options.
    const positional = c.create.map((v) => (v === null ? undefined : v));
    return np[c.fn](...positional, { ...c.opts, device });
  }
  if (c.fn === "compose") return transposeThenAdd(...args);
  if (c.fn === "slice") {
    const arrays = (c.arrays ?? []).map((a) => makeArray(np, a, device));
    try {
      return args[0].slice(
        ...c.index.map((i) => (i && i.array !== undefined ? arrays[i.array] : i)),
      );
    } finally {
      for (const a of arrays) a.dispose();
    }
  }
  if (c.fn === "convGeneralDilated") return lax.convGeneralDilated(...args, ...c.params);
  if (typeof np[c.fn] !== "function") throw new Error(`np.${c.fn} is not exported`);
  const out = special(np, c, args);
  if (out !== undefined) return out;
  if ("axis" in c) return np[c.fn](args[0], c.axis, { keepdims: c.keepdims });
  if (c.fn === "einsum") return np.einsum(c.spec, ...args);
  if (LIST_FNS.includes(c.fn)) return np[c.fn](args, ...c.params);
  return np[c.fn](...args, ...(c.params ?? []));
}

function makeArray(np, { shape, dtype, data }, device) {
  return np.array(data.map(decode), { shape, dtype: dtypeOf(dtype), device });
}

/** Compares array `out` with the expected `want` of case `c`. */
async function check(out, want, c, device) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(out.shape, want.shape)) throw new Error(`shape ${out.shape} != ${want.shape}`);
  if (out.dtype !== dtypeOf(want.dtype)) throw new Error(`dtype ${out.dtype} != ${want.dtype}`);
  if (out.device !== device) throw new Error(`device ${out.device} != ${device}`);
  const got = await out.data();
  want.data.forEach((w, k) => {
    const expected = decode(w);
    if (!close(got[k], expected, c.rtol, c.atol)) {
      throw new Error(
        `element ${k}: got ${got[k]}, want ${expected} (rtol ${c.rtol}, atol ${c.atol})`,
      );
    }
  });
}

/**
 * Runs case `c` on `device` with the package module `ox` (its `numpy` and `lax`); throws an
 * Error describing the first mismatch. With `{ jit: true }` the operation runs under `ox.jit`.
 */
export async function runCase(ox, c, device, opts = {}) {
  const np = ox.numpy;
  const args = (c.args ?? []).map((a) => makeArray(np, a, device));
  try {
    let result;
    if (opts.jit) {
      const f = ox.jit((...xs) => call(ox, c, xs, device));
      try {
        result = f(...args);
      } finally {
        f.dispose();
      }
    } else {
      result = call(ox, c, args, device);
    }
    if (c.outs) {
      try {
        if (result.length !== c.outs.length) {
          throw new Error(`${result.length} results, want ${c.outs.length}`);
        }
        for (let i = 0; i < c.outs.length; i++) await check(result[i], c.outs[i], c, device);
      } finally {
        for (const r of new Set(result)) r.dispose();
      }
      return;
    }
    try {
      await check(result, c.out, c, device);
    } finally {
      result.dispose();
    }
  } finally {
    for (const a of args) a.dispose();
  }
}

/**
 * The outputs of case `c` on `device` as typed arrays, in order (no comparison with the oracle;
 * for tests that compare two ways of running the same case).
 */
export async function caseOutputs(ox, c, device) {
  const args = (c.args ?? []).map((a) => makeArray(ox.numpy, a, device));
  try {
    const result = call(ox, c, args, device);
    const list = c.outs ? result : [result];
    try {
      return await Promise.all(list.map((r) => r.data()));
    } finally {
      for (const r of new Set(list)) r.dispose();
    }
  } finally {
    for (const a of args) a.dispose();
  }
}
