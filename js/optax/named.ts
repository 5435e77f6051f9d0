/**
 * Errors of `oxjax/optax` that name the function the user called: each exported function is
 * wrapped by `named` (js/errors.ts), and the `init`/`update` of a `GradientTransformation` it
 * returns are named `<function>.init` / `<function>.update` (e.g. `adam.update`).
 */
import { named } from "../errors.js";
import type { GradientTransformation } from "./base.js";

function isTransformation(v: unknown): v is GradientTransformation {
  if (v === null || typeof v !== "object") return false;
  const t = v as Record<string, unknown>;
  return typeof t.init === "function" && typeof t.update === "function";
}

/** `f` (an optax function named `name`), whose errors and whose transformation's name it. */
export function namedOptax<F>(name: string, f: F): F {
  const fn = f as unknown as (...args: unknown[]) => unknown;
  return named(name, function (this: unknown, ...args: unknown[]): unknown {
    const result = fn.apply(this, args);
    if (!isTransformation(result)) return result;
    return {
      ...result,
      init: named(`${name}.init`, result.init),
      update: named(`${name}.update`, result.update),
    };
  }) as unknown as F;
}
