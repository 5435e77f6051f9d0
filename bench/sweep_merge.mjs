// Joins the outputs of sweep parts (`SWEEP_PART=k/n node bench/sweep.mjs` or
// `bench/sweep_webgpu.ts`, each saved to a file) into one table: reads each file's `SWEEP_JSON`
// line and prints the combined report as one run would (bench/sweep_run.mjs's `report`).
//
//   node bench/sweep_merge.mjs part1.txt part2.txt …
import { readFileSync } from "node:fs";
import { report } from "./sweep_run.mjs";

const files = process.argv.slice(2);
if (!files.length) throw new Error("usage: node bench/sweep_merge.mjs <sweep output>…");
const all = { device: "", rows: [], jaxFails: [], oxFails: [], uncovered: [] };
for (const f of files) {
  const line = readFileSync(f, "utf8")
    .split("\n")
    .find((l) => l.startsWith("SWEEP_JSON "));
  if (!line) throw new Error(`${f}: no SWEEP_JSON line (did that part finish?)`);
  const part = JSON.parse(line.slice("SWEEP_JSON ".length));
  all.device ||= part.device;
  for (const k of ["rows", "jaxFails", "oxFails"]) all[k].push(...part[k]);
  all.uncovered = part.uncovered; // the same list in every part
}
report(all);
