/**
 * jax-js names that oxjax does not implement yet. Each exists (so imports resolve and
 * FEATURES.md can list it) and throws an `Error` naming itself when called.
 */

/** A function that throws "`name` is not supported in oxjax yet". */
export function notYet(name: string): (...args: unknown[]) => never {
  /** Not in oxjax yet: calling it throws `Error("<name> is not supported in oxjax yet")`. */
  const f = (..._args: unknown[]): never => {
    throw new Error(`${name} is not supported in oxjax yet`);
  };
  Object.defineProperty(f, "name", { value: name });
  return f;
}

/** A class whose constructor throws "`name` is not supported in oxjax yet". */
export function notYetClass(name: string): new (...args: unknown[]) => never {
  const C = class {
    /** Not implemented in oxjax yet: constructing one throws an `Error` naming the class. */
    constructor(..._args: unknown[]) {
      throw new Error(`${name} is not supported in oxjax yet`);
    }
  };
  Object.defineProperty(C, "name", { value: name });
  return C as unknown as new (...args: unknown[]) => never;
}
