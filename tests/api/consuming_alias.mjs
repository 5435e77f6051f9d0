// Node module hooks (module.register) of the real-client tests: a second instance of a client
// package (`@jax-js/onnx`, imported with `?flavour=oxjax` on its URL) whose `@jax-js/jax`
// resolves to oxjax's consuming entry, beside the ordinary instance that gets upstream's
// `@jax-js/jax`. The query string makes the two instances distinct modules (the clients are
// single-file bundles, so their own imports need no aliasing).
let target;

export function initialize(data) {
  target = data.target;
}

export async function resolve(specifier, context, next) {
  const parent = context.parentURL ?? "";
  if (!parent.includes("flavour=oxjax")) return next(specifier, context);
  if (specifier === "@jax-js/jax") return { url: target, shortCircuit: true };
  return next(specifier, context);
}
