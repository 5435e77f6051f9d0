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
 * Copies the Array leaves of `tree` to `device` (committed there); JS numbers and booleans
 * become arrays. Without a device, or for leaves already there, the same Array objects are
 * returned (as in jax-js).
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

/** Waits until every Array leaf's pending work is done; returns the same tree. */
export async function blockUntilReady<T>(tree: T): Promise<T> {
  const [leaves] = flatten(tree as JsTree<unknown>);
  await Promise.all(leaves.map((l) => (l instanceof Array ? l.blockUntilReady() : l)));
  return tree;
}
