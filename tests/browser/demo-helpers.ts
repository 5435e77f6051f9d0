// Shared by the demo specs: open a page with console errors and long tasks recorded, wait for
// the demo to finish, read numbers shown on the page, and check responsiveness.
import { cpus, loadavg } from "node:os";
import { expect, test, type Page } from "@playwright/test";

export interface Demo {
  errors: string[];
  /**
   * Long tasks (ms) that started once the demo was warm (`window.demo.runStart`, set by the page
   * after its first steps: kernels compile synchronously on first use) and before a final
   * one-off part such as a comparison (`window.demo.runEnd`, where the page sets one).
   */
  longTasksDuringRun(): Promise<number[]>;
}

export async function openDemo(page: Page, path: string): Promise<Demo> {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: [number, number][] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  });
  await page.goto(path);
  return {
    errors,
    longTasksDuringRun: () =>
      page.evaluate(() => {
        const w = window as unknown as {
          __longTasks: [number, number][];
          demo: { runStart: number; runEnd?: number };
        };
        const end = w.demo.runEnd ?? Infinity;
        return w.__longTasks.filter(([t]) => t >= w.demo.runStart && t < end).map(([, d]) => d);
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
 * No task over 200 ms while the demo ran (the pages yield between steps): at most one outlier
 * up to 400 ms. Timing means nothing on an overloaded host (load average over twice its cores,
 * as when several engineers share a 2-core machine), so there the check is skipped and says so.
 */
export async function expectResponsive(demo: Demo): Promise<void> {
  const long = await demo.longTasksDuringRun();
  const load = loadavg()[0];
  if (load > 2 * cpus().length) {
    test.info().annotations.push({
      type: "skipped check",
      description: `responsiveness not measured: load average ${load.toFixed(1)} on ${cpus().length} cores`,
    });
    return;
  }
  const message = `long tasks while running: ${long.map(Math.round)}`;
  expect(long.filter((d) => d >= 200).length, message).toBeLessThanOrEqual(1);
  expect(Math.max(0, ...long), message).toBeLessThan(400);
}
