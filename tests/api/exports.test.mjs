// Every name of FEATURES.md (jax-js's API by namespace) against the built
// package: supported and partial names are exported with the kind the table gives; "not yet"
// names are exported and throw "<name> is not supported in oxjax yet"; "in progress" names
// (other engineers') may be absent, but have the right kind once exported. Every runtime export
// of a listed namespace must have a row, so the table cannot drift from the exports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as ox from "../../pkg/index.js";
import * as optax from "../../pkg/optax/index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const STATUSES = ["supported", "partial", "not yet", "in progress"];
const KINDS = ["function", "class", "namespace", "value", "getter", "method", "type"];

/** `{ namespace: [{ name, kind, status, notes }] }` from FEATURES.md's tables. */
function parseFeatures() {
  const sections = {};
  let current = null;
  for (const line of readFileSync(join(root, "FEATURES.md"), "utf8").split("\n")) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) {
      current = sections[heading[1]] = [];
      continue;
    }
    const row = /^\|\s*`([^`]+)`\s*\|\s*([\w ]+?)\s*\|\s*([\w ]+?)\s*\|(.*)\|$/.exec(line);
    if (row && current) {
      const [, name, kind, status, notes] = row;
      current.push({ name, kind, status, notes: notes.trim() });
    } else if (line.startsWith("| `")) {
      assert.fail(`FEATURES.md: malformed row ${line}`);
    }
  }
  return sections;
}

const features = parseFeatures();

function dtsText() {
  const texts = [];
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith(".d.ts")) texts.push(readFileSync(p, "utf8"));
    }
  };
  walk(join(root, "pkg"));
  return texts.join("\n");
}
const declarations = dtsText();

/** The runtime object holding a section's names (undefined when the namespace is absent). */
function container(section) {
  if (section === "top-level") return ox;
  if (section === "optax") return optax;
  if (section === "Array") return ox.Array.prototype;
  return section.split(".").reduce((o, k) => (o == null ? undefined : o[k]), ox);
}

const keyOf = (name) => {
  const sym = /^\[Symbol\.(\w+)\]$/.exec(name);
  return sym ? Symbol[sym[1]] : name;
};

const isClass = (v) =>
  typeof v === "function" && /^class\b/.test(Function.prototype.toString.call(v));

/** Whether `obj[name]` is of `kind` (without running getters). */
function hasKind(obj, name, kind) {
  const key = keyOf(name);
  if (kind === "type") return new RegExp(`\\b${name}\\b`).test(declarations);
  if (kind === "getter" || kind === "method") {
    // Own, or from a base class (Array's members live on Array and ArrayHandle).
    let d;
    for (let p = obj; p && p !== Object.prototype && !d; p = Object.getPrototypeOf(p)) {
      d = Object.getOwnPropertyDescriptor(p, key);
    }
    if (!d) return false;
    return kind === "getter" ? typeof d.get === "function" : typeof d.value === "function";
  }
  if (!(key in obj)) return false;
  const v = obj[key];
  switch (kind) {
    case "function":
      return typeof v === "function" && !isClass(v);
    case "class":
      return isClass(v);
    case "namespace":
      return typeof v === "object" && v !== null;
    case "value":
      return v !== undefined && typeof v !== "function";
  }
  return false;
}

test("FEATURES.md rows are well formed and unique per namespace", () => {
  assert.ok(Object.keys(features).length >= 12, "FEATURES.md has the namespace sections");
  for (const [section, rows] of Object.entries(features)) {
    const seen = new Set();
    for (const r of rows) {
      assert.ok(KINDS.includes(r.kind), `${section}.${r.name}: unknown kind ${r.kind}`);
      assert.ok(STATUSES.includes(r.status), `${section}.${r.name}: unknown status ${r.status}`);
      assert.ok(!seen.has(r.name), `${section}.${r.name} is listed twice`);
      seen.add(r.name);
      if (r.status === "not yet") {
        assert.ok(
          r.notes.split(/\s+/).length >= 5,
          `${section}.${r.name}: a "not yet" row must say why in its notes`,
        );
        assert.ok(
          !["value", "getter"].includes(r.kind),
          `${section}.${r.name}: a ${r.kind} cannot be "not yet" (it cannot throw)`,
        );
      }
    }
  }
});

for (const [section, rows] of Object.entries(features)) {
  test(`${section}: every listed name is exported with its kind`, () => {
    const obj = container(section);
    const problems = [];
    for (const r of rows) {
      if (r.status === "in progress") {
        const present = obj != null && r.kind !== "type" && keyOf(r.name) in obj;
        if (present && !hasKind(obj, r.name, r.kind)) problems.push(`${r.name} is not a ${r.kind}`);
        continue;
      }
      if (obj == null) {
        problems.push(`namespace ${section} is missing (needed by ${r.name})`);
        continue;
      }
      if (r.kind === "type" && r.status === "not yet") continue;
      if (!hasKind(obj, r.name, r.kind)) problems.push(`${r.name} is not exported as a ${r.kind}`);
    }
    assert.deepEqual(problems, []);
  });

  test(`${section}: "not yet" names throw a clear error`, () => {
    const obj = container(section);
    for (const r of rows.filter((r) => r.status === "not yet" && r.kind !== "type")) {
      const escaped = r.name.replace(/[[\].]/g, "\\$&");
      const message = new RegExp(`(^|: )${escaped} is not supported in oxjax yet`);
      if (r.kind === "function") {
        assert.throws(() => obj[r.name](), message, `${section}.${r.name}`);
      } else if (r.kind === "class") {
        assert.throws(() => new obj[r.name](), message, `${section}.${r.name}`);
      } else if (r.kind === "method") {
        const x = ox.numpy.zeros([2]);
        try {
          assert.throws(() => x[keyOf(r.name)](), message, `${section}.${r.name}`);
        } finally {
          x.dispose();
        }
      }
    }
  });

  test(`${section}: every runtime export has a row`, () => {
    const obj = container(section);
    if (obj == null) return;
    const listed = new Set(rows.map((r) => keyOf(r.name)));
    const keys =
      section === "Array"
        ? Reflect.ownKeys(obj).filter((k) => k !== "constructor" && !String(k).startsWith("_"))
        : Object.keys(obj);
    const missing = keys.filter((k) => !listed.has(k)).map(String);
    assert.deepEqual(missing, [], `add these exports of ${section} to FEATURES.md`);
  });
}

test("jax-js's namespaces all have sections", () => {
  for (const ns of [
    "top-level",
    "Array",
    "checkLeaks",
    "numpy",
    "numpy.linalg",
    "numpy.fft",
    "lax",
    "lax.linalg",
    "nn",
    "random",
    "scipySpecial",
    "tree",
    "scipyLinalg",
    "optax",
  ]) {
    assert.ok(features[ns]?.length > 0, `FEATURES.md has a section ${ns}`);
  }
});
