// Products whose two operands both read the contracted axis contiguously (`inner`'s a·bᵀ,
// `cov`'s x·xᵀ, einsum "ij,kj->ik") store their column operand transposed first when they are
// large (`kernel::contract`): one copy kernel, then the product as an ordinary matrix product,
// summed in float32. Checked through the dispatch counter (two kernels for a large product,
// one for a small one), against a float64 oracle within a float32 product's error bound, and
// for bit-identical results eagerly and under jit, on cpu and wasm alike.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEVICES, ON_WEBGPU, np, ox, checkLeaksAroundEachTest } from "./helpers.mjs";
import { wasm } from "../../pkg/bridge.js";

/** Runs `body` with library compositions eager on their first call on webgpu too (their
 * eager kernels are what the dispatch counts below describe). */
async function eagerFirstCall(body) {
  wasm.debugCompileFirstOnWebgpu(false);
  try {
    return await body();
  } finally {
    wasm.debugCompileFirstOnWebgpu(true);
  }
}

checkLeaksAroundEachTest();

/** Deterministic values in [-1, 1). */
function values(count, seed) {
  const out = new Float32Array(count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = ((s >>> 8) / (1 << 24)) * 2 - 1;
  }
  return out;
}

/** `Σ_r a[i, r] · b[j, r]` in float64, and `Σ_r |a[i, r] · b[j, r]|` (for the error bound). */
function innerF64(a, b, m, n, k) {
  const want = new Float64Array(m * n);
  const mag = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      let t = 0;
      for (let r = 0; r < k; r++) {
        const p = a[i * k + r] * b[j * k + r];
        s += p;
        t += Math.abs(p);
      }
      want[i * n + j] = s;
      mag[i * n + j] = t;
    }
  }
  return { want, mag };
}

/**
 * A float32 sum of k products, each rounded, is within γ·Σ|a·b| of the exact sum with
 * γ = (k + 1)·2⁻²⁴ (sequential summation: k − 1 additions and the products' own rounding),
 * plus the final rounding of the float32 result.
 */
function assertWithinF32(got, { want, mag }, k, what) {
  const u = 2 ** -24;
  for (let i = 0; i < want.length; i++) {
    const tol = (k + 1) * u * mag[i] + u * Math.abs(want[i]);
    assert.ok(Math.abs(got[i] - want[i]) <= tol, `${what}[${i}]: ${got[i]} vs ${want[i]}`);
  }
}

const dispatches = (device) => ox.memoryStats().devices[device].dispatches;

for (const device of DEVICES) {
  test(`a large inner product on ${device} is a transpose and a product`, () =>
    eagerFirstCall(async () => {
      // (The cpu interpreter takes seconds at 256.)
      const [m, k] = device === "cpu" ? [64, 64] : [256, 256];
      const av = values(m * k, 1);
      const bv = values(m * k, 2);
      const a = np.array(av, { shape: [m, k], device });
      const b = np.array(bv, { shape: [m, k], device });
      const before = dispatches(device);
      const out = np.inner(a, b);
      const got = await out.data();
      assert.equal(dispatches(device) - before, 2, "a copy of b transposed, then the product");
      assertWithinF32(got, innerF64(av, bv, m, m, k), k, "inner");
      // Under jit the same two kernels run: the same bits.
      const jf = ox.jit((x, y) => np.inner(x, y));
      const jitted = jf(a, b);
      assert.deepEqual(await jitted.data(), got, "jit");
      for (const x of [a, b, out, jitted, jf]) x.dispose();
    }));

  test(`a small inner product on ${device} stays one kernel`, () =>
    eagerFirstCall(async () => {
      const [m, k] = [16, 16];
      const av = values(m * k, 3);
      const bv = values(m * k, 4);
      const a = np.array(av, { shape: [m, k], device });
      const b = np.array(bv, { shape: [m, k], device });
      const before = dispatches(device);
      const out = np.inner(a, b);
      const got = await out.data();
      assert.equal(dispatches(device) - before, 1, "one lane-blocked product");
      assertWithinF32(got, innerF64(av, bv, m, m, k), k, "inner 16");
      for (const x of [a, b, out]) x.dispose();
    }));
}

if (!ON_WEBGPU) {
  test("x·xᵀ products give the same bits on cpu and wasm, eagerly and under jit", async () => {
    const [m, k] = [96, 80];
    const xv = values(m * k, 5);
    const results = [];
    for (const device of ["cpu", "wasm"]) {
      const x = np.array(xv, { shape: [m, k], device });
      const fs = [(y) => np.cov(y), (y) => np.einsum("ij,kj->ik", y, y), (y) => np.inner(y, y)];
      for (const f of fs) {
        const jf = ox.jit(f);
        for (const g of [f, jf]) {
          const out = g(x);
          results.push({ device, data: await out.data() });
          out.dispose();
        }
        jf.dispose();
      }
      x.dispose();
    }
    const per = results.length / 2;
    for (let i = 0; i < per; i++) {
      assert.deepEqual(results[per + i].data, results[i].data, `wasm vs cpu, case ${i}`);
    }
    // The Gram matrix against float64 (einsum, eager, on cpu).
    assertWithinF32(results[2].data, innerF64(xv, xv, m, m, k), k, "x·xᵀ");
  });
}

for (const device of DEVICES) {
  test(`a batch of a·bᵀ products on ${device} matches float64`, async () => {
    const [batch, m, k] = [4, 40, 32];
    const av = values(batch * m * k, 6);
    const bv = values(batch * m * k, 7);
    const a = np.array(av, { shape: [batch, m, k], device });
    const b = np.array(bv, { shape: [batch, m, k], device });
    const before = dispatches(device);
    const out = np.einsum("bij,bkj->bik", a, b);
    const got = await out.data();
    assert.equal(dispatches(device) - before, 2, "a copy of b transposed, then the products");
    for (let p = 0; p < batch; p++) {
      const part = (v) => v.subarray(p * m * k, (p + 1) * m * k);
      const want = innerF64(part(av), part(bv), m, m, k);
      assertWithinF32(got.subarray(p * m * m, (p + 1) * m * m), want, k, `product ${p}`);
    }
    for (const x of [a, b, out]) x.dispose();
  });
}
