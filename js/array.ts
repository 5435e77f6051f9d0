/**
 * The `Array` class: jax-js's method surface (arithmetic, comparisons, reductions, shape
 * methods, iteration) over an `ArrayHandle` (`array-handle.ts`: the handle of a value in Rust,
 * its owners, metadata and reads). Holds no math: every operation goes through the bridge. Operations never consume their inputs; `dispose()`
 * drops one reference (throwing on a freed array), `[Symbol.dispose]` never throws. An array
 * dropped undisposed is released when the garbage collector reclaims it (`reclaim.ts`), and
 * still counted as a leak.
 */
import { call, wasm } from "./bridge.js";
import { DType, parseDType } from "./dtype.js";
import { applyOp, reduceOp, shareOp, type Axis } from "./ops.js";
import * as checks from "./check.js";
import { ArrayHandle } from "./array-handle.js";

export interface ReduceOpts {
  keepdims?: boolean;
}

/**
 * An `Array`, or a JS number or boolean used as a weakly typed scalar (it takes the dtype of the
 * array it is combined with).
 */
export type ArrayLike = Array | number | boolean;

export type { NestedValues } from "./array-handle.js";

/**
 * An n-dimensional array on one device: a handle to data held by oxjax's WebAssembly module (or
 * by the GPU), with jax-js's methods. Arrays are made by functions such as `numpy.array`,
 * `numpy.zeros` or `random.uniform`, never with `new`.
 *
 * **Ownership.** Methods never consume `this` or their arguments; each returned `Array` is new
 * and owned by the caller (except where a method says it returns `this`). Release an array with
 * `dispose()` or a `using` declaration; `.ref` adds an owner. The garbage collector is only a
 * safety net: an `Array` object it reclaims undisposed has its references released then (when
 * it runs, perhaps never), and counts as a leak (`memoryStats().reclaimedArrays`).
 *
 * **Devices.** Methods run on the array's device (`cpu`, `wasm` or `webgpu`), like the numpy
 * functions of the same names; see the guide's "Devices". `data()` reads on every device,
 * `dataSync()`/`js()`/`item()` only where a synchronous read is possible (not webgpu).
 *
 * @example
 * ```ts
 * using x = np.array([[1, 2], [3, 4]]);
 * using doubled = x.mul(2); // every intermediate is an array to dispose
 * using y = doubled.sum(0); // [8, 12]
 * console.log(x.shape, x.dtype, await y.data()); // [2, 2] "float32" Float32Array [8, 12]
 * ```
 */
export class Array extends ArrayHandle {
  /**
   * `this + other`, element-wise with broadcasting (`numpy.add`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * using y = x.add(10); // [11, 12]
   * ```
   */
  add(other: ArrayLike): Array {
    return applyOp("add", "add", [this, other]);
  }

  /**
   * `this - other`, element-wise with broadcasting (`numpy.subtract`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * using y = x.sub(1); // [0, 1]
   * ```
   */
  sub(other: ArrayLike): Array {
    return applyOp("sub", "sub", [this, other]);
  }

  /**
   * `this * other`, element-wise with broadcasting (`numpy.multiply`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * using y = x.mul(x); // [1, 4]
   * ```
   */
  mul(other: ArrayLike): Array {
    return applyOp("mul", "mul", [this, other]);
  }

  /**
   * Division; two integer arrays divide with truncation (as jax-js does).
   *
   * @example
   * ```ts
   * using x = np.array([7, -7], { dtype: np.int32 });
   * using q = x.div(2); // [3, -3], int32 (truncated)
   * ```
   */
  div(other: ArrayLike): Array {
    return applyOp("div", "div", [this, other]);
  }

  /**
   * JavaScript's `%`: the result has the dividend's sign.
   *
   * @example
   * ```ts
   * using x = np.array([5, -5]);
   * using r = x.mod(3); // [2, -2]
   * ```
   */
  mod(other: ArrayLike): Array {
    return applyOp("mod", "rem", [this, other]);
  }

  /**
   * `this ** other`, element-wise with broadcasting (`numpy.power`).
   *
   * @example
   * ```ts
   * using x = np.array([2, 3]);
   * using y = x.pow(2); // [4, 9]
   * ```
   */
  pow(other: ArrayLike): Array {
    return applyOp("pow", "power", [this, other]);
  }

  /**
   * Diagonal `offset` over `axis1`/`axis2`, appended as the last axis (a view).
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * using d = x.diagonal(); // [1, 4]
   * ```
   */
  diagonal(offset = 0, axis1 = 0, axis2 = 1): Array {
    return new Array(call(() => wasm.diagonal(this._handle, offset, axis1, axis2)));
  }

