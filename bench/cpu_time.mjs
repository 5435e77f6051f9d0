// What bench/consuming.mjs and bench/lib_calls.mjs share: the package they load (pkg/, or the
// build in OXJAX_PKG) and the timing of one call in process CPU time (user + system, so other
// load on the machine counts less than in wall time).
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const pkgDir = process.env.OXJAX_PKG ?? new URL("../pkg", import.meta.url).pathname;

/** The module `entry` (a path inside the package, e.g. "index.js") of the package under test. */
export function importPackage(entry) {
  return import(pathToFileURL(resolve(pkgDir, entry)).href);
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** CPU µs per call of `fn`: [median, minimum] of 9 samples of at least 100 ms, after `warmup` calls. */
export function cpuTime(fn, warmup) {
  const samples = [];
  for (let w = 0; w < warmup; w++) fn();
  for (let s = 0; s < 9; s++) {
    let n = 0;
    const t0 = cpu();
    while (cpu() - t0 < 100_000) {
      for (let k = 0; k < 50; k++) fn();
      n += 50;
    }
    samples.push((cpu() - t0) / n);
  }
  return [median(samples), Math.min(...samples)];
}
