// The cells of the startup tables (bench/startup.mjs, bench/startup_browser.mjs): a median
// with the range of the runs.

/** The median of `xs`. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** `median (min–max)` of field `key` over `rows`. */
export const cell = (rows, key) => {
  const xs = rows.map((r) => r[key]);
  const f = (x) => x.toFixed(x < 10 ? 2 : 1);
  return `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
};
