/** Option handling shared by the linear algebra namespaces (their calls are in `lib-calls.ts`). */

/** Checks that `opts` is an options object with only the `known` keys. */
export function options<T extends object>(fn: string, opts: T | undefined, known: string[]): T {
  if (opts === undefined || opts === null) return {} as T;
  if (typeof opts !== "object") throw new TypeError(`${fn}: options must be an object`);
  const unknown = Object.keys(opts).filter((k) => !known.includes(k));
  if (unknown.length) throw new TypeError(`${fn}: unknown option(s) ${unknown.join(", ")}`);
  return opts;
}

/** A norm order as a number or a name: null → neither, "inf"/"infinity" → Infinity. */
export function normOrd(fn: string, ord: unknown): { ord?: number; ordName?: "fro" | "nuc" } {
  if (ord === null || ord === undefined) return {};
  if (ord === "fro" || ord === "nuc") return { ordName: ord };
  if (ord === "inf" || ord === "infinity") return { ord: Infinity };
  if (typeof ord === "number" && !Number.isNaN(ord)) return { ord };
  throw new TypeError(`${fn}: ord must be a number, Infinity, "fro" or "nuc", got ${String(ord)}`);
}
