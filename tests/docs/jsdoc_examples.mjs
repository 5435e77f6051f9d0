// The `@example` blocks of the doc comments in js/ (what the API reference shows), extracted and
// made runnable in Node: each runs as an ES module with the package's namespaces and top-level
// functions in scope (`np`, `lax`, `nn`, `random`, `tree`, `scipySpecial`, `scipyLinalg`,
// `optax`, `grad`, `jit`, …) unless it imports what it needs itself. Blocks are compiled by
// TypeScript's transpiler (target ES2022: type annotations and `using` on Node 20).
//
// A value in a line's trailing comment is checked: `using y = f(x); // [1, 2]` compares `y`,
// `const [a, b] = f(x); // a = [1], b ≈ [2]` compares `a` and `b`, and a bare expression
// `f(x); // 3` compares its value (an Array result is read with `js()`, then disposed). The
// comment's value is a JSON number, boolean, string or nested list (NaN and ±Infinity allowed)
// at its start, optionally after `≈ ` (then compared to 1e-3 relative); anything after it is
// prose. Numbers are compared to 1e-6 relative, as float32 values printed to 8 digits are.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { root } from "./examples.mjs";

/** Every .ts file under js/ except the generated and build-output folders. */
function sources(dir = "js") {
  const out = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) {
      if (!["wasm", "named"].includes(name)) out.push(...sources(path));
    } else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The `@example` code blocks of one file's doc comments, with their first line number. */
export function examplesOf(file) {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const out = [];
  let inExample = false;
  let block = null;
  lines.forEach((raw, i) => {
    const line = raw.replace(/^\s*\*( |$)/, "");
    if (/^\s*\*?\s*@example\b/.test(raw)) inExample = true;
    else if (/^\s*\*\s*@\w/.test(raw) || /\*\/\s*$/.test(raw)) inExample = block !== null;
    if (!inExample) return;
    if (/^```/.test(line.trim())) {
      if (block) {
        out.push({ file, line: block.line, code: block.code.join("\n") });
        block = null;
        inExample = false;
      } else block = { line: i + 2, code: [] };
    } else if (block) block.code.push(line);
  });
  return out;
}

/** Every doc-comment example under js/. */
export function jsdocExamples() {
  return sources().flatMap(examplesOf);
}

const pkgUrl = (p) => pathToFileURL(join(root, "pkg", p)).href;

const PRELUDE = [
  `import * as ox from ${JSON.stringify(pkgUrl("index.js"))};`,
  `import * as optax from ${JSON.stringify(pkgUrl("optax/index.js"))};`,
  `const { numpy: np, lax, nn, random, tree, scipySpecial, scipyLinalg } = ox;`,
  `const { grad, valueAndGrad, vjp, jvp, vmap, jacfwd, jacrev, hessian, linearize, jit } = ox;`,
  `const { makeJaxpr, init, defaultDevice, webgpuUnavailableReason, devicePut } = ox;`,
  `const { blockUntilReady, memoryStats, checkLeaks, clearCaches, getCacheSizes } = ox;`,
  `const { setDebug, setScanPathCallback, getBackend, DType, scatterAdd, wasmThreadInfo } = ox;`,
].join("\n");

/** The value at the start of a comment (see the module doc), as JSON text, or null. */
export function commentValue(comment) {
  const approx = /^≈\s*/.test(comment);
  const text = comment.replace(/^≈\s*/, "");
  let end = 0;
  if (text.startsWith("[")) {
    let depth = 0;
    for (; end < text.length; end++) {
      if (text[end] === "[") depth++;
      if (text[end] === "]" && --depth === 0) break;
    }
    end += 1;
  } else {
    const m = /^(-?Infinity|NaN|true|false|"[^"]*"|-?\d+(\.\d+)?(e[+-]?\d+)?)(?![\w.])/.exec(text);
    if (!m) return null;
    end = m[0].length;
  }
  const json = text
    .slice(0, end)
    .replace(/-Infinity/g, '"-Infinity"')
    .replace(/(?<!["-])Infinity/g, '"Infinity"')
    .replace(/NaN/g, '"NaN"');
  try {
    JSON.parse(json);
  } catch {
    return null;
  }
  return { json, approx };
}

const DECLARED = /^(\s*)(?:using|const|let)\s+([A-Za-z_$][\w$]*)\s*=.*;\s*\/\/\s*(.+)$/;
const DESTRUCTURED = /^(\s*)const\s+\[[^\]]+\]\s*=.*;\s*\/\/\s*(.+)$/;
const EXPRESSION =
  /^(\s*)(?!using\b|const\b|let\b|return\b|for\b|if\b|await\s+using\b|console\.)([^\s}/][^;]*);\s*\/\/\s*(.+)$/;

/** The example's code with `__expect` calls for the values its comments give. */
function withChecks(code, at) {
  return code
    .split("\n")
    .map((line, i) => {
      const here = JSON.stringify(`${at.file}:${at.line + i}`);
      const check = (expr, comment, dispose) => {
        const v = commentValue(comment);
        return v && `__expect(${expr}, ${v.json}, ${v.approx}, ${here}, ${dispose});`;
      };
      let m = DECLARED.exec(line);
      if (m) return `${line}\n${m[1]}${check(m[2], m[3], false) ?? ""}`;
      m = DESTRUCTURED.exec(line);
      if (m) {
        const pairs = [
          ...m[2].matchAll(/([A-Za-z_$][\w$]*) (=|≈) (.+?)(?=, [A-Za-z_$][\w$]* (?:=|≈) |$)/g),
        ];
        const checks = pairs.map((p) => check(p[1], p[2] === "≈" ? `≈ ${p[3]}` : p[3], false));
        return `${line}\n${m[1]}${checks.map((c) => c ?? "").join(" ")}`;
      }
      m = EXPRESSION.exec(line);
      if (m) {
        const c = check(`(${m[2]})`, m[3], true);
        if (c) return `${m[1]}${c}`;
      }
      return line;
    })
    .join("\n");
}

/** The example as an ES module: the prelude (unless it imports), imports pointed at pkg/. */
export function runnable(example) {
  const own = /^\s*import\s/m.test(example.code);
  const expect = `const { __expect } = await import(${JSON.stringify(
    pathToFileURL(join(root, "tests/docs/expect.mjs")).href,
  )});`;
  const code = (own ? "" : PRELUDE + "\n") + expect + "\n" + withChecks(example.code, example);
  const pointed = code
    .replace(/(["'])oxjax\/(optax|consuming)\1/g, (_, q, sub) =>
      JSON.stringify(pkgUrl(`${sub}/index.js`)),
    )
    .replace(/(["'])oxjax\1/g, JSON.stringify(pkgUrl("index.js")));
  return ts.transpileModule(pointed, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
}

export const where = (e) => `${relative(root, join(root, e.file))}:${e.line}`;
