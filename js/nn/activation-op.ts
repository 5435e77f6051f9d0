/** Internal helpers shared by the `nn` files: the Array check and the Rust-backed activation. */
import { call, wasm } from "../bridge.js";
import { Array } from "../array.js";

export function check(fn: string, x: unknown): asserts x is Array {
  if (!(x instanceof Array)) throw new TypeError(`${fn}: expected an Array, got ${typeof x}`);
}

/** The elementwise activation `name`, computed in Rust (`wasm.activation`). */
export const activation =
  (name: string) =>
  (x: Array): Array => {
    check(name, x);
    return new Array(call(() => wasm.activation(name, x._handle, 0)));
  };
