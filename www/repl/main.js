// The REPL: runs the textarea's JavaScript as an async function with oxjax's names in scope;
// `print` shows arrays (read back asynchronously, so webgpu works), Jaxprs and plain values.
import { fail, optax, ox, params, setup, yieldToBrowser } from "../common.js";
import { presets } from "./presets.js";

const $ = (id) => document.getElementById(id);
const AsyncFunction = (async () => {}).constructor;

/** Formats one printed value; arrays are held with `.ref` until read, then released. */
async function format(value) {
  if (value instanceof ox.Array) {
    try {
      const v = await value.jsAsync();
      return `${JSON.stringify(v, (_, x) => (typeof x === "number" ? +x.toPrecision(6) : x))} (${value.dtype}[${value.shape}] on ${value.device})`;
    } finally {
      value.dispose();
    }
  }
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? String(value);
}

async function main() {
  const { device } = await setup("wasm");
  const scope = {
    np: ox.numpy,
    lax: ox.lax,
    nn: ox.nn,
    random: ox.random,
    tree: ox.tree,
    scipySpecial: ox.scipySpecial,
    grad: ox.grad,
    valueAndGrad: ox.valueAndGrad,
    vjp: ox.vjp,
    jvp: ox.jvp,
    makeJaxpr: ox.makeJaxpr,
    jit: ox.jit,
    vmap: ox.vmap,
    optax,
    device,
    tick: yieldToBrowser,
  };
  $("scope").textContent = `In scope: ${Object.keys(scope)
    .filter((k) => scope[k] !== null)
    .join(", ")}, print(...values); await tick() lets the page draw. Arrays are made on ${device}.`;
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

  async function run() {
    document.body.dataset.status = window.demo.status = "running";
    $("status").textContent = "running…";
    $("output").textContent = "";
    const lines = [];
    const print = (...values) => {
      // Hold arrays and print Jaxprs now: the code may dispose them before they are shown.
      lines.push(
        values.map((v) =>
          v instanceof ox.Array ? v.ref : v instanceof ox.ClosedJaxpr ? `\n${v}` : v,
        ),
      );
    };
    const before = ox.memoryStats().liveArrays;
    const t0 = performance.now();
    try {
      const fn = new AsyncFunction(...Object.keys(scope), "print", $("code").value);
      await fn(...Object.values(scope), print);
      const text = [];
      for (const values of lines) text.push((await Promise.all(values.map(format))).join(" "));
      $("output").textContent = text.join("\n");
      $("output").className = "";
      const live = ox.memoryStats().liveArrays - before;
      $("status").textContent =
        `ran in ${(performance.now() - t0).toFixed(1)} ms · ${live} array(s) left alive`;
      document.body.dataset.status = window.demo.status = "done";
    } catch (e) {
      // An error in the user's code is shown, not thrown: the page itself is fine.
      for (const values of lines) for (const v of values) if (v instanceof ox.Array) v.dispose();
      $("output").textContent = `${e instanceof Error ? `${e.name}: ${e.message}` : e}`;
      $("output").className = "error";
      $("status").textContent = "error in the code";
      document.body.dataset.status = window.demo.status = "done";
    }
  }

  $("run").addEventListener("click", () => run().catch(fail));
  $("code").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) run().catch(fail);
  });
  await run();
}

main().catch(fail);
