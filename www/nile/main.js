// The Nile demo's page: shows the fit's numbers as the worker (worker.js, where oxjax runs and
// the plot is drawn) posts them.
import { $, fmt, recordTiming, startDemo } from "../page.js";

const handlers = {
  data({ ref }) {
    $("reference").textContent =
      `σ²ε ${fmt(ref.sigma2_eps)} · σ²η ${fmt(ref.sigma2_eta)} · log-likelihood ${fmt(ref.loglik, 3)}`;
  },
  step({ step, loglik, sigma2Eps, sigma2Eta }) {
    $("step").textContent = String(step);
    $("loglik").textContent = fmt(loglik, 3);
    $("sigma2-eps").textContent = fmt(sigma2Eps);
    $("sigma2-eta").textContent = fmt(sigma2Eta);
    $("ms-step").textContent = `${window.demo.msPerStep.toFixed(1)} ms`;
  },
  smooth({ ms }) {
    $("ms-parallel").textContent = `${ms.toFixed(1)} ms`;
  },
  sequential({ ms, diff }) {
    $("ms-scan").textContent = `${ms.toFixed(1)} ms`;
    $("scan-diff").textContent = diff.toPrecision(3);
  },
  done({ msPerStep }) {
    $("ms-devices").textContent = recordTiming("nile", window.demo.device, msPerStep);
  },
};
const post = startDemo(new URL("./worker.js", import.meta.url), handlers, { canvases: ["plot"] });
$("restart").addEventListener("click", () => post({ type: "restart" }));
