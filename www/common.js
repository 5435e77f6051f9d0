// Shared by the demo pages: loads oxjax, picks the device from `?device=` (a switch on the
// page reloads with another), finds which transformations this build has, yields to the
// browser between steps, and publishes the page's state on `window.demo` for the tests.
import * as ox from "../pkg/index.js";

export { ox };
export const params = new URLSearchParams(location.search);

/** `fn` when it is implemented: not missing, and not one of the stubs that throw "not supported". */
const implemented = (fn) =>
  typeof fn === "function" && !String(fn).includes("not supported in oxjax yet") ? fn : null;

/** The optional APIs a page uses when this build has them (each falls back to eager code). */
export async function features() {
  let optax = null;
  try {
    const mod = await import("../pkg/optax/index.js");
    if (implemented(mod.adam) && implemented(mod.applyUpdates)) optax = mod;
  } catch {
    optax = null;
  }
  return {
    jit: implemented(ox.jit),
    vmap: implemented(ox.vmap),
    scan: implemented(ox.lax.scan),
    associativeScan: implemented(ox.lax.associativeScan),
    optax,
  };
}

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

/** Lists which optional APIs are used, e.g. "jit ✓ · lax.scan ✗ (eager loop)". */
export function describe(feats, names) {
  return names
    .map(([key, label, fallback]) => (feats[key] ? `${label} ✓` : `${label} ✗ (${fallback})`))
    .join(" · ");
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

/** Adam on a pytree of arrays with np ops, used when `oxjax/optax` is not in this build. */
export function fallbackAdam(b1 = 0.9, b2 = 0.999, eps = 1e-8) {
  const { numpy: np, tree } = ox;
  return {
    init(p) {
      const zeros = () => tree.map((x) => np.zerosLike(x), p);
      return { count: 0, mu: zeros(), nu: zeros() };
    },
    /** The step `-lr · m̂ / (√v̂ + eps)` and the new state; the old state's arrays are freed. */
    update(g, state, lr) {
      const count = state.count + 1;
      const mu = tree.map(
        (m, gi) => {
          using a = m.mul(b1);
          using b = gi.mul(1 - b1);
          return a.add(b);
        },
        state.mu,
        g,
      );
      const nu = tree.map(
        (v, gi) => {
          using a = v.mul(b2);
          using sq = gi.mul(gi);
          using b = sq.mul(1 - b2);
          return a.add(b);
        },
        state.nu,
        g,
      );
      const c1 = 1 - b1 ** count;
      const c2 = 1 - b2 ** count;
      const step = tree.map(
        (m, v) => {
          using vhat = v.div(c2);
          using root = np.sqrt(vhat);
          using denom = root.add(eps);
          using num = m.mul(-lr / c1);
          return num.div(denom);
        },
        mu,
        nu,
      );
      tree.dispose([state.mu, state.nu]);
      return [step, { count, mu, nu }];
    },
  };
}
