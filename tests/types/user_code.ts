// Typical jax-js user code (dlm-js style), compiled against the built pkg/*.d.ts by
// tests/api/types.test.mjs with `tsc --noEmit`: switching the import to oxjax must compile.
// (lax.scan joins this sample when it lands.)
import {
  DType,
  checkLeaks,
  defaultDevice,
  grad,
  init,
  jit,
  vmap,
  lax,
  nn,
  numpy as np,
  random,
  tree,
  valueAndGrad,
  type Device,
  type JsTree,
} from "oxjax";
import { adam, applyUpdates, sgd, type OptState, type ScaleByAdamOptions } from "oxjax/optax";

export async function main(): Promise<number> {
  const devices: Device[] = await init();
  defaultDevice(devices.includes("wasm") ? "wasm" : "cpu");
  checkLeaks.start();

  using y = np.array([1.5, 2.0, 2.5, 3.5], { dtype: DType.Float32 });
  using design = np.stack([np.onesLike(y), np.arange(0, 4, 1, { dtype: np.float32 })], 1);

  // A least-squares loss over a pytree of parameters; `using` frees the intermediates.
  type Params = { beta: np.Array; logSigma: np.Array };
  const loss = (p: Params): np.Array => {
    using fit = np.matmul(design, p.beta);
    using r = np.subtract(y, fit);
    using sq = np.square(r);
    using s2 = np.exp(p.logSigma.mul(2));
    using scaled = np.divide(sq, s2);
    using total = np.sum(scaled);
    return total.add(p.logSigma.mul(y.size));
  };

  let params: Params = { beta: np.zeros([2]), logSigma: np.array(0) };
  const opts: ScaleByAdamOptions = { b2: 0.9 };
  const opt = adam(0.05, opts);
  let state: OptState = opt.init(params);
  const step = valueAndGrad(loss);
  for (let i = 0; i < 3; i++) {
    const [value, grads] = step(params) as [np.Array, Params];
    const [updates, newState] = opt.update(grads, state, params);
    const next = applyUpdates(params, updates);
    tree.dispose([value, grads, updates, params]);
    tree.dispose(state);
    params = next;
    state = newState;
  }

  // jit of valueAndGrad and vmap, as dlm-js writes them.
  using jitted = jit(valueAndGrad(loss));
  const [v2, g2] = jitted(params) as [np.Array, Params];
  const batched = vmap((row: np.Array) => np.sum(row));
  using sums = batched(design) as np.Array;
  tree.dispose([v2, g2]);

  const g = grad((x: np.Array) => np.sum(nn.softmax(x)))(params.beta) as np.Array;
  const k = random.key(0);
  using u = random.uniform(k, [3], { minval: -1, maxval: 1 });
  using e = lax.erf(u);
  const leaves: JsTree<np.Array> = tree.leaves(params);
  const data: Float32Array = (await params.beta.data()) as Float32Array;
  const momentum = sgd(0.1, { momentum: 0.9 });
  const st = momentum.init(params);
  tree.dispose([g, k, st, leaves, state]);
  const [a, b] = np.split(e, [1]);
  tree.dispose([a, b, params]);
  const report = checkLeaks.stop();
  return report.leaked + data.length;
}
