/**
 * Side effects on import, as in jax-js: make sure `Symbol.dispose` and `Symbol.asyncDispose`
 * exist (as `Symbol.for(...)`) so `using` works on runtimes that predate them.
 */
const symbols = Symbol as unknown as Record<string, symbol>;
if (typeof symbols.dispose !== "symbol") {
  Object.defineProperty(Symbol, "dispose", { value: Symbol.for("Symbol.dispose") });
}
if (typeof symbols.asyncDispose !== "symbol") {
  Object.defineProperty(Symbol, "asyncDispose", { value: Symbol.for("Symbol.asyncDispose") });
}
export {};
