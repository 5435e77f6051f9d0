// Shared by the demo pages, on the main thread. A page is a thin UI: oxjax runs in the page's
// module worker (compute.js on the other side), which also draws the page's canvases (handed to
// it as OffscreenCanvas), so jit compiles, scans, dispatches and canvas work never block input
// or painting. This file builds the shared chrome (the link back, the device switch, the status
// line), starts the worker with `?device=` and the other URL parameters, mirrors the worker's
// state on `window.demo` for the tests, and shows errors.

export const params = new URLSearchParams(location.search);
export const $ = (id) => document.getElementById(id);

/** "15098.51" → "15,098.5". */
export const fmt = (v, digits = 1) =>
  v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Shows an error on the page and in the console, and marks the demo failed. */
export function fail(e) {
  console.error(e);
  const el = $("status");
  if (el) {
    el.textContent = `Error: ${e instanceof Error ? e.message : e}`;
    el.className = "error";
  }
  if (window.demo) window.demo.status = "error";
  document.body.dataset.status = "error";
}

/** Sets the status line and the page's state ("running", "done"), which the tests wait on. */
export function setStatus(text, status) {
  $("status").textContent = text;
  if (status) document.body.dataset.status = window.demo.status = status;
}

/**
 * Adds the link back and, at the front of `.controls`, the device switch (filled when the
 * worker reports the devices it found; choosing one reloads with `?device=`), and at its end
 * the status line.
 */
function chrome() {
  const nav = document.createElement("nav");
  nav.innerHTML = `<a href="../">← oxjax demos</a>`;
  document.body.prepend(nav);
  const controls = document.querySelector(".controls");
  const label = document.createElement("label");
  label.append("device ");
  const select = document.createElement("select");
  select.id = "device";
  label.append(select);
  controls.prepend(label);
  const status = document.createElement("span");
  status.id = "status";
  status.textContent = "Loading…";
  controls.append(status);
  select.addEventListener("change", () => {
    params.set("device", select.value);
    location.search = params.toString();
  });
}

function fillDevices(available, device) {
  for (const d of available.filter((d) => d !== "cpu")) {
    const opt = document.createElement("option");
    opt.value = opt.textContent = d;
    opt.selected = d === device;
    $("device").append(opt);
  }
}

/** `{ canvas, width, height, dpr }` for each canvas id: its CSS size, handed to the worker. */
function offscreen(ids) {
  const sizes = (id) => ({ width: $(id).clientWidth, height: $(id).clientHeight });
  const canvases = Object.fromEntries(
    ids.map((id) => [
      id,
      { canvas: $(id).transferControlToOffscreen(), ...sizes(id), dpr: devicePixelRatio },
    ]),
  );
  return { canvases, transfer: Object.values(canvases).map((c) => c.canvas), sizes };
}

/**
 * Starts the page's worker (`url`, a module) on `?device=` (else `preferred`), handing it the
 * canvases named in `canvases` (ids), and routes its messages: "listening" (answered by
 * "start"), "ready" (devices found), "state" (merged into `window.demo`), "status", "error",
 * and every other type to `handlers[type](message)`. Returns `post(message)` to the worker.
 */
export function startDemo(url, handlers, { preferred = "wasm", canvases = [] } = {}) {
  chrome();
  window.demo = { status: "starting" };
  const worker = new Worker(url, { type: "module" });
  worker.addEventListener("message", ({ data }) => {
    try {
      if (data.type === "listening") worker.postMessage(start, offscreenCanvases.transfer);
      else if (data.type === "ready") {
        Object.assign(window.demo, { device: data.device, available: data.available });
        fillDevices(data.available, data.device);
      } else if (data.type === "state") Object.assign(window.demo, data.state);
      else if (data.type === "status") setStatus(data.text, data.status);
      else if (data.type === "error") fail(data.message);
      if (data.type !== "error") handlers[data.type]?.(data);
    } catch (e) {
      fail(e);
    }
  });
  worker.addEventListener("error", (e) => fail(e.message ?? "the worker failed to start"));
  worker.addEventListener("messageerror", () => fail("a message from the worker was lost"));
  const post = (message) => worker.postMessage(message);
  const offscreenCanvases = offscreen(canvases);
  const start = {
    type: "start",
    device: params.get("device") ?? preferred,
    params: Object.fromEntries(params),
    canvases: offscreenCanvases.canvases,
  };
  // The worker redraws at the new size on its next drawing.
  addEventListener("resize", () =>
    post({
      type: "resize",
      sizes: Object.fromEntries(canvases.map((id) => [id, offscreenCanvases.sizes(id)])),
    }),
  );
  return post;
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
