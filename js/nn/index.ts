/**
 * The `nn` namespace: activations (`activation.ts`), functions over axes such as softmax
 * (`axes.ts`) and attention (`attention.ts`). The math is in Rust.
 */
export * from "./activation.js";
export * from "./axes.js";
export * from "./attention.js";
