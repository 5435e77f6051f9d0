// The REPL's worker: runs the code the page sends as an async function with oxjax's names in
// scope; `print` shows arrays (read back asynchronously, so webgpu works), Jaxprs and plain
// values. The user's code runs here, so a long loop never freezes the page.
import { breathe, optax, ox, post, serve, status } from "../compute.js";

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

serve(async ({ device, on }) => {
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
    tick: breathe,
  };
  post("scope", { names: Object.keys(scope) });

  on("run", async ({ code }) => {
    status("running…", "running");
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
      const fn = new AsyncFunction(...Object.keys(scope), "print", code);
      await fn(...Object.values(scope), print);
      const text = [];
      for (const values of lines) text.push((await Promise.all(values.map(format))).join(" "));
      post("output", { text: text.join("\n"), error: false });
      const live = ox.memoryStats().liveArrays - before;
      status(
        `ran in ${(performance.now() - t0).toFixed(1)} ms · ${live} array(s) left alive`,
        "done",
      );
    } catch (e) {
      // An error in the user's code is shown, not thrown: the page itself is fine.
      for (const values of lines) for (const v of values) if (v instanceof ox.Array) v.dispose();
      post("output", {
        text: `${e instanceof Error ? `${e.name}: ${e.message}` : e}`,
        error: true,
      });
      status("error in the code", "done");
    }
  });
});
