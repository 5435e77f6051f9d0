/**
 * optax's pytree helpers: moments, bias correction, sums and norms over every leaf. Each is a
 * short composition of numpy calls (the math is in Rust); inputs are never consumed.
 */
import { Array } from "../array.js";
import { DType } from "../dtype.js";
import * as np from "../numpy/index.js";
import * as tree from "../tree.js";
import type { JsTree } from "../tree.js";

/** Runs `f` and disposes `temps` afterwards. */
export function freeing<T>(temps: Array[], f: () => T): T {
  try {
    return f();
  } finally {
    for (const t of temps) t.dispose();
  }
}

/**
 * A new pytree of zero arrays with the shapes (and dtypes, unless `dtype` is given) of `t`'s
 * leaves.
 *
 * @example
 * ```ts
 * using w = np.array([1, 2]);
 * const z = optax.treeZerosLike({ w }); // a new tree of zeros
 * z.w.js(); // [0, 0]
 * tree.dispose(z);
 * ```
 */
export function treeZerosLike(t: JsTree<Array>, dtype?: DType): JsTree<Array> {
  return tree.map((x: Array) => np.zerosLike(x, dtype === undefined ? {} : { dtype }), t);
}

/**
 * A new pytree of arrays of ones with the shapes (and dtypes, unless `dtype` is given) of `t`'s
 * leaves.
 *
 * @example
 * ```ts
 * using w = np.array([1, 2]);
 * const o = optax.treeOnesLike({ w });
 * o.w.js(); // [1, 1]
 * tree.dispose(o);
 * ```
 */
export function treeOnesLike(t: JsTree<Array>, dtype?: DType): JsTree<Array> {
  return tree.map((x: Array) => np.onesLike(x, dtype === undefined ? {} : { dtype }), t);
}

/**
 * `(1 - decay)·g^order + decay·m`, leafwise.
 *
 * @example
 * ```ts
 * using g = np.array([1, 2]);
 * using m = np.zeros([2]);
 * using m2 = optax.treeUpdateMoment(g, m, 0.9, 1); // [0.1, 0.2]
 * ```
 */
export function treeUpdateMoment(
  updates: JsTree<Array>,
  moments: JsTree<Array>,
  decay: number,
  order: number,
): JsTree<Array> {
  if (!Number.isInteger(order) || order <= 0) {
    throw new Error(`treeUpdateMoment: order must be a positive integer, got ${order}`);
  }
  return tree.map(
    (g: Array, m: Array) => {
      const gp = order === 1 ? g : np.power(g, order);
      const a = gp.mul(1 - decay);
      const b = m.mul(decay);
      return freeing(gp === g ? [a, b] : [gp, a, b], () => a.add(b));
    },
    updates,
    moments,
  );
}

/**
 * `1 - decay^count` from the count array, in the graph (so it works under jit and in scan
 * bodies). `decay^count` is rounded to float32 from a float64 evaluation where the device has
 * float64, as optax's float32 power is; WebGPU evaluates it in float32.

 */
export function biasCorrectionDenominator(decay: number, count: Array): Array {
  const wide = count.device === "webgpu" ? DType.Float32 : DType.Float64;
  const n = count.astype(wide);
  const logDecay = Math.log(Math.fround(decay));
  return freeing([n], () => {
    const z = n.mul(logDecay);
    const p = freeing([z], () => np.exp(z));
    const p32 = p.astype(DType.Float32);
    return freeing(p32 === p ? [p] : [p, p32], () => np.subtract(1, p32));
  });
}

/**
 * Divides each moment by `1 - decay^count` (count: a scalar array).
 *
 * @example
 * ```ts
 * using m = np.array([0.1, 0.2]);
 * using count = np.array(1, { dtype: np.uint32 });
 * using c = optax.treeBiasCorrection(m, 0.9, count); // [1, 2]
 * ```
 */
export function treeBiasCorrection(
  moments: JsTree<Array>,
  decay: number,
  count: Array,
): JsTree<Array> {
  const den = biasCorrectionDenominator(decay, count);
  return freeing([den], () => tree.map((m: Array) => m.div(den), moments));
}

/**
 * The sum of every element of every leaf.
 *
 * @example
 * ```ts
 * using a = np.array([1, 2]);
 * using b = np.array(3);
 * using s = optax.treeSum({ a, b }); // 6
 * ```
 */
export function treeSum(t: JsTree<Array>): Array {
  return tree.leaves(t).reduce(
    (total: Array, leaf: Array) => {
      const s = np.sum(leaf);
      return freeing([s, total], () => total.add(s));
    },
    np.array(0, { dtype: DType.Float32 }),
  );
}

/**
 * The maximum element over every leaf.
 *
 * @example
 * ```ts
 * using a = np.array([1, 5]);
 * using b = np.array(3);
 * using m = optax.treeMax({ a, b }); // 5
 * ```
 */
export function treeMax(t: JsTree<Array>): Array {
  return tree.leaves(t).reduce(
    (best: Array, leaf: Array) => {
      const m = np.max(leaf);
      return freeing([m, best], () => np.maximum(best, m));
    },
    np.array(-Infinity, { dtype: DType.Float32 }),
  );
}

/**
 * The norm order of `treeNorm`: 1, 2 (default, also `null`), or infinity (`"inf"`,
 * `"infinity"`, `Infinity`).
 */
export type NormOrd = 1 | 2 | "inf" | "infinity" | number | null;

/**
 * The vector norm of all leaves together (`ord` 2 by default, 1 or infinity).
 *
 * @example
 * ```ts
 * using a = np.array([3]);
 * using b = np.array([4]);
 * using n = optax.treeNorm({ a, b }); // 5
 * ```
 */
export function treeNorm(t: JsTree<Array>, ord: NormOrd = null, squared = false): Array {
  const leafwise = (f: (x: Array) => Array, combine: (x: JsTree<Array>) => Array): Array => {
    const mapped = tree.map(f, t);
    try {
      return combine(mapped);
    } finally {
      tree.dispose(mapped);
    }
  };
  const finish = (r: Array, square: boolean): Array =>
    square ? freeing([r], () => np.square(r)) : r;
  if (ord === null || ord === 2) {
    const sq = leafwise((x) => np.square(x), treeSum);
    return squared ? sq : freeing([sq], () => np.sqrt(sq));
  }
  if (ord === 1)
    return finish(
      leafwise((x) => np.abs(x), treeSum),
      squared,
    );
  if (ord === "inf" || ord === "infinity" || ord === Infinity) {
    return finish(
      leafwise((x) => np.abs(x), treeMax),
      squared,
    );
  }
  throw new Error(`treeNorm: unsupported ord ${ord}`);
}
