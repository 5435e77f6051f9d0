// Batched reads on WebGPU in Deno (lavapipe on CPU machines): `data()` calls issued in the same
// tick share one staging buffer and ONE map (`memoryStats().devices.webgpu.readbackMaps`), for
// `Promise.all`, `tree.data` and `jsAsync`. Every read equals the cpu device's bytes — float32,
// int32, bool, float16 (where the adapter has shader-f16), 0-d, zero-size, and views (slices,
// transposes, broadcasts) that must be materialised first. Errors reject the read that caused
// them with an Error naming `data` (a disposed array; a failed map, as on a lost device), and
// nothing leaks: arrays, unsettled reads, buffers, pooled staging buffers. Small arrays made on
// the host (creations up to 4 KiB, `np.array`) are read from their host copies with no map and
// no device readback, equal to the cpu device's values.
import { clearCaches, init, memoryStats, numpy as np, tree } from "../../pkg/index.js";
import type { Array as OxArray } from "../../pkg/index.js";
import { wasm } from "../../pkg/bridge.js";

await init({ maxStorageBuffers: 8, smallOnHost: false });

const adapter = await navigator.gpu.requestAdapter();
const HAS_F16 = adapter?.features.has("shader-f16") ?? false;

type Device = "cpu" | "webgpu";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

const gpu = () => memoryStats().devices.webgpu!;

/** Live arrays, unsettled reads and webgpu buffers, to compare before and after a test. */
function snapshot(): string {
  const s = memoryStats();
  return JSON.stringify([s.liveArrays, s.pendingReads, gpu().liveBuffers, gpu().liveBytes]);
}

/** Runs `body` and checks that it leaves nothing behind. */
async function noLeaks(body: () => Promise<void>): Promise<void> {
  const before = snapshot();
  await body();
  check(snapshot() === before, `leaked: ${before} → ${snapshot()}`);
}

/** Arrays of mixed dtypes, shapes and views on `device` (the same on every device). */
function arrays(device: Device): OxArray[] {
  const flat = np.array(
    Array.from({ length: 24 }, (_, i) => Math.sin(i * 0.9) * 5),
    { device },
  );
  const flatInts = np.array(
    Array.from({ length: 15 }, (_, i) => i * i - 40),
    { dtype: "int32", device },
  );
  const base = flat.reshape([4, 6]);
  const ints = flatInts.reshape([3, 5]);
  const row = np.array([1, 2, 3], { device });
  const intsT = ints.T;
  const wide = base.reshape([2, 12]);
  const cols = wide.slice([], [3, 9]);
  const out = [
    base.ref,
    ints.ref,
    base.greater(0), // bool
    np.array(7.25, { device }), // 0-d
    np.zeros([0, 3], { device }), // zero-size
    base.slice([1, 3], [2, 5]), // a slice: a view
    base.T, // a transpose: a view
    intsT.slice(2), // a row of a transpose
    np.broadcastTo(row, [4, 3]), // a broadcast
    cols.T, // a strided view of a reshape
    np.arange(3001, null, 1, { device }), // a larger buffer (over the 4 KiB host copies)
  ];
  if (HAS_F16) {
    const h = base.astype("float16");
    const odd = np.array([1.5, -2, 3], { dtype: "float16", device }); // 6 bytes
    out.push(h.ref, h.slice([1, 4], [0, 3]), odd);
    h.dispose();
  }
  for (const a of [flat, flatInts, base, ints, row, intsT, wide, cols]) a.dispose();
  return out;
}

/**
 * `a` computed again on its device (and `a` disposed): small arrays made on the host are read
 * from their host copies, so tests of maps read arrays a kernel wrote.
 */
function computed(a: OxArray): OxArray {
  const out = a.add(0);
  a.dispose();
  return out;
}

/** Same constructor and the same elements (NaN matching NaN, -0 distinct from 0). */
function same(got: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  check(got.constructor === want.constructor, `${what}: ${got.constructor.name}`);
  check(got.length === want.length, `${what}: length ${got.length} vs ${want.length}`);
  for (let i = 0; i < want.length; i++) {
    check(Object.is(got[i], want[i]), `${what}[${i}]: ${got[i]} vs ${want[i]}`);
  }
}

Deno.test("Promise.all of data() on webgpu: one map, the cpu device's values", async () => {
  await noLeaks(async () => {
    const want = arrays("cpu");
    const got = arrays("webgpu");
    const wantData = want.map((a) => a.dataSync());
    const [maps, readbacks] = [gpu().readbackMaps, gpu().readbacks];
    const data = await Promise.all(got.map((a) => a.data()));
    check(gpu().readbackMaps - maps === 1, `maps: ${gpu().readbackMaps - maps}`);
    // Small arrays made on the host (`base`, `ints`, the 0-d, the zero-size one and the 6-byte
    // float16 one) are read from their host copies: no device readback.
    const hostMade = HAS_F16 ? 5 : 4;
    const readFromDevice = gpu().readbacks - readbacks;
    check(readFromDevice === got.length - hostMade, `device readbacks: ${readFromDevice}`);
    data.forEach((d, k) => same(d, wantData[k], `array ${k} (${got[k]})`));
    for (const a of [...want, ...got]) a.dispose();
  });
});

