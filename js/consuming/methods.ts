/**
 * Installs the consuming methods on the consuming entry's `Array` (`array.ts`): every method
 * of the core `Array` that the facade does not define itself runs through `callConsuming`,
 * consuming `this` and its array arguments, as upstream's methods do. Exceptions:
 * `blockUntilReady` consumes nothing, and `consumeData`/`consumeDataSync` release their one
 * reference themselves. Iterating consumes the array once the iteration ends, as upstream.
 */
import { Array as CoreArray } from "../array.js";
import { Array, facadeOf } from "./array.js";
import { callConsuming, type Policy } from "./ownership.js";

type Fn = (...args: unknown[]) => unknown;

/** Methods that do not consume `this` through the wrapper. */
const POLICIES: Record<string, Policy> = {
  blockUntilReady: "none",
  consumeData: "none",
  consumeDataSync: "none",
};

const core = CoreArray.prototype as unknown as Record<string | symbol, unknown>;
const facade = Array.prototype as unknown as Record<string | symbol, unknown>;

/** Every member of the core `Array` and its bases (`ArrayHandle`), nearest first. */
function* coreMembers(): Generator<[string | symbol, PropertyDescriptor]> {
  const seen = new Set<string | symbol>();
  for (let p = CoreArray.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const key of Reflect.ownKeys(p)) {
      if (seen.has(key)) continue;
      seen.add(key);
      yield [key, Object.getOwnPropertyDescriptor(p, key)!];
    }
  }
}

for (const [key, d] of coreMembers()) {
  if (key === "constructor" || key === Symbol.iterator) continue;
  if (Object.prototype.hasOwnProperty.call(Array.prototype, key)) continue;
  const name = typeof key === "symbol" ? key.toString() : key;
  const policy = POLICIES[name] ?? "all";
  if (typeof d.value === "function") {
    const method = d.value as Fn;
    Object.defineProperty(facade, key, {
      ...d,
      value: function (this: Array, ...args: unknown[]) {
        return callConsuming(name, method, this, args, policy);
      },
    });
  } else if (d.get) {
    // Computed arrays such as `T`: consuming like the method they stand for.
    const getter = d.get;
    Object.defineProperty(facade, key, {
      configurable: true,
      enumerable: d.enumerable,
      get(this: Array) {
        return callConsuming(name, getter as Fn, this, [], policy);
      },
    });
  }
}

/** Yields the rows (axis 0) as arrays; the array is consumed when the iteration ends. */
facade[Symbol.iterator] = function* (this: Array): Generator<Array> {
  const rows = (core[Symbol.iterator] as () => Generator<CoreArray>).call(this._core);
  try {
    for (const row of rows) yield facadeOf(row);
  } finally {
    this[Symbol.dispose]();
  }
};
