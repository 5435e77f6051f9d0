// The package's type declarations: typical jax-js user code (tests/types/user_code.ts, dlm-js
// style: numpy as np, lax, tree, valueAndGrad, `using`, optax adam/applyUpdates) compiles
// against the built pkg/*.d.ts with `tsc --noEmit --strict`, and a type error in such code is
// caught. tests/types/precise_*.ts pin the transformations' generic types in each flavour's
// style (`Equal` checks, `@ts-expect-error` for misuse); the upstream-style program also
// compiles against upstream @jax-js/jax's own declarations, so its types are upstream's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const tsc = join(root, "node_modules/.bin/tsc");

function compile(project) {
  try {
    execFileSync(tsc, ["-p", project], { cwd: root, encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (e) {
    return `${e.stdout}${e.stderr}`;
  }
}

test("typical user code compiles against pkg/*.d.ts", () => {
  assert.equal(compile("tests/types/tsconfig.json"), "");
});

test("the upstream-style program compiles against upstream @jax-js/jax's declarations", () => {
  const dir = mkdtempSync(join(root, "tests/types/.tmp-"));
  try {
    const config = JSON.parse(readFileSync(join(root, "tests/types/tsconfig.json"), "utf8"));
    config.compilerOptions.paths = {
      "oxjax/consuming": [join(root, "node_modules/@jax-js/jax/dist/index.d.ts")],
    };
    // Upstream's declarations name WebGPU types that TypeScript's libraries lack.
    config.compilerOptions.skipLibCheck = true;
    config.include = [join(root, "tests/types/precise_upstream.ts")];
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
    assert.equal(compile(join(dir, "tsconfig.json")), "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a type error in user code is reported", () => {
  const dir = mkdtempSync(join(root, "tests/types/.tmp-"));
  try {
    const config = JSON.parse(readFileSync(join(root, "tests/types/tsconfig.json"), "utf8"));
    config.compilerOptions.paths = {
      oxjax: [join(root, "pkg/index.d.ts")],
      "oxjax/optax": [join(root, "pkg/optax/index.d.ts")],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
    writeFileSync(
      join(dir, "bad.ts"),
      `import { numpy as np } from "oxjax";\nconst n: string = np.zeros([2]).ndim;\nexport { n };\n`,
    );
    assert.match(compile(join(dir, "tsconfig.json")), /bad\.ts.*TS2322/s);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
