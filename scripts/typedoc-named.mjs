// A TypeDoc plugin (typedoc.json): the exports of js/named/ are `named("f", raw.f)` wrappers
// (scripts/gen_named.mjs), tagged `@function` so TypeDoc documents them as functions. A
// wrapper's signature already carries the doc comment of a wrapped function *declaration*;
// for a wrapped `const` (`export const sin = unary("sin", "sin")`, an alias such as
// `export const asin = arcsin`) this plugin copies the const's doc comment to the signature.
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

export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_SIGNATURE, (context, signature) => {
    if (signature.comment || signature.kind !== ReflectionKind.CallSignature) return;
    const owner = signature.parent;
    const symbol = context.getSymbolFromReflection(owner);
    const target = wrappedSymbol(context.checker, symbol);
    const decl = target?.declarations?.[0];
    if (!decl || !ts.isVariableDeclaration(decl)) return;
    const comment = context.getComment(target, ReflectionKind.Variable);
    if (comment) signature.comment = comment.clone();
  });
}
