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
import * as base from "./base.js";
import * as transform from "./transform.js";
import * as alias from "./alias.js";
import * as losses from "./losses.js";
import * as treeUtils from "./tree-utils.js";
import { namedOptax as n } from "./named.js";

export type { GradientTransformation, OptState, Schedule, ScalarOrSchedule } from "./base.js";
export type {
  AddDecayedWeightsOptions,
  MaskFn,
  ScaleByAdamOptions,
  TraceOptions,
} from "./transform.js";
export type { AdamWOptions, SgdOptions } from "./alias.js";
export type { NormOrd } from "./tree-utils.js";

/** @function */
export const applyUpdates = n("applyUpdates", base.applyUpdates);
/** @function */
export const chain = n("chain", base.chain);
/** @function */
export const identity = n("identity", base.identity);
/** @function */
export const setToZero = n("setToZero", base.setToZero);
/** @function */
export const addDecayedWeights = n("addDecayedWeights", transform.addDecayedWeights);
/** @function */
export const clipByGlobalNorm = n("clipByGlobalNorm", transform.clipByGlobalNorm);
/** @function */
export const scale = n("scale", transform.scale);
/** @function */
export const scaleByAdam = n("scaleByAdam", transform.scaleByAdam);
/** @function */
export const scaleByLearningRate = n("scaleByLearningRate", transform.scaleByLearningRate);
/** @function */
export const scaleBySchedule = n("scaleBySchedule", transform.scaleBySchedule);
/** @function */
export const trace = n("trace", transform.trace);
/** @function */
export const adam = n("adam", alias.adam);
/** @function */
export const adamw = n("adamw", alias.adamw);
/** @function */
export const sgd = n("sgd", alias.sgd);
/** @function */
export const l2Loss = n("l2Loss", losses.l2Loss);
/** @function */
export const squaredError = n("squaredError", losses.squaredError);
/** @function */
export const treeBiasCorrection = n("treeBiasCorrection", treeUtils.treeBiasCorrection);
/** @function */
export const treeMax = n("treeMax", treeUtils.treeMax);
/** @function */
export const treeNorm = n("treeNorm", treeUtils.treeNorm);
/** @function */
export const treeOnesLike = n("treeOnesLike", treeUtils.treeOnesLike);
/** @function */
export const treeSum = n("treeSum", treeUtils.treeSum);
/** @function */
export const treeUpdateMoment = n("treeUpdateMoment", treeUtils.treeUpdateMoment);
/** @function */
export const treeZerosLike = n("treeZerosLike", treeUtils.treeZerosLike);
