/**
 * optax's gradient transformations: scaling, Adam's moments, momentum traces, clipping and
 * weight decay. Stateful ones dispose the previous state's arrays when they build the new one
 * (the fork's rule; under jit that is a no-op on tracers).
 */
import { Array } from "../array.js";
import { DType } from "../dtype.js";
import * as np from "../numpy/index.js";
import * as tree from "../tree.js";
import type { JsTree } from "../tree.js";
import {
  identity,
  initEmptyState,
  type GradientTransformation,
  type ScalarOrSchedule,
  type Schedule,
} from "./base.js";
import {
  freeing,
  treeBiasCorrection,
  treeNorm,
  treeUpdateMoment,
  treeZerosLike,
} from "./tree-utils.js";

const u32 = (x: number, device?: Array["device"]): Array =>
  np.array(x, device === undefined ? { dtype: DType.Uint32 } : { dtype: DType.Uint32, device });

/** A step count of 0 on the device of the parameters (the default device without leaves). */
function zeroCount(params: JsTree<Array>): Array {
  const leaf = tree.leaves(params).find((l): l is Array => l instanceof Array);
  return u32(0, leaf?.device);
}

/** `a + c·b`, leafwise (a new tree). */
function addScaled(a: JsTree<Array>, b: JsTree<Array>, c: number): JsTree<Array> {
  return tree.map(
    (x: Array, y: Array) => {
      const cy = y.mul(c);
      return freeing([cy], () => x.add(cy));
    },
    a,
    b,
  );
}

/** Options of `scaleByAdam` and `adam`. */
export interface ScaleByAdamOptions {
  /** The decay of the first moment (default 0.9). */
  b1?: number;
  /** The decay of the second moment (default 0.999). */
  b2?: number;
  /** Added to the root of the second moment (default 1e-8). */
  eps?: number;
  /** Added to the second moment inside the root (default 0). */
  epsRoot?: number;
  /** Use Nesterov momentum (default false). */
  nesterov?: boolean;
}

/**
 * Adam's rescaling: bias-corrected first moment over the root of the second.
 *
 * @example
 * ```ts
 * const opt = optax.scaleByAdam();
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u ≈ [1, 1]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function scaleByAdam({
  b1 = 0.9,
  b2 = 0.999,
  eps = 1e-8,
  epsRoot = 0,
  nesterov = false,
}: ScaleByAdamOptions = {}): GradientTransformation {
  return {
    init(params) {
      return { count: zeroCount(params), mu: treeZerosLike(params), nu: treeZerosLike(params) };
    },
    update(updates, state) {
      const old = state as { count: Array; mu: JsTree<Array>; nu: JsTree<Array> };
      const mu = treeUpdateMoment(updates, old.mu, b1, 1);
      const nu = treeUpdateMoment(updates, old.nu, b2, 2);
      const count = old.count.add(1);
      tree.dispose([old.mu, old.nu, old.count]);
      let muHat: JsTree<Array>;
      if (nesterov) {
        const next = count.add(1);
        const muBc = freeing([next], () => treeBiasCorrection(mu, b1, next));
        const gBc = treeBiasCorrection(updates, b1, count);
        muHat = tree.map(
          (m: Array, g: Array) => {
            const a = m.mul(b1);
            const b = g.mul(1 - b1);
            return freeing([a, b], () => a.add(b));
          },
          muBc,
          gBc,
        );
        tree.dispose([muBc, gBc]);
      } else {
        muHat = treeBiasCorrection(mu, b1, count);
      }
      const nuHat = treeBiasCorrection(nu, b2, count);
      const out = tree.map(
        (m: Array, v: Array) => {
          const ve = v.add(epsRoot);
          const root = freeing([ve], () => np.sqrt(ve));
          const den = freeing([root], () => root.add(eps));
          return freeing([den], () => m.div(den));
        },
        muHat,
        nuHat,
      );
      tree.dispose([muHat, nuHat]);
      return [out as typeof updates, { count, mu, nu }];
    },
  };
}

/**
 * Multiplies updates by a constant.
 *
 * @example
 * ```ts
 * const opt = optax.scale(-2);
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [-2, -2]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function scale(stepSize: number): GradientTransformation {
  return {
    init: initEmptyState,
    update(updates, state) {
      return [tree.map((g: Array) => g.mul(stepSize), updates) as typeof updates, state];
    },
  };
}

/**
 * Multiplies updates by `stepSizeFn(count)`; reads the count back, so eager only.
 *
 * @example
 * ```ts
 * const opt = optax.scaleBySchedule((count) => 1 / (count + 1));
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [1, 1]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function scaleBySchedule(stepSizeFn: Schedule): GradientTransformation {
  return {
    init: (params) => ({ count: zeroCount(params) }),
    update(updates, state) {
      const { count } = state as { count: Array };
      const [n, device] = [count.item(), count.device];
      count.dispose();
      const step = stepSizeFn(n);
      return [
        tree.map((g: Array) => g.mul(step), updates) as typeof updates,
        { count: u32(n + 1, device) },
      ];
    },
  };
}

/**
 * Multiplies by −learningRate (descent); a schedule is evaluated per step.
 *
 * @example
 * ```ts
 * const opt = optax.scaleByLearningRate(0.5);
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [-0.5, -0.5]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function scaleByLearningRate(
  learningRate: ScalarOrSchedule,
  flipSign = true,
): GradientTransformation {
  if (learningRate === undefined) return identity();
  const m = flipSign ? -1 : 1;
  if (typeof learningRate === "function") {
    return scaleBySchedule((count) => m * learningRate(count));
  }
  return scale(m * learningRate);
}

/**
 * Scales all updates down so that their global norm is at most `maxNorm`.
 *
 * @example
 * ```ts
 * const opt = optax.clipByGlobalNorm(1);
 * using w = np.array([1, 2]);
 * using g = np.array([3, 4]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [0.6, 0.8]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function clipByGlobalNorm(maxNorm: number): GradientTransformation {
  return {
    init: initEmptyState,
    update(updates, state) {
      const norm = treeNorm(updates);
      const small = np.less(norm, maxNorm);
      const out = freeing([norm, small], () =>
        tree.map((g: Array) => {
          const scaled = g.div(norm);
          const clipped = freeing([scaled], () => scaled.mul(maxNorm));
          return freeing([clipped], () => np.where(small, g, clipped));
        }, updates),
      );
      return [out as typeof updates, state];
    },
  };
}

/** A function of the updates returning a mask pytree (see `AddDecayedWeightsOptions.mask`). */
export type MaskFn = (tree: JsTree<Array>) => JsTree<Array>;

