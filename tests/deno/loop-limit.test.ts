// Shader loop limits on WebGPU in Deno. Mesa's llvmpipe (lavapipe, the adapter of CPU machines
// and CI) ends a shader invocation's loops after 65,535 iterations in all, silently; the
// backend cuts long reductions into parts and runs long scans without a loop over their steps,
// so reductions over 65,536 / 70,000 / 1,000,000 elements, a matmul with K = 70,000, cumsum and
// a scan of 100,000 steps give the right answer. Oracles: exact integer-valued results
// computed here, or float64 sums in JavaScript with a stated tolerance. Nothing leaks.
import { init, lax, memoryStats, numpy as np } from "../../pkg/index.js";

await init({ smallOnHost: false });

const webgpu = { device: "webgpu" } as const;
const bytes = () => memoryStats().devices.webgpu?.liveBytes ?? 0;

/** Runs `f` and checks that live arrays and webgpu bytes return to where they were. */
async function noLeaks(f: () => Promise<void>) {
  const arrays = memoryStats().liveArrays;
  const live = bytes();
  await f();
  if (memoryStats().liveArrays !== arrays) {
    throw new Error(`leaked ${memoryStats().liveArrays - arrays} arrays`);
  }
  if (bytes() !== live) throw new Error(`leaked ${bytes() - live} webgpu bytes`);
}

const scalar = async (x: { data(): Promise<ArrayLike<number>>; dispose(): void }) => {
  const v = (await x.data())[0];
  x.dispose();
  return Number(v);
};

const expect = (got: number, want: number, what: string, tol = 0) => {
  if (!(Math.abs(got - want) <= tol * Math.max(1, Math.abs(want)))) {
    throw new Error(`${what}: got ${got}, want ${want}`);
  }
};

for (const n of [65536, 70000, 1_000_000]) {
  Deno.test(`reductions over ${n} elements on webgpu are not truncated`, async () => {
    await noLeaks(async () => {
      using ones = np.array(new Float32Array(n).fill(1), webgpu);
      expect(await scalar(np.sum(ones)), n, "sum of ones");
      // int32 values 0..6: an exact integer sum.
      const small = new Int32Array(n).map((_, i) => (i * 5) % 7);
      using ints = np.array(small, { dtype: "int32", device: "webgpu" });
      expect(
        await scalar(np.sum(ints)),
        small.reduce((a, b) => a + b, 0),
        "int32 sum",
      );
      using iota = np.arange(n, null, 1, webgpu);
      expect(await scalar(np.max(iota)), n - 1, "max of arange");
      using negated = iota.neg();
      expect(await scalar(np.min(negated)), 1 - n, "min of -arange");
      expect(await scalar(np.argmax(iota)), n - 1, "argmax of arange");
      // A maximum placed late, then early: argmax is its index.
      const late = Math.floor(n * 0.97);
      using spike = np.array(
        new Float32Array(n).map((_, i) => (i === late ? 5 : 1)),
        webgpu,
      );
      expect(await scalar(np.argmax(spike)), late, "argmax of a late spike");
      // Booleans: the one odd element is last.
      using mostly = np.array(
        new Float32Array(n).map((_, i) => (i === n - 1 ? 0 : 1)),
        webgpu,
      );
      using flags = mostly.greater(0.5);
      expect(await scalar(np.all(flags)), 0, "all over a false last element");
      using lastOnly = np.logicalNot(flags);
      expect(await scalar(np.any(lastOnly)), 1, "any over a true last element");
    });
  });
}

Deno.test("mean along an axis of a [3, 70000] array matches float64", async () => {
  await noLeaks(async () => {
    const n = 70000;
    const values = new Float32Array(3 * n).map((_, i) => Math.sin(i * 0.37) + (i % 3));
    using flat = np.array(values, webgpu);
    using x = flat.reshape([3, n]);
    using m = np.mean(x, 1);
    const got = Array.from(await m.data());
    for (let r = 0; r < 3; r++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += values[r * n + i];
      // Compensated float32 sums: within a few ulp of the float64 mean.
      expect(got[r], s / n, `mean of row ${r}`, 1e-6);
    }
  });
});

Deno.test("matmul with K = 70000 matches float64", async () => {
  await noLeaks(async () => {
    const k = 70000;
    const a = new Float32Array(2 * k).map((_, i) => ((i * 7) % 5) - 2);
    const b = new Float32Array(k * 3).map((_, i) => ((i * 3) % 4) - 1.5);
    using aFlat = np.array(a, webgpu);
    using bFlat = np.array(b, webgpu);
    using A = aFlat.reshape([2, k]);
    using B = bFlat.reshape([k, 3]);
    using C = np.matmul(A, B);
    const got = Array.from(await C.data());
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 3; j++) {
        // Products are multiples of 0.5 below 2^24: every partial sum is exact in float32.
        let s = 0;
        for (let t = 0; t < k; t++) s += a[i * k + t] * b[t * 3 + j];
        expect(got[i * 3 + j], s, `C[${i}, ${j}]`);
      }
    }
  });
});

Deno.test("cumsum over 70000 elements is exact", async () => {
  await noLeaks(async () => {
    const n = 70000;
    using x = np.array(new Int32Array(n).fill(1), { dtype: "int32", device: "webgpu" });
    using c = np.cumsum(x);
    const got = await c.data();
    for (const i of [0, 65534, 65535, 65536, n - 1]) expect(Number(got[i]), i + 1, `cumsum[${i}]`);
  });
});

Deno.test("a scan of 100000 steps on webgpu runs every step", async () => {
  await noLeaks(async () => {
    const n = 100_000;
    // xs_t = t mod 3 (int32): the carry is the running sum, ys the running sums.
    const xsHost = new Int32Array(n).map((_, t) => t % 3);
    using xs = np.array(xsHost, { dtype: "int32", device: "webgpu" });
    using init0 = np.array(0, { dtype: "int32", device: "webgpu" });
    const [carry, ys] = lax.scan(
      (c: np.Array, x: np.Array) => {
        const next = c.add(x);
        return [next, next];
      },
      init0,
      xs,
    );
    let total = 0;
    const want = new Int32Array(n).map((_, t) => (total += xsHost[t]));
    expect(await scalar(carry), total, "final carry");
    const got = await ys.data();
    ys.dispose();
    for (const t of [0, 65534, 65535, 65536, 99998, n - 1]) {
      expect(Number(got[t]), want[t], `ys[${t}]`);
    }
  });
});
