// Bundles tests/vite/ as a user app would, with "oxjax" resolved to the built package and
// "@jax-js/jax" to its consuming entry, as the package README documents for code written
// against upstream (here `@jax-js/onnx`, bundled from node_modules).
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default {
  root: here("."),
  base: "./",
  logLevel: "warn",
  resolve: {
    alias: {
      oxjax: here("../../pkg/index.js"),
      "@jax-js/jax": here("../../pkg/consuming/index.js"),
    },
  },
  build: { outDir: here("../../artifacts/vite-dist"), emptyOutDir: true, target: "es2022" },
};