/** Options of `addDecayedWeights`. */
export interface AddDecayedWeightsOptions {
  /**
   * The decoupled weight-decay factor (default 1e-4; `addDecayedWeights` also takes a schedule).
   */
  weightDecay?: ScalarOrSchedule;
  /**
   * Which parameters decay: a pytree matching the parameters whose array leaves multiply them
   * (1 or true: decays, 0 or false: does not), or a function of the updates returning one (its
   * arrays are disposed after use); `null` (default): all.
   */
  mask?: JsTree<Array> | MaskFn | null;
}

/**
 * Adds `weightDecay · params` (optionally masked) to the updates; needs `params`.
 *
 * @example
 * ```ts
 * const opt = optax.addDecayedWeights({ weightDecay: 0.1 });
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [1.1, 1.2]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function addDecayedWeights({
  weightDecay = 0,
  mask = null,
}: AddDecayedWeightsOptions = {}): GradientTransformation {
  const schedule = typeof weightDecay === "function" ? weightDecay : null;
  return {
    init: (params) => (schedule ? { count: zeroCount(params) } : []),
    update(updates, state, params) {
      if (!params) throw new Error("addDecayedWeights: requires params in update()");
      let decay = weightDecay as number;
      let newState = state;
      if (schedule) {
        const { count } = state as { count: Array };
        const [n, device] = [count.item(), count.device];
        count.dispose();
        decay = schedule(n);
        newState = { count: u32(n + 1, device) };
      }
      if (decay === 0) return [updates, newState];
      let decayed: JsTree<Array>;
      if (mask) {
        const maskTree = typeof mask === "function" ? mask(updates) : mask;
        decayed = tree.map(
          (p: Array, m: Array) => {
            const pm = p.mul(m);
            return freeing([pm], () => pm.mul(decay));
          },
          params,
          maskTree,
        );
        if (typeof mask === "function") tree.dispose(maskTree);
      } else {
        decayed = tree.map((p: Array) => p.mul(decay), params);
      }
      const out = tree.map((g: Array, d: Array) => g.add(d), updates as JsTree<Array>, decayed);
      tree.dispose(decayed);
      return [out as typeof updates, newState];
    },
  };
}

/** Options of `trace`. */
export interface TraceOptions {
  /** The momentum decay (default 0.9). */
  decay?: number;
  /** Use Nesterov momentum (default false). */
  nesterov?: boolean;
}

/**
 * Momentum: `trace = g + decay·trace`; updates are the trace (or `g + decay·trace`).
 *
 * @example
 * ```ts
 * const opt = optax.trace({ decay: 0.9 });
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [1, 1]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function trace({
  decay = 0.9,
  nesterov = false,
}: TraceOptions = {}): GradientTransformation {
  return {
    init: (params) => ({ trace: treeZerosLike(params) }),
    update(updates, state) {
      const { trace: prev } = state as { trace: JsTree<Array> };
      const next = addScaled(updates, prev, decay);
      tree.dispose(prev);
      const out = nesterov ? addScaled(updates, next, decay) : tree.ref(next);
      return [out as typeof updates, { trace: next }];
    },
  };
}
