/** optax's optimisers as chains of transformations: adam, adamw, sgd. */
import { chain, type GradientTransformation, type ScalarOrSchedule } from "./base.js";
import {
  addDecayedWeights,
  scaleByAdam,
  scaleByLearningRate,
  trace,
  type MaskFn,
  type ScaleByAdamOptions,
} from "./transform.js";
import type { Array } from "../array.js";
import type { JsTree } from "../tree.js";

/** Adam: `chain(scaleByAdam(opts), scaleByLearningRate(lr))`. */
export function adam(
  learningRate: ScalarOrSchedule,
  opts: ScaleByAdamOptions = {},
): GradientTransformation {
  return chain(scaleByAdam(opts), scaleByLearningRate(learningRate));
}

/** Options of `adamw`: Adam's, plus the weight decay. */
export interface AdamWOptions extends ScaleByAdamOptions {
  /**
   * The decoupled weight-decay factor (default 1e-4; `addDecayedWeights` also takes a schedule).
   */
  weightDecay?: number;
  /**
   * Which parameters decay: a pytree matching the parameters whose array leaves multiply them
   * (1 or true: decays, 0 or false: does not), or a function of the updates returning one (its
   * arrays are disposed after use); `null` (default): all.
   */
  mask?: JsTree<Array> | MaskFn | null;
}

/** Adam with decoupled weight decay (default 1e-4). */
export function adamw(
  learningRate: ScalarOrSchedule,
  opts: AdamWOptions = {},
): GradientTransformation {
  const { weightDecay = 1e-4, mask = null, ...adamOpts } = opts;
  return chain(
    scaleByAdam(adamOpts),
    addDecayedWeights({ weightDecay, mask }),
    scaleByLearningRate(learningRate),
  );
}

/** Options of `sgd`. */
export interface SgdOptions {
  /** The momentum decay (default `null`: plain SGD). */
  momentum?: number | null;
  /** Use Nesterov momentum (default false). */
  nesterov?: boolean;
}

/** Stochastic gradient descent, with optional (Nesterov) momentum. */
export function sgd(learningRate: ScalarOrSchedule, opts: SgdOptions = {}): GradientTransformation {
  const { momentum = null, nesterov = false } = opts;
  if (momentum === null || momentum === undefined) return scaleByLearningRate(learningRate);
  return chain(trace({ decay: momentum, nesterov }), scaleByLearningRate(learningRate));
}
