// Bundles tests/vite/ as a user app would, with "oxjax" resolved to the built package.
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default {
  root: here("."),
  base: "./",
  logLevel: "warn",
  resolve: { alias: { oxjax: here("../../pkg/index.js") } },
  build: { outDir: here("../../artifacts/vite-dist"), emptyOutDir: true, target: "es2022" },
};
