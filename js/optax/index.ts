/**
 * `oxjax/optax`: optax's optimisers over pytrees, non-consuming (inputs are never consumed;
 * stateful transforms dispose the previous state's arrays). Transforms are thin compositions of
 * numpy calls; Adam's bias correction is computed from the count array in the graph, so
 * optimisers work under jit and inside scan bodies.
 *
 * A training loop: `update` turns gradients into updates and a new state (eagerly it disposes
 * the previous state's arrays; `tree.dispose` skips those), `applyUpdates` adds the updates to
 * the parameters.
 *
 * @example
 * ```ts
 * import { numpy as np, grad, tree } from "oxjax";
 * import { adam, applyUpdates } from "oxjax/optax";
 *
 * const loss = (w) => {
 *   using sq = np.square(w); // loss also runs eagerly below: free its intermediate
 *   return sq.sum();
 * };
 * const opt = adam(0.1);
 * let w = np.array([3, -2]);
 * let state = opt.init(w);
 * for (let i = 0; i < 200; i++) {
 *   const g = grad(loss)(w);
 *   const [u, next] = opt.update(g, state, w);
 *   const w2 = applyUpdates(w, u);
 *   tree.dispose([g, u, w, state]);
 *   [w, state] = [w2, next];
 * }
 * using final = loss(w);
 * final.item() < 1e-6; // true
 * w.dispose();
 * tree.dispose(state);
 * ```
 *
 * @module oxjax/optax
 */
export {
  applyUpdates,
  chain,
  identity,
  setToZero,
  type GradientTransformation,
  type OptState,
  type Schedule,
  type ScalarOrSchedule,
} from "./base.js";
export {
  addDecayedWeights,
  clipByGlobalNorm,
  scale,
  scaleByAdam,
  scaleByLearningRate,
  scaleBySchedule,
  trace,
  type AddDecayedWeightsOptions,
  type MaskFn,
  type ScaleByAdamOptions,
  type TraceOptions,
} from "./transform.js";
export { adam, adamw, sgd, type AdamWOptions, type SgdOptions } from "./alias.js";
export { l2Loss, squaredError } from "./losses.js";
export {
  treeBiasCorrection,
  treeMax,
  treeNorm,
  treeOnesLike,
  treeSum,
  treeUpdateMoment,
  treeZerosLike,
  type NormOrd,
} from "./tree-utils.js";
