// The Mandelbrot zoom's worker: escape counts computed by oxjax on the chosen device (webgpu
// by default where available), 16 iterations per call of a jitted function, coloured and drawn
// here on the page's canvas; the page shows the frame times.
import { breathe, ox, post, publish, serve, status } from "../compute.js";

const np = ox.numpy;
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

/** RGBA (little-endian u32) per escape count 0..ITERATIONS; the points that never escape are dark. */
function palette() {
  const table = new Uint32Array(ITERATIONS + 1);
  const bytes = new Uint8ClampedArray(table.buffer);
  for (let i = 0; i <= ITERATIONS; i++) {
    const t = i / ITERATIONS;
    const rgb =
      i === ITERATIONS
        ? [10, 10, 30]
        : [0, 0.15, 0.3].map((phase) => 255 * (0.5 + 0.5 * Math.cos(6.28 * (t + phase))));
    bytes.set([...rgb.map(Math.round), 255], i * 4);
  }
  return table;
}

serve(async ({ device, params, canvases, on }) => {
  const W = Number(params.get("w") ?? 256);
  const H = (W * 3) / 4;
  const frames = Number(params.get("frames") ?? Infinity);
  post("grid", { W, H, iterations: ITERATIONS });
  const step = ox.jit(iterate(CHUNK));
  const lut = palette();
  const { canvas } = canvases.view;
  [canvas.width, canvas.height] = [W, H];
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(W, H);
  const pixels = new Uint32Array(image.data.buffer);
  let paused = false;
  on("pause", ({ paused: p }) => (paused = p));

  using u0 = np.linspace(-0.5, 0.5, W);
  using u = u0.reshape([1, W]);
  using v0 = np.linspace(-0.5, 0.5, H);
  using v1 = v0.mul(H / W);
  using v = v1.reshape([H, 1]);
  using zeros = np.zeros([H, W]);

  status(`zooming on ${device}…`, "running");
  let total = 0;
  for (let frame = 0; frame < frames; frame++) {
    while (paused) await new Promise((resolve) => setTimeout(resolve, 50));
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
      await breathe();
    }
    const counts = await state[2].data();
    state.forEach((a) => a.dispose());
    const ms = performance.now() - t0;
    if (frame > 0) total += ms;
    const live = ox.memoryStats().liveArrays;
    publish({
      frame: frame + 1,
      frameMs: ms,
      liveArrays: live,
      ...(frame === 0 ? { frame0: Array.from(counts) } : {}),
      ...(frame === 1 ? { liveArraysAfterSecondFrame: live } : {}),
    });
    for (let i = 0; i < pixels.length; i++) pixels[i] = lut[counts[i]];
    ctx.putImageData(image, 0, 0);
    post("frame", { frame: frame + 1, ms, msPerFrame: frame > 0 ? total / frame : null });
    await breathe();
  }
  status(`done: ${frames} frames on ${device}`, "done");
});