  /**
   * Sorted copy along `axis` (stable; NaN last).
   *
   * @example
   * ```ts
   * using x = np.array([3, 1, 2]);
   * using s = x.sort(); // [1, 2, 3]
   * ```
   */
  sort(axis = -1): Array {
    return new Array(call(() => wasm.sort(this._handle, axis, false)));
  }

  /**
   * The int32 indices that sort along `axis` (stable).
   *
   * @example
   * ```ts
   * using x = np.array([3, 1, 2]);
   * using i = x.argsort(); // [1, 2, 0]
   * ```
   */
  argsort(axis = -1): Array {
    return new Array(call(() => wasm.sort(this._handle, axis, true)));
  }

  /**
   * `-this`, element-wise (`numpy.negative`).
   *
   * @example
   * ```ts
   * using x = np.array([1, -2]);
   * using y = x.neg(); // [-1, 2]
   * ```
   */
  neg(): Array {
    return applyOp("neg", "neg", [this]);
  }

  /**
   * `this == other` as a bool array (`numpy.equal`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * using e = x.equal(2); // [false, true]
   * ```
   */
  equal(other: ArrayLike): Array {
    return applyOp("equal", "eq", [this, other]);
  }

  /**
   * `this != other` as a bool array (`numpy.notEqual`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * using e = x.notEqual(2); // [true, false]
   * ```
   */
  notEqual(other: ArrayLike): Array {
    return applyOp("notEqual", "ne", [this, other]);
  }

  /**
   * `this < other` as a bool array (`numpy.less`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * using l = x.less(2); // [true, false]
   * ```
   */
  less(other: ArrayLike): Array {
    return applyOp("less", "lt", [this, other]);
  }

  /**
   * `this <= other` as a bool array (`numpy.lessEqual`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * using l = x.lessEqual(2); // [true, true]
   * ```
   */
  lessEqual(other: ArrayLike): Array {
    return applyOp("lessEqual", "le", [this, other]);
  }

  /**
   * `this > other` as a bool array (`numpy.greater`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * using g = x.greater(1); // [false, true]
   * ```
   */
  greater(other: ArrayLike): Array {
    return applyOp("greater", "greater", [this, other]);
  }

  /**
   * `this >= other` as a bool array (`numpy.greaterEqual`).
   *
   * @example
   * ```ts
   * using x = np.array([1, 2]);
   * using g = x.greaterEqual(1); // [true, true]
   * ```
   */
  greaterEqual(other: ArrayLike): Array {
    return applyOp("greaterEqual", "greater_equal", [this, other]);
  }

  /**
   * The sum over `axis` (all axes by default; a number or a list), keeping reduced axes as size 1
   * with `keepdims` (`numpy.sum`). bool sums as int32.
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * using s = x.sum(1); // [3, 7]
   * ```
   */
  sum(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("sum", this, axis, opts.keepdims);
  }

  /**
   * The product over `axis` (all axes by default), as `numpy.prod`.
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * using p = x.prod(); // 24
   * ```
   */
  prod(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("prod", this, axis, opts.keepdims);
  }

  /**
   * The mean over `axis` (all axes by default), as `numpy.mean`.
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * using m = x.mean(0); // [2, 3]
   * ```
   */
  mean(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("mean", this, axis, opts.keepdims);
  }

  /**
   * The maximum over `axis` (all axes by default; NaN if any element is NaN), as `numpy.max`.
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * using m = x.max(1, { keepdims: true }); // [[2], [4]]
   * ```
   */
  max(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("max", this, axis, opts.keepdims);
  }

  /**
   * The minimum over `axis` (all axes by default; NaN if any element is NaN), as `numpy.min`.
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * using m = x.min(); // 1
   * ```
   */
  min(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("min", this, axis, opts.keepdims);
  }

  /**
   * Whether every element over `axis` is non-zero (all axes by default), as a bool array.
   *
   * @example
   * ```ts
   * using x = np.array([1, 0]);
   * using a = x.all(); // false
   * ```
   */
  all(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("all", this, axis, opts.keepdims);
  }

  /**
   * Whether any element over `axis` is non-zero (all axes by default), as a bool array.
   *
   * @example
   * ```ts
   * using x = np.array([1, 0]);
   * using a = x.any(); // true
   * ```
   */
  any(axis: Axis = null, opts: ReduceOpts = {}): Array {
    return reduceOp("any", this, axis, opts.keepdims);
  }

