// The code examples of the user documentation (README.md, pkg.template/README.md, docs/**/*.md),
// extracted and made runnable in Node. A fenced block whose info string starts with `js` or `ts`
// is an example; `js norun: <reason>` marks one that cannot run in Node (a browser page, a
// bundler setting), and the reason is required; `js deno` marks a Deno program, which
// tests/deno/guide_examples.test.ts runs. Examples import "oxjax" / "oxjax/optax" /
// "oxjax/consuming", which
// are pointed at the built package. An example that declares `using` is compiled first by
// TypeScript's transpiler (target ES2022), the setting docs/guide/ownership.md documents for
// runtimes without `using` (Node 20); every other example runs exactly as written. A
// `// prints: TEXT` comment after a statement is the line that statement prints (Node's
// `console.log` formatting); an example's printed lines must equal its comments, in order.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** The Markdown files whose examples run: the two READMEs and every file under docs/. */
export function documentationFiles() {
  const files = ["README.md", "pkg.template/README.md"];
  const walk = (dir) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith(".md")) files.push(path);
    }
  };
  walk("docs");
  return files;
}

const FENCE = /^```(\S*)(.*)$/;

/** The fenced code blocks of `file` with their info string and first line number. */
export function codeBlocks(file) {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const blocks = [];
  let open = null;
  lines.forEach((line, i) => {
    const m = FENCE.exec(line);
    if (!m) {
      if (open) open.code.push(line);
      return;
    }
    if (open) {
      blocks.push({ ...open, code: open.code.join("\n") });
      open = null;
    } else {
      open = { file, line: i + 1, lang: m[1], info: m[2].trim(), code: [] };
    }
  });
  if (open) throw new Error(`${file}:${open.line}: unclosed code block`);
  return blocks;
}

/** Every js/ts example, each with `run` (false for `norun`) and `reason`. */
export function examples() {
  const out = [];
  for (const file of documentationFiles()) {
    for (const b of codeBlocks(file)) {
      if (!["js", "ts", "javascript", "typescript"].includes(b.lang)) continue;
      // `js deno`: a Deno program, run by tests/deno/guide_examples.test.ts instead.
      if (/^deno\b/.test(b.info)) {
        out.push({ ...b, run: false, reason: "runs in Deno (tests/deno/guide_examples.test.ts)" });
        continue;
      }
      const norun = /^norun\b:?\s*(.*)$/.exec(b.info);
      out.push({ ...b, run: !norun, reason: norun ? norun[1].trim() : "" });
    }
  }
  return out;
}

const PRINTS = /\/\/ prints: (.*)$/;

/** The lines an example says it prints, in order. */
export function expectedOutput(code) {
  return code
    .split("\n")
    .map((l) => PRINTS.exec(l))
    .filter(Boolean)
    .map((m) => m[1].trimEnd());
}

const pkgUrl = (p) => pathToFileURL(join(root, "pkg", p)).href;

/** Whether the example declares a `using` (or `await using`) binding. */
export function usesUsing(code) {
  return /(^|[\s;{(])(await\s+)?using\s+[A-Za-z_$][\w$]*\s*=/.test(code);
}

/** The example as an ES module for Node: imports pointed at pkg/, compiled if it has `using`. */
export function runnableSource(example) {
  let code = example.code
    .replace(/(["'])oxjax\/optax\1/g, JSON.stringify(pkgUrl("optax/index.js")))
    .replace(/(["'])oxjax\/consuming\1/g, JSON.stringify(pkgUrl("consuming/index.js")))
    .replace(/(["'])oxjax\1/g, JSON.stringify(pkgUrl("index.js")));
  if (usesUsing(code) || example.lang.startsWith("t")) {
    code = ts.transpileModule(code, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
  }
  return code;
}

/** `file:line` of an example, for test names and messages. */
export const where = (e) => `${relative(root, join(root, e.file))}:${e.line}`;
