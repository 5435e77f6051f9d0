// Small eager operations on webgpu computed on the host (`init({ smallOnHost })`, on by
// default; `src/transform/eval_host.rs`), in Deno (lavapipe on CPU machines), with the spec
// minimum of 8 storage buffers. An operation whose operands are all small host-held arrays
// (creations up to 4 KiB, `np.array`, JS numbers, earlier such results) and whose result is
// small runs no kernel and compiles no shader, and reading its result maps nothing; its bytes
// equal the cpu device's (the interpreter is the oracle) for elementwise operations of every
// 32-bit dtype, transcendental functions, reductions, concatenations of more arrays than a
// kernel may bind, views, matrix products, `fromfunction` and small random draws (which stay
// eager rather than compiling, unless their work is over the host's budget in all). Results
// over 4 KiB, work over the host's budget, operands computed on the GPU and float16 run on the
// device; `smallOnHost: false` runs everything there. Nothing leaks.
import { init, memoryStats, numpy as np, random, defaultDevice } from "../../pkg/index.js";
import type { Array as OxArray } from "../../pkg/index.js";

await init({ maxStorageBuffers: 8, smallOnHost: true });

const adapter = await navigator.gpu.requestAdapter();
const HAS_F16 = adapter?.features.has("shader-f16") ?? false;

type Device = "cpu" | "webgpu";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

const gpu = () => memoryStats().devices.webgpu!;
const work = () => [gpu().dispatches, gpu().shaderCompiles, gpu().readbackMaps];

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

/** The bytes of `a` (read, then disposed), for bit-for-bit comparison. */
async function bytes(a: OxArray): Promise<Uint8Array> {
  const d = await a.data();
  a.dispose();
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength).slice();
}

/** Small operations of every kind on `device`, each result an array of at most 4 KiB. */
function smallOps(device: Device): OxArray[] {
  const made: OxArray[] = [];
  const keep = <T extends OxArray>(a: T): T => (made.push(a), a);
  const x = keep(
    np.array(
      Array.from({ length: 24 }, (_, i) => Math.sin(i * 0.9) * 5),
      { device },
    ),
  );
  const m = keep(x.reshape([4, 6]));
  const k = keep(keep(np.arange(-7, 17, 1, { dtype: "int32", device })).reshape([4, 6]));
  const u = keep(np.arange(24, null, 1, { dtype: "uint32", device }));
  const parts = Array.from({ length: 20 }, (_, j) =>
    keep(np.full([3, 2], j * 0.5 - 3, { device })),
  );
  const absM = keep(np.abs(m));
  const pos = keep(m.greater(0));
  const out = [
    keep(m.mul(2)).add(1), // chained
    np.sin(m),
    np.exp(keep(m.mul(0.3))),
    np.log1p(absM),
    np.tanh(m),
    np.sqrt(absM),
    np.power(absM, 1.7),
    m.greater(0), // bool
    np.where(pos, m, keep(k.astype("float32"))),
    keep(k.mul(k)).sub(3), // int32
    np.floorDivide(k, 4),
    np.remainder(k, 5),
    np.bitwiseXor(u, 0x55), // uint32
    np.sum(m, 1),
    np.max(m, 0),
    np.argmax(m, 1),
    np.cumsum(m, 1),
    np.mean(m),
    np.concatenate(parts, 1), // more operands than a kernel may bind
    keep(m.T).add(0), // through a transposed view
    keep(m.slice([1, 3], [2, 5])).mul(3), // through a slice
    keep(np.broadcastTo(keep(m.slice(0)), [5, 6])).add(keep(m.slice(1))), // broadcasts
    np.matmul(m, keep(m.T)), // a small product
    m.astype("int32"),
  ];
  for (const a of made) a.dispose();
  return out;
}

Deno.test("small operations on host-held arrays: the cpu device's bits, no GPU work", async () => {
  await noLeaks(async () => {
    smallOps("webgpu").forEach((a) => a.dispose()); // anything lazily set up, set up
    const before = work();
    const got = smallOps("webgpu");
    const during = work();
    for (const a of got) check(a.device === "webgpu", `device ${a.device}`);
    const read = await Promise.all(got.map(bytes));
    const after = work();
    check(JSON.stringify(during) === JSON.stringify(before), `GPU work: ${before} → ${during}`);
    check(after[2] === before[2], `maps: ${after[2] - before[2]}`);
    const want = await Promise.all(smallOps("cpu").map(bytes));
    read.forEach((g, i) => check(g.join() === want[i].join(), `result ${i} differs from cpu`));
  });
});

Deno.test("fromfunction on a small shape: no kernel, no map, the cpu device's values", async () => {
  await noLeaks(async () => {
    const f = (i: OxArray, j: OxArray) => {
      using t = i.mul(10);
      using s = np.sin(j);
      return t.add(s);
    };
    const before = work();
    const got = await bytes(np.fromfunction(f, [10, 10]));
    const after = work();
    check(JSON.stringify(after) === JSON.stringify(before), `GPU work: ${before} → ${after}`);
    defaultDevice("cpu");
    try {
      const want = await bytes(np.fromfunction(f, [10, 10]));
      check(got.join() === want.join(), "differs from cpu");
    } finally {
      defaultDevice("webgpu");
    }
  });
});