Deno.test("tree.data, jsAsync and consumeData over many arrays share one map", async () => {
  await noLeaks(async () => {
    const xs = arrays("webgpu");
    const cpu = arrays("cpu");
    const want = cpu.map((a) => a.dataSync());
    let maps = gpu().readbackMaps;
    const read = (await tree.data({ a: xs[0], b: [xs[1], xs[2], 4], c: { d: xs[5] } })) as {
      a: Float32Array;
      b: [Int32Array, Int32Array, number];
      c: { d: Float32Array };
    };
    check(gpu().readbackMaps - maps === 1, "tree.data: one map");
    same(read.a, want[0], "tree.data a");
    same(read.b[0], want[1], "tree.data b[0]");
    same(read.b[1], want[2], "tree.data b[1]");
    check(read.b[2] === 4, "tree.data keeps other leaves");
    same(read.c.d, want[5], "tree.data c.d");
    maps = gpu().readbackMaps;
    const nested = await Promise.all(xs.map((a) => a.jsAsync()));
    check(gpu().readbackMaps - maps === 1, "jsAsync: one map");
    nested.forEach((n, k) => {
      const [g, w] = [JSON.stringify(n), JSON.stringify(cpu[k].js())];
      check(g === w, `jsAsync ${k}: ${g} vs ${w}`);
    });
    check(nested[3] === 7.25, `0-d jsAsync: ${nested[3]}`);
    check(typeof (nested[2] as boolean[][])[0][0] === "boolean", "bool jsAsync gives booleans");
    maps = gpu().readbackMaps;
    const consumed = await Promise.all(xs.map((a) => a.consumeData()));
    check(gpu().readbackMaps - maps === 1, "consumeData: one map");
    consumed.forEach((d, k) => same(d, want[k], `consumeData ${k}`));
    for (const x of xs) check(x.refCount === 0, "consumeData disposed its array");
    for (const c of cpu) c.dispose();
  });
});

Deno.test(
  "reads in separate ticks map separately; one tick's reads share, work between",
  async () => {
    await noLeaks(async () => {
      const x = computed(np.arange(10, null, 1, { dtype: "float32", device: "webgpu" }));
      let maps = gpu().readbackMaps;
      for (let k = 0; k < 3; k++) await x.data();
      check(gpu().readbackMaps - maps === 3, "three awaited reads: three maps");
      // Work encoded between the reads of one tick, and an array disposed right after data().
      maps = gpu().readbackMaps;
      const p = x.data();
      const y = x.mul(2);
      const q = y.data();
      y.dispose();
      const [a, b] = await Promise.all([p, q]);
      check(gpu().readbackMaps - maps === 1, "one map for both");
      same(
        b,
        Float32Array.from(a, (v) => v * 2),
        "read of an array disposed after data()",
      );
      // A read begun while another group's map is in flight is a group of its own.
      maps = gpu().readbackMaps;
      const first = x.data();
      await Promise.resolve();
      await Promise.resolve();
      const second = x.data();
      same(await second, await first, "overlapping groups");
      check(gpu().readbackMaps - maps === 2, `overlapping groups: ${gpu().readbackMaps - maps}`);
      x.dispose();
    });
  },
);

Deno.test("a group larger than the largest staging buffer is split, values intact", async () => {
  await noLeaks(async () => {
    const xs = Array.from({ length: 7 }, (_, k) =>
      computed(np.arange(k * 5, k * 5 + 10 + k, 1, { device: "webgpu" })),
    );
    // 40..64 bytes each; 64-byte staging buffers hold one array each.
    wasm.debugMaxStagingBytes(64);
    try {
      const maps = gpu().readbackMaps;
      const data = await Promise.all(xs.map((x) => x.data()));
      check(gpu().readbackMaps - maps === 7, `maps: ${gpu().readbackMaps - maps}`);
      data.forEach((d, k) =>
        same(
          d,
          Int32Array.from({ length: 10 + k }, (_, i) => k * 5 + i),
          `split read ${k}`,
        ),
      );
    } finally {
      wasm.debugMaxStagingBytes(2 ** 40);
    }
    for (const x of xs) x.dispose();
  });
});

