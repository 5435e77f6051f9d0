/**
 * The consuming entry's namespaces: a core namespace (`numpy`, `lax`, …) as an object of the
 * same names whose functions consume their array arguments (`ownership.ts`). Sub-namespaces
 * (`numpy.linalg`) are converted the same way, the core `Array` class becomes the consuming
 * one, and other values (dtypes, constants, classes) are kept.
 */
import { Array as CoreArray } from "../array.js";
import { Array } from "./array.js";
import { consuming, type Policy } from "./ownership.js";

const isModule = (v: unknown): v is Record<string, unknown> =>
  Object.prototype.toString.call(v) === "[object Module]";

/** `ns` with consuming functions; `policies` names the functions that consume otherwise. */
export function consumingNamespace<T extends object>(
  ns: T,
  policies: Record<string, Policy> = {},
): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ns)) {
    if (value === CoreArray) out[key] = Array;
    else if (isModule(value)) out[key] = consumingNamespace(value);
    else if (typeof value === "function" && !/^[A-Z]/.test(key)) {
      out[key] = consuming(key, value, policies[key]);
    } else out[key] = value;
  }
  return Object.freeze(out) as T;
}
