// The import map the package README documents for code written against upstream: in a page
// whose import map sends "@jax-js/jax" to oxjax's consuming entry, that code runs with
// upstream's ownership (arguments consumed, `.ref` to keep one) and frees everything.
import { expect, test } from "@playwright/test";

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <link rel="icon" href="data:," />
    <script type="importmap">{ "imports": { "@jax-js/jax": "/pkg/consuming/index.js" } }</script>
  </head>
  <body>
    <p id="out">pending</p>
    <script type="module">
      import { numpy as np, jit, memoryStats } from "@jax-js/jax";
      const x = np.arange(4).astype(np.float32);
      const y = x.ref.add(x); // x + x
      const f = jit((a) => a.ref.mul(a).sum());
      const total = await f(y).jsAsync();
      f.dispose();
      document.getElementById("out").textContent = JSON.stringify({
        total,
        xFreed: x.refCount === 0,
        yFreed: y.refCount === 0,
        live: memoryStats().liveArrays,
      });
    </script>
  </body>
</html>`;

test("an import map sends @jax-js/jax to oxjax/consuming", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/tests/browser/blank.html");
  await page.setContent(PAGE);
  const out = page.locator("#out");
  await expect(out).not.toHaveText("pending");
  expect(JSON.parse((await out.textContent()) ?? "")).toEqual({
    total: 56,
    xFreed: true,
    yFreed: true,
    live: 0,
  });
  expect(errors).toEqual([]);
});
