/**
 * The option checks of the creation functions (not part of the namespace): unknown options are
 * refused, and the `dtype` and `device` options are checked for a call computed in Rust.
 */
import { DType, parseDType } from "../dtype.js";
import { type Device } from "../device.js";
import * as checks from "../check.js";

/** Refuses options of `opts` that `fn` does not take. */
export function checkOptions(fn: string, opts: object, allowed: string[]): void {
  const unknown = Object.keys(opts).filter((k) => !allowed.includes(k));
  if (unknown.length) throw new TypeError(`${fn}: unknown option(s) ${unknown.join(", ")}`);
}

/**
 * The `dtype` and `device` options of a creation function computed in Rust (checked; `null`:
 * float32 unless the function says otherwise, and the default device, uncommitted). Unknown
 * options are refused unless `known` is false.
 */
export function creationOptions(
  fn: string,
  opts: { dtype?: DType; device?: Device },
  known = true,
): { dtype: `${DType}` | null; device: Device | null } {
  if (known) checkOptions(fn, opts, ["dtype", "device"]);
  const dtype = opts.dtype === undefined ? null : parseDType(fn, opts.dtype);
  return { dtype, device: (checks.device(fn, opts.device) || null) as Device | null };
}
