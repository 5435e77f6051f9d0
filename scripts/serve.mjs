#!/usr/bin/env node
// Serves the repository over http://localhost (a secure context, which WebGPU needs): the
// demos in www/ import the built package from /pkg/. Every response carries COOP/COEP, so pages
// are crossOriginIsolated and the wasm device runs large kernels on its worker pool (shared
// memory needs isolation). Usage: node scripts/serve.mjs [--port N]
import { createServer } from "node:http";
import { createReadStream, statSync } from "node:fs";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const portArg = process.argv.indexOf("--port");
const port = Number(portArg >= 0 ? process.argv[portArg + 1] : (process.env.PORT ?? 8080));
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".csv": "text/csv",
  ".ts": "text/plain; charset=utf-8",
};

/** The headers that make a page crossOriginIsolated (every resource here is same-origin). */
const ISOLATION = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
};

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === "/") {
    res.writeHead(302, { location: "/www/" });
    res.end();
    return;
  }
  let path = normalize(join(root, decodeURIComponent(url.pathname)));
  if (!path.startsWith(root + sep) || path.includes(`${sep}.git`)) {
    res.writeHead(403).end("forbidden");
    return;
  }
  try {
    if (statSync(path).isDirectory()) path = join(path, "index.html");
    statSync(path);
  } catch {
    res.writeHead(404).end("not found");
    return;
  }
  res.writeHead(200, {
    "content-type": types[extname(path)] ?? "application/octet-stream",
    "cache-control": "no-store",
    ...ISOLATION,
  });
  createReadStream(path).pipe(res);
});

server.listen(port, "127.0.0.1", () => {
  console.log(`oxjax demos: http://localhost:${port}/www/`);
});