Deno.test("errors reject the read that caused them, naming data; the others succeed", async () => {
  await noLeaks(async () => {
    const xs = [1, 2, 3].map((v) => computed(np.array([v, v + 0.5], { device: "webgpu" })));
    const gone = np.array([9], { device: "webgpu" });
    gone.dispose();
    const settled = await Promise.allSettled([xs[0].data(), gone.data(), xs[1].data()]);
    check(settled[0].status === "fulfilled" && settled[2].status === "fulfilled", "others read");
    const r = settled[1] as PromiseRejectedResult;
    check(r.status === "rejected" && r.reason instanceof Error, "a disposed array rejects");
    check(/^data: .*disposed/.test(r.reason.message), `message: ${r.reason.message}`);
    // A failed map (as on a lost device) rejects every read of its group, and only those.
    wasm.debugFailNextRead();
    const failed = await Promise.allSettled(xs.map((x) => x.data()));
    for (const f of failed) {
      check(f.status === "rejected", "a failed map rejects its reads");
      const e = (f as PromiseRejectedResult).reason;
      check(e instanceof Error && /^data: webgpu readback failed/.test(e.message), String(e));
    }
    check(memoryStats().pendingReads === 0, "no read left unsettled");
    same(await xs[2].data(), new Float32Array([3, 3.5]), "reads work again");
    for (const x of xs) x.dispose();
  });
});

Deno.test("staging buffers are pooled, bounded, and released by clearCaches", async () => {
  await noLeaks(async () => {
    const xs = Array.from({ length: 20 }, (_, k) =>
      np.ones([1000 * (k + 1)], { device: "webgpu" }),
    );
    for (let round = 0; round < 3; round++) {
      await Promise.all(xs.map((x) => x.data()));
      for (const x of xs.slice(0, 4)) await x.data();
    }
    const { stagingBuffers, stagingBytes } = gpu();
    check(stagingBuffers >= 1 && stagingBuffers <= 8, `staging buffers: ${stagingBuffers}`);
    check(stagingBytes <= 128 * 2 ** 20, `staging bytes: ${stagingBytes}`);
    clearCaches();
    check(gpu().stagingBuffers === 0 && gpu().stagingBytes === 0, "clearCaches empties them");
    for (const x of xs) x.dispose();
  });
});

/** Creations of at most 4 KiB (and the formula creations over them) on `device`. */
function madeOnHost(device: Device): OxArray[] {
  const like = np.array([[1, 2, 3]], { dtype: "int32", device });
  const out = [
    np.zeros([100], { device }),
    np.ones([10, 10], { dtype: "int32", device }),
    np.full([3, 4], true, { device }),
    np.zerosLike(like),
    np.fullLike(like, 7),
    np.arange(2, 200, 2, { device }),
    np.linspace(-1, 1, 100, true, { device }),
    np.eye(10, 12, { k: 1, device }),
    np.identity(6, { device }),
    np.array([1.5, -2, 3], { device }),
    np.hann(100, { device }),
    np.hamming(64, { device }),
    np.bartlett(33, { device }),
    np.blackman(100, { device }),
    np.logspace(0, 2, 50, true, 2, { device }),
    np.geomspace(-1, -1000, 40, false, { device }),
    np.tri(8, 9, 1, { device }),
    np.tri(5, 5, -1, { dtype: "bool", device }),
  ];
  like.dispose();
  return out;
}

Deno.test("small arrays made on the host are read from their host copies: no map", async () => {
  await noLeaks(async () => {
    const got = madeOnHost("webgpu");
    const want = madeOnHost("cpu").map((a) => {
      const d = a.dataSync();
      a.dispose();
      return d;
    });
    const [maps, readbacks] = [gpu().readbackMaps, gpu().readbacks];
    const data = await Promise.all(got.map((a) => a.data()));
    const nested = await got[1].jsAsync();
    check(gpu().readbackMaps === maps, `maps: ${gpu().readbackMaps - maps}`);
    check(gpu().readbacks === readbacks, `readbacks: ${gpu().readbacks - readbacks}`);
    check(JSON.stringify(nested) === JSON.stringify(Array(10).fill(Array(10).fill(1))), "js");
    // Small formula creations (windows, powers, tri) wanted on webgpu are computed on the cpu
    // device: every array equals the cpu device's bit for bit.
    data.forEach((d, k) => same(d, want[k], `array ${k}`));
    // The buffers hold the same bytes: work on the device reads them, and its result is mapped.
    const floats = got.map((a) => a.astype("float32"));
    const sums = floats.map((a) => np.sum(a));
    const sumData = await Promise.all(sums.map((s) => s.data()));
    check(gpu().readbackMaps - maps === 1, "a computed result is mapped");
    sumData.forEach((s, k) => {
      const w = Array.from(want[k] as ArrayLike<number>).reduce((a, b) => a + b, 0);
      check(Math.abs(s[0] - w) <= 1e-4 * Math.max(1, Math.abs(w)), `sum ${k}: ${s[0]} vs ${w}`);
    });
    // A view that is not the whole buffer (a slice) is materialised on the device and mapped;
    // an array over 4 KiB is read from the device.
    const slice = got[0].slice([10, 20]);
    const large = np.zeros([1025], { device: "webgpu" });
    await Promise.all([slice.data(), large.data()]);
    check(gpu().readbackMaps - maps === 2, "a slice and a large array are mapped");
    for (const a of [...got, ...floats, ...sums, slice, large]) a.dispose();
  });
});
