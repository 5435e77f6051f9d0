// A lost WebGPU device (Deno, lavapipe). The test captures the GPUDevice that oxjax opens (by
// wrapping GPUAdapter.prototype.requestDevice) and destroys it, as a driver reset or the
// browser reclaiming the GPU would lose it. Then: a read in flight rejects (never hangs), every
// operation on a webgpu array throws an Error naming the function and the loss, cpu and wasm
// arrays keep working, memoryStats() and webgpuUnavailableReason() report the loss, the lost
// arrays dispose without error, and `init()` opens a new device whose arrays work (the old
// arrays stay unusable). Values are checked against the cpu device; nothing leaks.
import {
  clearCaches,
  defaultDevice,
  init,
  jit,
  memoryStats,
  numpy as np,
  webgpuUnavailableReason,
} from "../../pkg/index.js";
import type { Array as OxArray } from "../../pkg/index.js";

const opened: GPUDevice[] = [];
const requestDevice = GPUAdapter.prototype.requestDevice;
GPUAdapter.prototype.requestDevice = async function (
  this: GPUAdapter,
  descriptor?: GPUDeviceDescriptor,
) {
  const device = await requestDevice.call(this, descriptor);
  opened.push(device);
  return device;
};

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** The error `body` throws (or its promise rejects with), or null. */
async function thrown(body: () => unknown): Promise<Error | null> {
  try {
    await body();
    return null;
  } catch (e) {
    check(e instanceof Error, `not an Error: ${String(e)}`);
    return e as Error;
  }
}

/** Checks that `body` fails with an Error naming `fn` and the lost device. */
async function failsLost(fn: string, body: () => unknown): Promise<void> {
  const e = await thrown(body);
  check(e !== null, `${fn}: no error on a lost device`);
  const m = e!.message;
  check(m.includes(fn), `${fn}: the error does not name it: ${m}`);
  check(/lost/.test(m) && /webgpu/.test(m), `${fn}: the error does not name the loss: ${m}`);
  check(!/internal error|panick|unreachable/i.test(m), `${fn}: not a clear error: ${m}`);
}

/** A's values equal the cpu device's for the same computation. */
async function equalsCpu(got: OxArray, make: (device: "cpu") => OxArray, what: string) {
  const want = make("cpu");
  const [g, w] = [await got.data(), want.dataSync()];
  want.dispose();
  check(g.length === w.length, `${what}: length ${g.length} vs ${w.length}`);
  for (let i = 0; i < w.length; i++) check(g[i] === w[i], `${what}[${i}]: ${g[i]} vs ${w[i]}`);
}

const values = Array.from({ length: 64 }, (_, i) => (i % 7) - 3);
const compute = (device: "cpu" | "wasm" | "webgpu") => {
  const x = np.array(values, { device });
  const tripled = x.mul(3);
  const y = tripled.add(1);
  for (const a of [x, tripled]) a.dispose();
  return y;
};

// Opened outside the test: the sanitizers do not count it (the one that `init()` opens again
// inside the test stays open after it, as an application's would).
check(
  (await init({ maxStorageBuffers: 8, smallOnHost: false })).includes("webgpu"),
  "webgpu starts",
);

Deno.test({
  name: "a lost webgpu device throws clear errors and init() brings it back",
  sanitizeResources: false,
  fn: testLostDevice,
});

async function testLostDevice(): Promise<void> {
  check(opened.length === 1, `devices opened: ${opened.length}`);
  const base = memoryStats();
  const double = jit((a: OxArray) => a.mul(2));

  // Before the loss: webgpu works, jitted too.
  const kept = compute("webgpu");
  await equalsCpu(kept, compute, "before the loss");
  const jitted = double(kept);
  jitted.dispose();
  const disposedWhileLost = compute("webgpu");
  const wasmArray = compute("wasm");
  const cpuArray = compute("cpu");

  // A read in flight when the device goes: it rejects, it does not hang.
  const pending = kept.data();
  opened[0].destroy();
  const inFlight = await thrown(() => pending);
  check(
    inFlight !== null && /^data: /.test(inFlight.message) && /lost/.test(inFlight.message),
    `read in flight: ${inFlight}`,
  );
  await opened[0].lost;
  await new Promise((r) => setTimeout(r, 0));

  // Every later operation on webgpu arrays: a clear Error naming the function and the loss.
  await failsLost("data", () => kept.data());
  await failsLost("add", () => kept.add(1));
  await failsLost("blockUntilReady", () => kept.blockUntilReady());
  await failsLost("array", () => np.array([1, 2], { device: "webgpu" }));
  await failsLost("jit", () => double(kept));

  // memoryStats and webgpuUnavailableReason report the loss; cpu and wasm keep working.
  const lost = memoryStats().devices.webgpu;
  check(lost?.lost === true, `memoryStats webgpu.lost: ${lost?.lost}`);
  check(memoryStats().devices.wasm?.lost === false, "wasm is not lost");
  await equalsCpu(wasmArray, compute, "wasm after the loss");
  await equalsCpu(cpuArray, compute, "cpu after the loss");
  const fresh = compute("wasm");
  await equalsCpu(fresh, compute, "new wasm array after the loss");
  for (const a of [fresh, wasmArray, cpuArray]) a.dispose();
  check(defaultDevice() === "wasm", "the default device is unchanged");
  // Frees and clearCaches still work on the lost device: its arrays dispose without error.
  const buffers = memoryStats().devices.webgpu!.liveBuffers;
  disposedWhileLost.dispose();
  const freed = buffers - memoryStats().devices.webgpu!.liveBuffers;
  check(freed === 1, `buffers freed on the lost device: ${freed}`);
  clearCaches();
  const reason = webgpuUnavailableReason();
  check(reason !== null && /lost/.test(reason) && /destroyed/.test(reason), `reason: ${reason}`);
  await failsLost("defaultDevice", () => defaultDevice("webgpu"));

  // init() opens a new device: new webgpu arrays (and the jitted function) work again.
  check((await init("webgpu", { maxStorageBuffers: 8 })).includes("webgpu"), "init again");
  check(opened.length === 2, `devices opened: ${opened.length}`);
  check(webgpuUnavailableReason() === null, "no reason once it works");
  check(memoryStats().devices.webgpu?.lost === false, "the new device is not lost");
  const again = compute("webgpu");
  await equalsCpu(again, compute, "a new webgpu array");
  const twice = double(again);
  const doubled = (d: "cpu") => {
    const c = compute(d);
    const m = c.mul(2);
    c.dispose();
    return m;
  };
  await equalsCpu(twice, doubled, "jit on the new device");
  twice.dispose();
  again.dispose();

  // The old array stays unusable (a clear error, not another array's data); it disposes.
  await failsLost("data", () => kept.data());
  await failsLost("add", () => kept.add(1));
  kept.dispose();
  double.dispose();

  const after = memoryStats();
  check(
    after.liveArrays === base.liveArrays,
    `live arrays: ${base.liveArrays} → ${after.liveArrays}`,
  );
  check(after.pendingReads === base.pendingReads, `pending reads: ${after.pendingReads}`);
  const gpuAfter = after.devices.webgpu!;
  check(
    gpuAfter.liveBuffers === 0 && gpuAfter.liveBytes === 0,
    `webgpu buffers: ${gpuAfter.liveBuffers}`,
  );
  check(after.devices.wasm!.liveBuffers === base.devices.wasm!.liveBuffers, "wasm buffers");
  check(after.devices.cpu!.liveBuffers === base.devices.cpu!.liveBuffers, "cpu buffers");
}
