/**
 * Errors that name the function the user called. Every exported function is wrapped by
 * `named` (the wrappers are generated into `js/named/` by `scripts/gen_named.mjs`): an `Error`
 * escaping it whose message does not start with the function's name has its leading internal
 * name (a primitive such as `convert_element_type`, a helper such as `concatenate`) replaced,
 * or the name prefixed (engine messages such as "Cannot read properties of undefined"). The
 * error object, its class and its stack are kept; only `message` changes.
 *
 * Errors thrown by the user's own functions (a traced function, a `tree.map` callback) pass
 * through untouched: function arguments are wrapped to mark what they throw.
 */

/** Errors thrown by user callbacks: never renamed. */
const fromUser = new WeakSet<object>();

/** `f`, marking what it throws as the user's own (for function arguments of API functions). */
function marked(f: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    try {
      return f.apply(this, args);
    } catch (e) {
      if (e !== null && typeof e === "object") fromUser.add(e);
      throw e;
    }
  };
  // Keep what code may read off a function (jax-js reads `length`; names help debugging).
  Object.defineProperty(wrapper, "length", { value: f.length });
  Object.defineProperty(wrapper, "name", { value: f.name });
  return wrapper;
}

/**
 * The length of a leading `name: ` (an identifier, dots allowed), or 0. No RegExp: this runs
 * while a stack overflow unwinds, where V8 cannot compile one.
 */
function leadingName(message: string): number {
  for (let i = 0; i < message.length; i++) {
    const c = message.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    const digitOrDot = (c >= 48 && c <= 57) || c === 46;
    if (letter || (i > 0 && digitOrDot)) continue;
    return i > 0 && c === 58 && message.charCodeAt(i + 1) === 32 ? i + 2 : 0;
  }
  return 0;
}

/** Makes `e` (an Error from inside `name`) name `name`. */
export function renameError(e: unknown, name: string): unknown {
  if (!(e instanceof Error) || fromUser.has(e)) return e;
  const message = String(e.message);
  // Already naming it: "name: …", or a sentence such as "jacfwd only supports 1D inputs".
  if (message.startsWith(`${name}:`) || message.startsWith(`${name} `)) return e;
  try {
    e.message = `${name}: ${message.slice(leadingName(message))}`;
  } catch {
    // A frozen error keeps its message.
  }
  return e;
}

/** `f`, whose errors name `name` (see the module doc); its type is kept. */
export function named<F>(name: string, f: F): F {
  if (typeof f !== "function") return f;
  const fn = f as unknown as (...args: unknown[]) => unknown;
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (typeof a === "function") args[i] = marked(a as (...x: unknown[]) => unknown);
    }
    let result: unknown;
    try {
      result = fn.apply(this, args);
    } catch (e) {
      throw renameError(e, name);
    }
    if (result instanceof Promise)
      return result.catch((e: unknown) => Promise.reject(renameError(e, name)));
    return result;
  };
  Object.defineProperty(wrapper, "length", { value: fn.length });
  Object.defineProperty(wrapper, "name", { value: name });
  return wrapper as unknown as F;
}

/**
 * Wraps every method of `target` (a class's prototype, or an object of functions such as
 * `checkLeaks`) with `named`, in place; `prefix` goes before each method's name.
 */
export function nameMethods(target: object, prefix = ""): void {
  for (const key of Object.getOwnPropertyNames(target)) {
    if (key === "constructor") continue;
    const d = Object.getOwnPropertyDescriptor(target, key);
    if (d && typeof d.value === "function" && d.writable) {
      Object.defineProperty(target, key, { ...d, value: named(prefix + key, d.value) });
    }
  }
}
