/**
 * The warm-up `init()` runs once per process: a tiny fixed workload on the `wasm` device that
 * takes the code paths almost every program takes — making an array from a typed array, reading
 * its shape and dtype, the identity functions (which share their argument), reshapes and other
 * views, zero-filled creation, a dtype conversion to the same dtype, reading a result, disposing
 * it — so that the JavaScript engine compiles the code behind them (functions of the main
 * WebAssembly module are compiled on their first call, and so are the JavaScript functions and
 * the wrappers of each boundary signature) inside `init()` rather than on the user's first call.
 * It compiles no kernel and leaves no array, buffer or default-device change behind; only
 * `memoryStats()`'s cumulative counters (uploads, reads) and the wasm buffer pool record it.
 */
import { Array } from "./array.js";
import { DType } from "./dtype.js";
import * as np from "./named/numpy.js";
import * as lax from "./named/lax.js";
import * as nn from "./named/nn.js";

let warmed = false;

/** Runs the warm-up the first time it is called; later calls return at once. */
export async function warmUp(): Promise<void> {
  if (warmed) return;
  warmed = true;
  const made: Array[] = [];
  const keep = (a: Array): Array => (made.push(a), a);
  try {
    const x = keep(np.array(new Float32Array([1, 2, 3, 4]), { shape: [2, 2], device: "wasm" }));
    void [x.shape, x.dtype, x.ndim, x.size];
    const flat = keep(np.ravel(x));
    keep(np.expandDims(flat, 0));
    keep(np.squeeze(keep(np.reshape(x, [1, 4]))));
    keep(np.positive(x));
    keep(nn.identity(x));
    keep(lax.stopGradient(x));
    keep(np.astype(x, DType.Float32));
    keep(np.zeros([2], { device: "wasm" }));
    keep(np.zerosLike(x));
    keep(np.full([2], 1, { device: "wasm" }));
    for (const a of made) await a.data();
    made[made.length - 1].dataSync();
  } catch {
    // An optimisation only: a failure here (no memory left, say) must not fail `init()`; the
    // user's own call meets the same condition and reports it.
  } finally {
    for (const a of made) a.dispose();
  }
}
