// The Mandelbrot zoom's page: the worker (worker.js, where oxjax iterates) draws the frames on
// the page's canvas; the page shows the frame times and pauses the zoom.
import { $, recordTiming, startDemo } from "../page.js";

const handlers = {
  grid({ W, H, iterations }) {
    $("grid").textContent = `${W} × ${H} points × ${iterations} iterations`;
  },
  frame({ frame, ms, msPerFrame }) {
    $("frame").textContent = String(frame);
    $("frame-ms").textContent = `${ms.toFixed(1)} ms`;
    if (msPerFrame !== null)
      $("ms-devices").textContent = recordTiming("showcase", window.demo.device, msPerFrame);
  },
};
const post = startDemo(new URL("./worker.js", import.meta.url), handlers, {
  preferred: "webgpu",
  canvases: ["view"],
});
let paused = false;
$("pause").addEventListener("click", () => {
  paused = !paused;
  $("pause").textContent = paused ? "Resume" : "Pause";
  post({ type: "pause", paused });
});
