// Shared by the demo specs: open a page with console errors and the main thread's long tasks
// recorded, wait for the demo to finish, read numbers shown on the page, and check that the
// page stayed responsive.
import { expect, test, type Page } from "@playwright/test";

export interface Demo {
  errors: string[];
  /**
   * Durations (ms) of the main thread's long tasks (over 50 ms, as Chromium reports them) since
   * the page was opened: its load, the worker's start-up and compiles, and the whole run.
   */
  longTasks(): Promise<number[]>;
}

export async function openDemo(page: Page, path: string): Promise<Demo> {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks?: number[] };
    if (w.__longTasks) return; // a page opened twice in one test has this script twice
    const tasks: number[] = (w.__longTasks = []);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push(e.duration);
    }).observe({ type: "longtask", buffered: true });
  });
  await page.goto(path);
  return {
    errors,
    longTasks: () =>
      page.evaluate(async () => {
        // Entries reach the observer after their task: let the last ones arrive.
        await new Promise((resolve) => setTimeout(resolve, 100));
        return (window as unknown as { __longTasks: number[] }).__longTasks.slice();
      }),
  };
}

/** Waits until the page says `data-status="done"` (failing fast on "error"). */
export async function waitDone(page: Page, timeout: number): Promise<void> {
  await expect(page.locator("body")).toHaveAttribute("data-status", /done|error/, { timeout });
  const status = await page.locator("body").getAttribute("data-status");
  if (status !== "done")
    throw new Error(`demo failed: ${await page.locator("#status").textContent()}`);
}

/** A number shown in the element `#id` ("15,098.5 ms" → 15098.5). */
export async function shown(page: Page, id: string): Promise<number> {
  const text = (await page.locator(`#${id}`).textContent()) ?? "";
  const value = Number.parseFloat(text.replace(/,/g, ""));
  if (!Number.isFinite(value)) throw new Error(`#${id} shows no number: ${JSON.stringify(text)}`);
  return value;
}

/** The page's `window.demo` state. */
export function demoState<T = Record<string, unknown>>(page: Page): Promise<T> {
  return page.evaluate(() => (window as unknown as { demo: T }).demo);
}

/**
 * No task over 200 ms on the page's main thread from the moment it opened until now: oxjax runs
 * in the page's worker, so the page only draws what the worker posts. No allowance for load.
 */
export async function expectResponsive(demo: Demo): Promise<void> {
  const long = await demo.longTasks();
  test.info().annotations.push({
    type: "main-thread long tasks (ms)",
    description: long.length ? long.map(Math.round).join(", ") : "none",
  });
  expect(
    long.filter((d) => d >= 200),
    `long tasks: ${long.map(Math.round)} ms`,
  ).toEqual([]);
}
