/**
 * optax's core: the `GradientTransformation` interface, `identity`, `setToZero`, `chain` and
 * `applyUpdates`, with the non-consuming rules of `@hamk-uas/jax-js-nonconsuming`: updates and
 * params are never consumed; stateful transforms dispose the previous state's arrays.
 */
import { Array } from "../array.js";
import * as np from "../numpy/index.js";
import * as tree from "../tree.js";
import type { JsTree } from "../tree.js";

/** The optimiser state: a pytree of arrays whose structure depends on the transform. */
export type OptState = JsTree<Array>;

/** `init` makes the state; `update` returns the transformed updates and the new state. */
export interface GradientTransformation {
  /**
   * The initial state for `params` (new arrays; `params` is not consumed).
   *
   * @example
   * ```ts
   * const opt = optax.adam(0.01);
   * using w = np.zeros([2]);
   * const state = opt.init(w); // [{ count, mu, nu }, []]: new arrays
   * tree.dispose(state);
   * ```
   */
  init<Params extends JsTree<Array>>(params: Params): OptState;
  /**
   * `[newUpdates, newState]` from the gradients `updates`, the previous `state` and (for
   * transforms that need them) the `params`. `updates` and `params` are not consumed; when run
   * eagerly, stateful transforms dispose the previous state's arrays (release an old state with
   * `tree.dispose`, which skips freed leaves); under `jit` dispose the state you passed in
   * after the call.
   *
   * @example
   * ```ts
   * const opt = optax.sgd(0.5);
   * using w = np.array([1, 2]);
   * using g = np.array([2, 2]);
   * const state = opt.init(w);
   * const [u, next] = opt.update(g, state, w); // u = [-1, -1]
   * tree.dispose([u, state, next]);
   * ```
   */
  update<Params extends JsTree<Array>>(
    updates: Params,
    state: OptState,
    params?: Params,
  ): [Params, OptState];
}

/** A step-size schedule: the step count to a number. */
export type Schedule = (count: number) => number;
/** A learning rate: a number, or a schedule of the step count. */
export type ScalarOrSchedule = number | Schedule;

/** The state of stateless transforms. */
export function initEmptyState(_params: JsTree<Array>): OptState {
  return [];
}

/**
 * Leaves updates and state untouched (the same objects come back).
 *
 * @example
 * ```ts
 * const opt = optax.identity();
 * using g = np.array([1, 2]);
 * const [u] = opt.update(g, opt.init(g));
 * u === g; // true
 * ```
 */
export function identity(): GradientTransformation {
  return {
    init: initEmptyState,
    update: (updates, state) => [updates, state],
  };
}

/**
 * Maps every update to zero.
 *
 * @example
 * ```ts
 * const opt = optax.setToZero();
 * using w = np.array([1, 2]);
 * using g = np.array([1, 1]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [0, 0]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function setToZero(): GradientTransformation {
  return {
    init: initEmptyState,
    update(updates, state) {
      return [tree.map((g: Array) => np.zerosLike(g), updates) as typeof updates, state];
    },
  };
}

/**
 * `params + updates`, leafwise; neither input is consumed.
 *
 * @example
 * ```ts
 * using w = np.array([1, 2]);
 * using u = np.array([-0.5, 0.5]);
 * using w2 = optax.applyUpdates(w, u); // [0.5, 2.5]
 * ```
 */
export function applyUpdates<Params extends JsTree<Array>>(
  params: Params,
  updates: Params,
): Params {
  return tree.map((p: Array, u: Array) => p.add(u), params, updates) as Params;
}

/** Disposes the leaves of `tree` that are in neither `keepA` nor `keepB`. */
function disposeExcept(t: JsTree<Array>, keepA: JsTree<Array>, keepB: JsTree<Array>): void {
  const keep = new Set([...tree.leaves(keepA), ...tree.leaves(keepB)]);
  for (const l of new Set(tree.leaves(t))) {
    if (l instanceof Array && !keep.has(l)) l[Symbol.dispose]();
  }
}

/**
 * Applies `transforms` in order; the state is the list of their states.
 *
 * @example
 * ```ts
 * const opt = optax.chain(optax.clipByGlobalNorm(1), optax.scale(-0.1));
 * using w = np.array([1, 2]);
 * using g = np.array([3, 4]);
 * const state = opt.init(w);
 * const [u, newState] = opt.update(g, state, w); // u = [-0.06, -0.08]
 * u.dispose();
 * tree.dispose([state, newState]);
 * ```
 */
export function chain(...transforms: GradientTransformation[]): GradientTransformation {
  return {
    init(params) {
      return transforms.map((t) => t.init(params));
    },
    update(updates, state, params) {
      if (!globalThis.Array.isArray(state) || state.length !== transforms.length) {
        throw new Error(
          `chain: expected a list of ${transforms.length} states (from init), got ${state}`,
        );
      }
      const original = updates;
      const newState: OptState[] = [];
      let current = updates;
      for (let i = 0; i < transforms.length; i++) {
        const [next, s] = transforms[i].update(current, state[i], params);
        // Intermediate updates are ours to free, never the caller's (nor ones passed through).
        if (current !== original) disposeExcept(current, next, original);
        current = next;
        newState.push(s);
      }
      return [current, newState];
    },
  };
}
