/**
 * Upstream's ownership model (`@jax-js/jax` 0.1.x) over the core's non-consuming functions:
 * passing an array to a function gives the function one reference, which it releases.
 *
 * `consuming(name, fn)` wraps a core function. A call replaces every facade in its arguments
 * (pytrees: JS arrays and plain objects, as `tree.flatten` walks them) by its core array, calls
 * `fn`, and gives the caller facades for the arrays in the result (functions in the result,
 * such as `jit`'s, are wrapped the same way; a promise is followed). Then every argument array
 * loses one reference per place it was passed in, less one per place it comes back unchanged
 * (jax-js's identity returns, e.g. `astype` to the same dtype: the reference moves into the
 * result). An array passed more times than it has references is a use-after-free, thrown before
 * anything runs. A call that throws consumes nothing. An array of the main entry (a core array)
 * passed in is consumed like its facade.
 *
 * A core identity result (`np.positive(x)`, `nn.identity(x)`, `np.clip(x)`: a new core array
 * sharing an argument's value, `sharedFrom`) comes back as that argument itself, as upstream's
 * identity returns do.
 *
 * Function arguments (traced functions, `tree.map` callbacks) are user code of the consuming
 * style: each array handed to one gets a reference of its own (the callback consumes it), and
 * an argument it returns unchanged gives that reference back, so the core sees the borrowing
 * callback it expects.
 */
import { Array as CoreArray } from "../array.js";
import { sharedFrom } from "../ops.js";
import { Array, facadeOf } from "./array.js";

/** Which arguments a function consumes. */
export type Policy = "all" | "none";

type Fn = (...args: unknown[]) => unknown;

/** The functions `consuming` made (results that already are one are not wrapped again). */
const wrappers = new WeakSet<Fn>();

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== "object") return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** Counts `x` once more in `counts`. */
function bump<K>(counts: Map<K, number>, x: K): void {
  counts.set(x, (counts.get(x) ?? 0) + 1);
}

/** `t` with every facade replaced by its core array (new containers); `seen` counts facades. */
function unwrap(t: unknown, seen: Map<Array, number>): unknown {
  if (t instanceof Array) {
    bump(seen, t);
    return t._core;
  }
  if (t instanceof CoreArray) {
    // An array of the non-consuming entry: consumed like its facade.
    bump(seen, facadeOf(t));
    return t;
  }
  if (globalThis.Array.isArray(t)) return t.map((x) => unwrap(x, seen));
  if (isPlainObject(t)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(t)) out[k] = unwrap(t[k], seen);
    return out;
  }
  if (typeof t === "function") return adaptCallback(t as Fn);
  return t;
}

/**
 * `t` with every core array replaced by its facade; `seen` counts the core arrays. A core
 * identity result of one of `args` (see the module doc) is replaced by that argument.
 */
function wrap(t: unknown, seen: Map<CoreArray, number>, args?: Map<Array, number>): unknown {
  if (t instanceof CoreArray) {
    const source = sharedFrom(t);
    if (source !== undefined && args?.has(facadeOf(source))) {
      t.dispose();
      t = source;
    }
    bump(seen, t as CoreArray);
    return facadeOf(t as CoreArray);
  }
  if (globalThis.Array.isArray(t)) return t.map((x) => wrap(x, seen, args));
  if (isPlainObject(t)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(t)) out[k] = wrap(t[k], seen, args);
    return out;
  }
  if (typeof t === "function" && !wrappers.has(t as Fn)) {
    return consuming((t as Fn).name || "function", t as Fn);
  }
  return t;
}

/** Throws if an array is passed more times than it has references (upstream's use-after-free). */
function checkOwned(name: string, counts: Map<Array, number>): void {
  for (const [a, n] of counts) {
    // Passed once: a freed array fails in the call itself, naming the function.
    if (n < 2) continue;
    const rc = a.refCount;
    if (rc < n) {
      throw new ReferenceError(
        `${name}: ${rc === 0 ? "an array was already disposed" : `an array with ${rc} reference(s) is passed ${n} times`} (use-after-free: pass x.ref to keep using x)`,
      );
    }
  }
}

