/**
 * The `random` namespace: keys and the basic draws (`core.ts`), the other distributions
 * (`distributions.ts`), permutations and choice (`shuffle.ts`). The math is in Rust.
 */
export * from "./core.js";
export * from "./distributions.js";
export * from "./shuffle.js";
