/** numpy reductions with `axis` (number, list or null for all) and `keepdims`. */
import { Array } from "../array.js";
import { reduceOp, type Axis } from "../ops.js";

export type { Axis };

export interface ReduceOpts {
  keepdims?: boolean;
}

const reduction =
  (kind: string) =>
  (a: Array, axis: Axis = null, opts: ReduceOpts = {}): Array =>
    reduceOp(kind, a, axis, opts.keepdims);

export const sum = reduction("sum");
export const prod = reduction("prod");
export const max = reduction("max");
export const min = reduction("min");
export const mean = reduction("mean");
export const all = reduction("all");
export const any = reduction("any");

export function astype(a: Array, dtype: Parameters<Array["astype"]>[0]): Array {
  return a.astype(dtype);
}
