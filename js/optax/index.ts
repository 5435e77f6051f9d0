/**
 * `oxjax/optax`: optax's optimisers over pytrees, non-consuming (inputs are never consumed;
 * stateful transforms dispose the previous state's arrays). Transforms are thin compositions of
 * numpy calls; Adam's bias correction is computed from the count array in the graph, so
 * optimisers work under jit and inside scan bodies.
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
