// Shared by the demo workers (the other side of page.js): loads oxjax and oxjax/optax in a
// module worker, starts the device the page asks for, runs the demo, and reports to the page by
// messages. All of oxjax's work (tracing, jit compiles, scans, dispatches, read-backs) and the
// canvas drawing happen here, off the page's main thread.
import * as ox from "../pkg/index.js";
import * as optax from "../pkg/optax/index.js";

export { ox, optax };

/** Sends `{ type, ...fields }` to the page (moving the buffers in `transfer`). */
export function post(type, fields = {}, transfer = []) {
  self.postMessage({ type, ...fields }, transfer);
}

/** Merges `fields` into the page's `window.demo` (what the tests read). */
export const publish = (fields) => post("state", { state: fields });

/** Sets the page's status line, and its state when `status` is given ("running", "done"). */
export const status = (text, state) => post("status", { text, status: state });

/** A data file of www/data/, parsed. */
export async function loadData(name) {
  return (await fetch(new URL(`data/${name}`, import.meta.url))).json();
}

/** Lets the worker take the page's messages (restart, pause) between steps. */
export function breathe() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });
}

const describe = (e) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/**
 * Serves a demo. Says "listening"; on the page's "start" message: starts every device, makes
 * `device` (else wasm) the default, tells the page ("ready"), and runs `main({ device, params, canvases, on })`:
 * `canvases` maps the ids of the page's canvases to `{ canvas, width, height, dpr }` (see
 * canvas.js; "resize" messages keep the sizes current), and `on(type, fn)` routes the page's
 * later messages of that type to `fn(message)`. A failure anywhere is shown by the page.
 */
export function serve(main) {
  const handlers = {};
  let canvases = {};
  const on = (type, fn) => (handlers[type] = fn);
  const guard = async (work) => {
    try {
      await work();
    } catch (e) {
      post("error", { message: describe(e) });
    }
  };
  self.addEventListener("unhandledrejection", (e) =>
    post("error", { message: describe(e.reason) }),
  );
  self.addEventListener("message", ({ data }) =>
    guard(async () => {
      if (data.type === "resize") {
        for (const [id, size] of Object.entries(data.sizes))
          if (canvases[id]) Object.assign(canvases[id], size);
      }
      if (data.type !== "start") return handlers[data.type]?.(data);
      canvases = data.canvases;
      const available = await ox.init();
      const device = available.includes(data.device) ? data.device : "wasm";
      ox.defaultDevice(device);
      post("ready", { device, available });
      await main({ device, params: new URLSearchParams(data.params), canvases, on });
    }),
  );
  // Messages the page sent before this listener existed may be lost (the module graph awaits
  // the wasm at its top level), so the page starts the demo only once it hears this.
  post("listening");
}
