// The MLP demo's page: shows the numbers the worker (worker.js, where oxjax trains the network
// and the curve and digits are drawn) posts.
import { $, recordTiming, startDemo } from "../page.js";

const handlers = {
  step({ step, loss, msPerStep }) {
    $("step").textContent = String(step);
    $("loss").textContent = loss.toFixed(4);
    $("ms-step").textContent = `${msPerStep.toFixed(1)} ms`;
  },
  epoch({ epoch, accuracy }) {
    $("epoch").textContent = String(epoch);
    $("accuracy").textContent = `${(100 * accuracy).toFixed(1)}%`;
  },
  done({ msPerStep }) {
    $("ms-devices").textContent = recordTiming("mlp", window.demo.device, msPerStep);
  },
};
const post = startDemo(new URL("./worker.js", import.meta.url), handlers, {
  canvases: ["curve", "digits"],
});
$("restart").addEventListener("click", () => post({ type: "restart" }));
