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

/**
 * Adam: `chain(scaleByAdam(opts), scaleByLearningRate(lr))`.
 *
 * @example
 * ```ts
 * const opt = optax.adam(0.1);
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [-0.1, -0.1]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
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

/**
 * Adam with decoupled weight decay (default 1e-4).
 *
 * @example
 * ```ts
 * const opt = optax.adamw(0.1, { weightDecay: 0.5 });
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [-0.15, -0.2]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
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

/**
 * Stochastic gradient descent, with optional (Nesterov) momentum.
 *
 * @example
 * ```ts
 * const opt = optax.sgd(0.1);
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [-0.1, -0.1]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function sgd(learningRate: ScalarOrSchedule, opts: SgdOptions = {}): GradientTransformation {
  const { momentum = null, nesterov = false } = opts;
  if (momentum === null || momentum === undefined) return scaleByLearningRate(learningRate);
  return chain(trace({ decay: momentum, nesterov }), scaleByLearningRate(learningRate));
}
