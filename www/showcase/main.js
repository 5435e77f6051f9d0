// The Mandelbrot zoom: escape counts computed by oxjax on the chosen device (webgpu by default
// where available), 16 iterations per call, coloured by the page.
import { fail, nextFrame, ox, params, recordTiming, setup } from "../common.js";

const np = ox.numpy;
const $ = (id) => document.getElementById(id);
const CENTER = [-0.743643887037151, 0.13182590420533];
const ITERATIONS = 64;
const CHUNK = 16;

/** `n` steps of z ← z² + c for the points still inside |z| ≤ 2, counting them. */
function iterate(n) {
  return (zr, zi, count, cr, ci) => {
    for (let k = 0; k < n; k++) {
      using zr2 = zr.mul(zr);
      using zi2 = zi.mul(zi);
      using r2 = zr2.add(zi2);
      using inside = r2.lessEqual(4);
      using d = zr2.sub(zi2);
      using nzr = d.add(cr);
      using zz = zr.mul(zi);
      using zz2 = zz.mul(2);
      using nzi = zz2.add(ci);
      using one = inside.astype(np.float32);
      const next = [np.where(inside, nzr, zr), np.where(inside, nzi, zi), count.add(one)];
      if (k > 0) [zr, zi, count].forEach((a) => a.dispose());
      [zr, zi, count] = next;
    }
    return [zr, zi, count];
  };
}

function palette() {
  const lut = new Uint8ClampedArray((ITERATIONS + 1) * 4);
  for (let i = 0; i <= ITERATIONS; i++) {
    const t = i / ITERATIONS;
    const inside = i === ITERATIONS;
    lut.set(
      inside
        ? [10, 10, 30, 255]
        : [
            Math.round(255 * (0.5 + 0.5 * Math.cos(6.28 * (t + 0.0)))),
            Math.round(255 * (0.5 + 0.5 * Math.cos(6.28 * (t + 0.15)))),
            Math.round(255 * (0.5 + 0.5 * Math.cos(6.28 * (t + 0.3)))),
            255,
          ],
      i * 4,
    );
  }
  return lut;
}

async function main() {
  const { device } = await setup("webgpu");
  const W = Number(params.get("w") ?? 256);
  const H = (W * 3) / 4;
  const frames = Number(params.get("frames") ?? Infinity);
  $("grid").textContent = `${W} × ${H} points × ${ITERATIONS} iterations`;
  const step = ox.jit(iterate(CHUNK));

  using u0 = np.linspace(-0.5, 0.5, W);
  using u = u0.reshape([1, W]);
  using v0 = np.linspace(-0.5, 0.5, H);
  using v1 = v0.mul(H / W);
  using v = v1.reshape([H, 1]);
  using zeros = np.zeros([H, W]);

  const canvas = $("view");
  canvas.width = W;
  canvas.height = H;
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(W, H);
  const lut = palette();
  let paused = false;
  $("pause").addEventListener("click", () => {
    paused = !paused;
    $("pause").textContent = paused ? "Resume" : "Pause";
  });

  window.demo.status = "running";
  document.body.dataset.status = "running";
  window.demo.runStart = Infinity;
  let total = 0;
  for (let frame = 0; frame < frames; frame++) {
    while (paused) await nextFrame();
    const t0 = performance.now();
    const scale = 3 * 0.97 ** (frame % 300);
    using sx = u.mul(scale);
    using sy = v.mul(scale);
    using cr0 = sx.add(CENTER[0]);
    using ci0 = sy.add(CENTER[1]);
    using cr = np.broadcastTo(cr0, [H, W]);
    using ci = np.broadcastTo(ci0, [H, W]);
    let state = [zeros, zeros, zeros];
    for (let done = 0; done < ITERATIONS; done += CHUNK) {
      const next = step(...state, cr, ci);
      if (done > 0) state.forEach((a) => a.dispose());
      state = next;
      await nextFrame();
    }
    const counts = await state[2].data();
    state.forEach((a) => a.dispose());
    for (let i = 0; i < W * H; i++)
      image.data.set(lut.subarray(counts[i] * 4, counts[i] * 4 + 4), i * 4);
    ctx.putImageData(image, 0, 0);
    const ms = performance.now() - t0;
    if (frame > 0) total += ms;
    if (frame === 0) window.demo.frame0 = globalThis.Array.from(counts);
    if (frame === 1) window.demo.runStart = performance.now();
    $("frame").textContent = String(frame + 1);
    $("frame-ms").textContent = `${ms.toFixed(1)} ms`;
    Object.assign(window.demo, {
      frame: frame + 1,
      frameMs: ms,
      liveArrays: ox.memoryStats().liveArrays,
    });
    if (frame === 1) window.demo.liveArraysAfterSecondFrame = window.demo.liveArrays;
    if (frame > 0) $("ms-devices").textContent = recordTiming("showcase", device, total / frame);
  }
  $("status").textContent = `done: ${frames} frames on ${device}`;
  window.demo.status = "done";
  document.body.dataset.status = "done";
}

main().catch(fail);
