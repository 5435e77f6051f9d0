// The REPL's page: the editor, the presets and the output; the code runs in the worker
// (worker.js), with oxjax's names in scope.
import { $, params, startDemo } from "../page.js";
import { presets } from "./presets.js";

for (const [i, p] of presets.entries()) {
  const opt = document.createElement("option");
  opt.value = String(i);
  opt.textContent = p.name;
  $("preset").append(opt);
}
const load = () => ($("code").value = presets[Number($("preset").value)].code);
$("preset").addEventListener("change", load);
$("preset").value = params.get("preset") ?? "0";
load();

const run = () => {
  $("output").textContent = "";
  post({ type: "run", code: $("code").value });
};
const post = startDemo(new URL("./worker.js", import.meta.url), {
  scope({ names }) {
    $("scope").textContent =
      `In scope: ${names.join(", ")}, print(...values); await tick() lets other work in. ` +
      `Arrays are made on ${window.demo.device}; the code runs in a worker, so the page stays live.`;
  },
  ready: run,
  output({ text, error }) {
    $("output").textContent = text;
    $("output").className = error ? "error" : "";
  },
});
$("run").addEventListener("click", run);
$("code").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) run();
});
