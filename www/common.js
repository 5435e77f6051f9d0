// Shared by the demo pages: loads oxjax and oxjax/optax, picks the device from `?device=` (a
// switch on the page reloads with another), yields to the browser between steps, and
// publishes the page's state on `window.demo` for the tests.
import * as ox from "../pkg/index.js";
import * as optax from "../pkg/optax/index.js";

export { ox, optax };
export const params = new URLSearchParams(location.search);

/** Starts every device, picks `?device=` (else `preferred` where available, else wasm). */
export async function setup(preferred = "wasm") {
  const available = await ox.init();
  const wanted = params.get("device") ?? preferred;
  const device = available.includes(wanted) ? wanted : "wasm";
  ox.defaultDevice(device);
  const select = document.getElementById("device");
  if (select) {
    for (const d of available.filter((d) => d !== "cpu")) {
      const opt = document.createElement("option");
      opt.value = opt.textContent = d;
      opt.selected = d === device;
      select.append(opt);
    }
    select.addEventListener("change", () => {
      params.set("device", select.value);
      location.search = params.toString();
    });
  }
  window.demo = { device, available, status: "starting" };
  return { device, available };
}

/** Gives the browser a turn (rendering, input) without the 4 ms clamp of nested timeouts. */
export function yieldToBrowser() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });
}

/** Resolves after the next frame is painted. */
export function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** Shows an error on the page and in the console, and marks the demo failed. */
export function fail(e) {
  console.error(e);
  const el = document.getElementById("status");
  if (el) {
    el.textContent = `Error: ${e instanceof Error ? e.message : e}`;
    el.className = "error";
  }
  if (window.demo) window.demo.status = "error";
  document.body.dataset.status = "error";
}

/** Remembers ms-per-step per device for this tab, and renders them as "wasm 3.1 · webgpu 9.0". */
export function recordTiming(page, device, ms) {
  const key = `oxjax-${page}-timings`;
  const all = JSON.parse(sessionStorage.getItem(key) ?? "{}");
  all[device] = ms;
  sessionStorage.setItem(key, JSON.stringify(all));
  return Object.entries(all)
    .map(([d, v]) => `${d} ${v.toFixed(1)} ms`)
    .join(" · ");
}
