// A TypeDoc plugin (typedoc.json): the exports of js/named/ are `named("f", raw.f)` wrappers
// (scripts/gen_named.mjs), tagged `@function` so TypeDoc documents them as functions. A
// wrapper's signature already carries the doc comment of a wrapped function *declaration*;
// for a wrapped `const` (`export const sin = unary("sin", "sin")`, an alias such as
// `export const asin = arcsin`) this plugin puts the const's doc comment on the signature
// (in place of the comment of the function the const's initializer made, if that has one).
// A `const` whose type has a signature (`export const Jaxpr = notYetClass("Jaxpr")`) lends
// its comment to that signature where the signature has none.
import { Converter, ReflectionKind } from "typedoc";
import ts from "typescript";

/** The symbol of `raw.f` in a wrapper's initializer `named("f", raw.f)`, if it is one. */
function wrappedSymbol(checker, symbol) {
  const decl = symbol?.declarations?.[0];
  const init = decl && ts.isVariableDeclaration(decl) ? decl.initializer : undefined;
  if (!init || !ts.isCallExpression(init) || init.expression.getText() !== "named") return null;
  const target = checker.getSymbolAtLocation(init.arguments[1]);
  if (!target) return null;
  return target.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(target) : target;
}

const SIGNATURES = [ReflectionKind.CallSignature, ReflectionKind.ConstructorSignature];

export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_SIGNATURE, (context, signature) => {
    if (!SIGNATURES.includes(signature.kind)) return;
    let owner = signature.parent;
    // The signature of a const's type (`new (...) => never`) hangs off an anonymous `__type`.
    if (owner?.name === "__type") owner = owner.parent;
    const symbol = owner && context.getSymbolFromReflection(owner);
    const wrapped = wrappedSymbol(context.checker, symbol);
    if (!wrapped && signature.comment) return;
    const target = wrapped ?? symbol;
    const decl = target?.declarations?.[0];
    if (!decl || !ts.isVariableDeclaration(decl)) return;
    const comment = context.getComment(target, ReflectionKind.Variable);
    if (comment) signature.comment = comment.clone();
  });
}
