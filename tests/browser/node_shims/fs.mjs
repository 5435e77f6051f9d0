// A browser stand-in for the `readFileSync(url, "utf8")` of `node:fs` that tests/api/ uses to
// load its checked-in oracle data: a synchronous request to the test server.
export function readFileSync(url, encoding) {
  if (encoding !== "utf8") throw new Error("readFileSync shim: only utf8 text is supported");
  const request = new XMLHttpRequest();
  request.open("GET", String(url), false);
  request.send();
  if (request.status !== 200) throw new Error(`readFileSync ${url}: HTTP ${request.status}`);
  return request.responseText;
}
