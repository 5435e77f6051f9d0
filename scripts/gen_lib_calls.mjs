#!/usr/bin/env node
// Regenerates js/lib-calls.ts, the TypeScript call layer of the library functions, from their
// Rust declarations (src/library/call_args.rs and src/library/call.rs): the renderer is Rust
// (src/library/signature.rs), run by the unit test that otherwise fails when the file is stale.
// Run after changing a declaration, then build.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execFileSync(
  "cargo",
  ["test", "--lib", "library::call::tests::typescript_call_layer_is_current", "--", "--exact"],
  { cwd: root, stdio: "inherit", env: { ...process.env, OXJAX_WRITE_LIB_CALLS: "1" } },
);
console.log("wrote js/lib-calls.ts");
