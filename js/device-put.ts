/**
 * `devicePut` and `blockUntilReady` over pytrees. Structure and copies only: moving an array to
 * another device reads its data back and uploads it there.
 */
import { Array } from "./array.js";
import { type Device } from "./device.js";
import { array } from "./numpy/index.js";
import { flatten, unflatten, type JsTree } from "./tree.js";
import * as checks from "./check.js";

/**
 * Copies the Array leaves of `tree` to `device` (committed there), through host memory; JS
 * numbers and booleans become arrays. Resolves to a new tree of the same structure. Without a
 * device, or for leaves already there, the same Array objects are returned (as in jax-js, with
 * no new reference); the copies are new arrays owned by the caller. Nothing is consumed.
 *
 * @example
 * ```ts
 * using x = np.array([1, 2], { device: "cpu" });
 * const { y } = await devicePut({ y: x }, "wasm");
 * y.device; // "wasm"
 * y.dispose();
 * ```
 */
export async function devicePut<T>(tree: T, device?: Device): Promise<T> {
  if (device !== undefined) checks.device("devicePut", device);
  const [leaves, def] = flatten(tree as JsTree<unknown>);
  const opts = device === undefined ? {} : { device };
  const moved = await Promise.all(
    leaves.map(async (l) => {
      if (l instanceof Array) {
        if (device === undefined || l.device === device) return l;
        const data = await l.data();
        return array(data as Float32Array, { shape: l.shape, dtype: l.dtype, device });
      }
      if (typeof l === "number" || typeof l === "boolean") return array(l, opts);
      return l;
    }),
  );
  return unflatten(def, moved) as T;
}

/**
 * Waits until every Array leaf's pending device work is done, without reading anything back,
 * and resolves to the same tree (for timing: on webgpu work is queued asynchronously; on cpu
 * and wasm it has already run). Nothing is consumed or copied.
 *
 * @example
 * ```ts
 * using x = np.ones([1000]);
 * using y = np.sin(x);
 * (await blockUntilReady(y)) === y; // true
 * ```
 */
export async function blockUntilReady<T>(tree: T): Promise<T> {
  const [leaves] = flatten(tree as JsTree<unknown>);
  await Promise.all(leaves.map((l) => (l instanceof Array ? l.blockUntilReady() : l)));
  return tree;
}