Deno.test("small random draws stay eager on the host, equal to the cpu device's", async () => {
  await noLeaks(async () => {
    const draw = async (device: Device) => {
      using key = random.key(7, { device });
      const out = [];
      // Three calls: a composition would compile on its second.
      for (let n = 0; n < 3; n++) out.push(await bytes(random.uniform(key, [16])));
      out.push(await bytes(random.normal(key, [4, 4])));
      return out;
    };
    const [before, compiles] = [work(), memoryStats().compiledCalls.compiles];
    const got = await draw("webgpu");
    const after = work();
    check(after[0] === before[0] && after[2] === before[2], `GPU work: ${before} → ${after}`);
    check(memoryStats().compiledCalls.compiles === compiles, "nothing compiled");
    const want = await draw("cpu");
    got.forEach((g, i) => check(g.join() === want[i].join(), `draw ${i} differs from cpu`));
  });
});

Deno.test("a composition over the host's budget of work compiles, as on the device", async () => {
  await noLeaks(async () => {
    // 1000 normal draws: a 4000-byte result, but ~30 operations of 1000 elements each.
    const draw = async (device: Device) => {
      using key = random.key(11, { device });
      const out = [];
      for (let n = 0; n < 3; n++) {
        const a = random.normal(key, [1000]);
        out.push(Array.from(await a.data()));
        a.dispose();
      }
      return out;
    };
    const compiles = memoryStats().compiledCalls.compiles;
    const got = await draw("webgpu");
    check(memoryStats().compiledCalls.compiles === compiles + 1, "compiled on its second call");
    const want = await draw("cpu");
    // The GPU's erfinv is within a few ulp of the interpreter's.
    got.forEach((g, i) =>
      g.forEach((v, j) =>
        check(Math.abs(v - want[i][j]) <= 1e-5 * (1 + Math.abs(want[i][j])), `draw ${i}[${j}]`),
      ),
    );
  });
});

Deno.test("large results, large work and GPU-computed operands run on the device", async () => {
  await noLeaks(async () => {
    const ran = async (name: string, f: () => OxArray, want: number[]) => {
      const before = work();
      const a = f();
      const d = Array.from(await a.data());
      a.dispose();
      const after = work();
      check(after[0] > before[0], `${name}: no dispatch`);
      check(after[2] > before[2], `${name}: no map`);
      check(
        d.length === want.length && d.every((v, i) => Math.abs(v - want[i]) <= 1e-5),
        `${name}: ${d.slice(0, 4)} vs ${want.slice(0, 4)}`,
      );
    };
    using small = np.arange(1100); // 4,400 bytes: not held on the host
    using ones = np.ones([32, 32]);
    using tiny = np.array([1, 2, 3]);
    // A result over 4 KiB from host-held operands.
    using wide = np.broadcastTo(tiny, [400, 3]);
    await ran("large result", () => wide.add(0), Array(400).fill([1, 2, 3]).flat());
    // An operand computed on the GPU.
    await ran("computed operand", () => np.sum(small), [(1099 * 1100) / 2]);
    // 32×32 times 32×32: over the host's budget of element-terms.
    await ran("large work", () => np.matmul(ones, ones), Array(1024).fill(32));
    if (HAS_F16) {
      using h = np.array([1.5, -2, 3], { dtype: "float16" });
      await ran("float16", () => h.mul(2), [3, -4, 6]);
    }
  });
});

Deno.test("smallOnHost: false runs small operations on the GPU", async () => {
  await noLeaks(async () => {
    await init({ smallOnHost: false });
    try {
      const before = work();
      const got = smallOps("webgpu");
      const read = await Promise.all(got.map((a) => a.data().finally(() => a.dispose())));
      const after = work();
      check(after[0] - before[0] >= got.length - 4, `dispatches: ${after[0] - before[0]}`);
      check(after[2] > before[2], "mapped");
      const want = await Promise.all(
        smallOps("cpu").map((a) => a.data().finally(() => a.dispose())),
      );
      read.forEach((g, i) =>
        g.forEach((v, j) => {
          const w = Number(want[i][j]);
          check(
            Math.abs(Number(v) - w) <= 1e-5 * (1 + Math.abs(w)),
            `result ${i}[${j}]: ${v} vs ${w}`,
          );
        }),
      );
    } finally {
      await init({ smallOnHost: true });
    }
  });
});

Deno.test("init rejects a smallOnHost that is not a boolean", async () => {
  let message = "";
  // @ts-expect-error: the wrong type on purpose
  await init({ smallOnHost: 1 }).catch((e: Error) => (message = e.message));
  check(message === "init: smallOnHost must be a boolean, got 1", message);
});