  /**
   * Converts to `dtype`. When the dtype already matches: a new array sharing this one's data
   * (no copy), so disposing it leaves this one alive (the consuming entry returns this same
   * object, as jax-js does).
   *
   * @example
   * ```ts
   * using x = np.array([1.5, -1.5]);
   * using i = x.astype(np.int32); // [1, -1]
   * using same = x.astype(np.float32); // shares x's data
   * ```
   */
  astype(dtype: DType): Array {
    const d = parseDType("astype", dtype);
    if (d === this.dtype) return shareOp("astype", this);
    return new Array(call(() => wasm.convert(this._handle, d, false)));
  }

  /**
   * A new array with the same elements in row-major order; one `-1` is inferred.
   *
   * @example
   * ```ts
   * using x = np.arange(6);
   * using m = x.reshape([2, 3]); // [[0, 1, 2], [3, 4, 5]]
   * ```
   */
  reshape(shape: number | number[]): Array {
    const dims = new Float64Array(checks.intList("reshape", "shape", shape));
    return new Array(call(() => wasm.reshape(this._handle, dims)));
  }

  /**
   * Permutes the axes (reverses them by default).
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * using t = x.transpose(); // [[1, 3], [2, 4]]
   * ```
   */
  transpose(perm?: number[]): Array {
    return new Array(
      call(() =>
        wasm.transpose(
          this._handle,
          perm === undefined ? undefined : checks.axes("transpose", perm),
        ),
      ),
    );
  }

  /**
   * The transpose (axes reversed).
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2, 3]]);
   * using t = x.T; // [[1], [2], [3]]
   * ```
   */
  get T(): Array {
    return this.transpose();
  }

  /**
   * Basic indexing: a number selects and drops an axis, `[]` keeps an axis, `[start]` and
   * `[start, end]` keep a half-open range, `null` inserts an axis (negative indices count from
   * the end), and an integer Array gathers (advanced indexing, NumPy placement rules). Basic
   * indexing returns a view.
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2, 3], [4, 5, 6]]);
   * using row = x.slice(1); // [4, 5, 6]
   * using col = x.slice([], 0); // [1, 4]
   * using part = x.slice([0, 1], [1, 3]); // [[2, 3]]
   * using i = np.array([2, 0], { dtype: np.int32 });
   * using picked = x.slice(0, i); // [3, 1]
   * ```
   */
  slice(...index: (number | [] | [number] | [number, number] | null | Array)[]): Array {
    const spec: number[] = [];
    const arrays: number[] = [];
    for (const item of index) {
      if (typeof item === "number") spec.push(0, item, 0);
      else if (item === null) spec.push(2, 0, 0);
      else if (item instanceof Array) {
        spec.push(3, arrays.length, 0);
        arrays.push(item._handle);
      } else if (globalThis.Array.isArray(item) && item.length <= 2) {
        spec.push(1, item[0] ?? 0, item.length === 2 ? item[1] : NaN);
      } else {
        throw new TypeError(`slice: invalid index ${JSON.stringify(item)}`);
      }
    }
    try {
      return new Array(
        call(() => wasm.slice(this._handle, new Float64Array(spec), new Float64Array(arrays))),
      );
    } catch (e) {
      throw e instanceof Error && /out of bounds/.test(e.message) ? new RangeError(e.message) : e;
    }
  }

  /**
   * A 1-D view of the elements in row-major order (`reshape([-1])`).
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * using f = x.flatten(); // [1, 2, 3, 4]
   * ```
   */
  flatten(): Array {
    return this.reshape([-1]);
  }

  /**
   * A 1-D view of the elements in row-major order (`reshape([-1])`).
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * using f = x.ravel(); // [1, 2, 3, 4]
   * ```
   */
  ravel(): Array {
    return this.reshape([-1]);
  }

  /**
   * Iterates over axis 0, yielding new owned arrays (`const [a, b] = x`).
   *
   * @example
   * ```ts
   * using x = np.array([[1, 2], [3, 4]]);
   * const [r0, r1] = x; // r0 = [1, 2], r1 = [3, 4]
   * r0.dispose();
   * r1.dispose();
   * ```
   */
  *[Symbol.iterator](): Iterator<Array> {
    const n = this.shape[0];
    if (n === undefined) throw new TypeError("iteration over a 0-d array");
    for (let i = 0; i < n; i++) yield this.slice(i);
  }
}
