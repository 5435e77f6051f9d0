// A TypeDoc plugin (typedoc.json): every documented function and method of the reference has
// an `@example` (run and checked by tests/docs/jsdoc_examples.test.mjs). Aliases ("Alias of
// …"), names oxjax does not implement ("not in oxjax", "not supported"), the `dispose` members
// of function types (their owner's page shows them in use) and signatures without a comment
// (the not-documented validation reports those) are exempt. Each miss is a warning, which the
// npm test layer treats as an error.
import { Application, Comment, ReflectionKind } from "typedoc";

const EXEMPT = /^(Alias of|.*not (in|supported in) oxjax)/s;

export function load(app) {
  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    const kinds = ReflectionKind.Function | ReflectionKind.Method;
    for (const r of project.getReflectionsByKind(kinds)) {
      if (r.parent?.kind === ReflectionKind.TypeLiteral) continue;
      const sigs = r.signatures ?? [];
      const comments = [r.comment, ...sigs.map((s) => s.comment)].filter(Boolean);
      if (comments.length === 0) continue;
      if (comments.some((c) => c.blockTags.some((t) => t.tag === "@example"))) continue;
      if (comments.some((c) => EXEMPT.test(Comment.combineDisplayParts(c.summary)))) continue;
      app.logger.warn(`${r.getFullName()} has no @example`);
    }
  });
}
