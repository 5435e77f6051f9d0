// Browser tests: Playwright drives Debian's Chromium (never a downloaded browser) with
// SwiftShader WebGPU, against the demo server on localhost.
import { defineConfig } from "@playwright/test";

const port = Number(process.env.OXJAX_TEST_PORT ?? 8787);

export default defineConfig({
  testDir: "tests/browser",
  outputDir: "artifacts/playwright",
  timeout: 60_000,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--enable-unsafe-webgpu",
        "--enable-unsafe-swiftshader",
        "--use-angle=swiftshader",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: `node scripts/serve.mjs --port ${port}`,
    url: `http://localhost:${port}/www/`,
    reuseExistingServer: false,
  },
});
