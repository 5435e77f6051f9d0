// The REPL: every preset runs on wasm (and the numeric ones on webgpu) and prints values
// checked against JavaScript's float64 Math; errors in user code are shown, not thrown.
import { expect, test, type Page } from "@playwright/test";
import { expectResponsive, openDemo, waitDone } from "./demo-helpers";

/** Runs preset `i` (loaded from the URL) and returns the output's lines. */
async function runPreset(page: Page, device: string, i: number): Promise<string[]> {
  const demo = await openDemo(page, `/www/repl/?device=${device}&preset=${i}`);
  await waitDone(page, 30_000);
  expect(demo.errors).toEqual([]);
  await expectResponsive(demo);
  await expect(page.locator("#output")).not.toHaveClass("error");
  return ((await page.locator("#output").textContent()) ?? "").split("\n");
}

/** The array printed after `label` on its line. */
function printed(lines: string[], label: string, index = 0): unknown {
  const line = lines.find((l) => l.startsWith(label));
  if (!line)
    throw new Error(`no line starting with ${JSON.stringify(label)} in:\n${lines.join("\n")}`);
  const values = line
    .slice(label.length)
    .split(/ \([a-z0-9]+\[[\d,]*\] on \w+\)/)
    .map((v) => v.trim())
    .filter((v) => v !== "")
    .map((v) => JSON.parse(v.replace(/^[^[\d-]*/, "")));
  return values[index];
}

const close = (got: unknown, want: number[], tol = 1e-5) => {
  expect(got).toHaveLength(want.length);
  (got as number[]).forEach((v, i) =>
    expect(Math.abs(v - want[i])).toBeLessThan(tol * Math.max(1, Math.abs(want[i]))),
  );
};

for (const device of ["wasm", "webgpu"]) {
  test(`REPL presets on ${device}`, async ({ page }) => {
    let lines = await runPreset(page, device, 0);
    expect(printed(lines, "x + y =")).toEqual([
      [11, 22, 33],
      [14, 25, 36],
    ]);
    expect(printed(lines, "column sums =")).toEqual([5, 7, 9]);
    expect(printed(lines, "x @ x.T =")).toEqual([
      [14, 32],
      [32, 77],
    ]);
    close([printed(lines, "mean, std =", 1) as number], [Math.sqrt(35 / 12)]);

    lines = await runPreset(page, device, 1);
    close(
      printed(lines, "f'(0, 1, 2) ="),
      [0, 1, 2].map((x) => Math.sin(x) + x * Math.cos(x)),
    );
    expect(printed(lines, "(x³)'' at 3 =")).toEqual([18]);
    expect(printed(lines, "|p|² and its gradient =", 1)).toEqual([6, 8]);

    lines = await runPreset(page, device, 3);
    const want = [0, 1, 2, 3].map((x) => Math.exp(-x) * Math.cos(x));
    close(printed(lines, "f(xs) ="), want);
    close(printed(lines, "jit(f)(xs) ="), want);
    expect(printed(lines, "vmap(row sums) =")).toEqual([3, 12]);
    await page.screenshot({ path: `artifacts/repl-${device}.png`, fullPage: true });
  });
}

test("REPL: Jaxprs, a training loop, and an error in user code (wasm)", async ({ page }) => {
  let lines = await runPreset(page, "wasm", 2);
  const text = lines.join("\n");
  expect(text).toMatch(/mul a b/);
  expect(text).toMatch(/tanh/);
  expect(text.match(/\{ lambda/g)).toHaveLength(2);

  lines = await runPreset(page, "wasm", 4);
  close(printed(lines, "slope, intercept ="), [3, 1], 1e-3);

  await page.locator("#code").fill("print(np.array([1, 2]).add(undefinedName));");
  await page.locator("#run").click();
  await expect(page.locator("#output")).toHaveText(/ReferenceError: undefinedName is not defined/);
  await expect(page.locator("#output")).toHaveClass("error");
});

test("REPL: a busy loop in user code leaves the page responsive; one on the page is caught", async ({
  page,
}) => {
  const demo = await openDemo(page, "/www/repl/?device=wasm");
  await waitDone(page, 30_000);
  await page
    .locator("#code")
    .fill("const t0 = performance.now();\nwhile (performance.now() - t0 < 600) {}\nprint('spun');");
  await page.locator("#run").click();
  await expect(page.locator("#output")).toHaveText("spun", { timeout: 30_000 });
  await expectResponsive(demo); // the code ran in the worker
  // The same loop on the page's own thread is a long task that the check sees.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          const t0 = performance.now();
          while (performance.now() - t0 < 600);
          resolve();
        }),
      ),
  );
  expect(Math.max(...(await demo.longTasks()))).toBeGreaterThanOrEqual(600);
  expect(demo.errors).toEqual([]);
});