/** Releases the references the call consumed (see the module doc). */
function release(consumed: Map<Array, number>, returned: Map<CoreArray, number>): void {
  for (const [a, n] of consumed) {
    let k = n - (returned.get(a._core) ?? 0);
    for (; k > 0; k--) a._release();
    // Returned more often than passed: each further place holds a reference of its own.
    for (; k < 0; k++) void a.ref;
  }
}

/** Copies what code reads off a function (`dispose` of jitted functions, `length`, `name`). */
function copyProperties(from: Fn, to: Fn): void {
  for (const key of Reflect.ownKeys(from)) {
    if (key === "prototype" || key === "arguments" || key === "caller") continue;
    const d = Object.getOwnPropertyDescriptor(from, key)!;
    if (typeof d.value === "function" && key !== "length" && key !== "name") {
      const method = d.value as Fn;
      Object.defineProperty(to, key, { ...d, value: (...a: unknown[]) => method.apply(from, a) });
    } else {
      Object.defineProperty(to, key, d);
    }
  }
}

/**
 * Runs core function `fn` with `self` and `args` in upstream's ownership model: see the module
 * doc. `policy` `"none"`: the arguments are not consumed (e.g. `np.shape`, `tree.structure`).
 */
export function callConsuming(
  name: string,
  fn: Fn,
  self: unknown,
  args: unknown[],
  policy: Policy = "all",
): unknown {
  const consumed = new Map<Array, number>();
  // `this` is an array for methods; for namespace functions it is the namespace, whose
  // functions must not be walked as a pytree on every call.
  const isArray = self instanceof Array || self instanceof CoreArray;
  const coreSelf = isArray ? unwrap(self, consumed) : self;
  const coreArgs = args.map((a) => unwrap(a, consumed));
  if (policy === "none") consumed.clear();
  checkOwned(name, consumed);
  const result = fn.apply(coreSelf, coreArgs);
  if (result instanceof Promise) {
    return result.then((value: unknown) => {
      const returned = new Map<CoreArray, number>();
      const out = wrap(value, returned, consumed);
      release(consumed, returned);
      return out;
    });
  }
  const returned = new Map<CoreArray, number>();
  const out = wrap(result, returned, consumed);
  release(consumed, returned);
  return out;
}

/** `fn` (a core function) in upstream's ownership model, keeping `length`, `name`, `dispose`. */
export function consuming<F>(name: string, fn: F, policy: Policy = "all"): F {
  const core = fn as unknown as Fn;
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    return callConsuming(name, core, this, args, policy);
  };
  copyProperties(core, wrapper);
  wrappers.add(wrapper);
  return wrapper as unknown as F;
}

/**
 * A consuming-style callback as the core calls it (see the module doc): arrays come in as
 * facades with a reference of their own; an argument returned unchanged gives it back.
 */
function adaptCallback(cb: Fn): Fn {
  const adapted = function (this: unknown, ...coreArgs: unknown[]): unknown {
    const given = new Map<CoreArray, number>();
    const args = coreArgs.map((a) => wrapOwned(a, given));
    const back = new Map<Array, number>();
    const result = unwrap(cb.apply(this, args), back);
    for (const [a, n] of back) {
      const k = Math.min(n, given.get(a._core) ?? 0);
      for (let i = 0; i < k; i++) a._release();
    }
    return result;
  };
  copyProperties(cb, adapted);
  return adapted;
}

/** `wrap`, giving every array one more reference per place it appears. */
function wrapOwned(t: unknown, given: Map<CoreArray, number>): unknown {
  const before = new Map<CoreArray, number>();
  const out = wrap(t, before);
  for (const [core, n] of before) {
    for (let i = 0; i < n; i++) void core.ref;
    given.set(core, (given.get(core) ?? 0) + n);
  }
  return out;
}
