// The Deno programs of the user documentation (code blocks marked `js deno` in README.md,
// pkg.template/README.md and docs/): each runs as a module in this Deno process (WebGPU with
// --unstable-webgpu; lavapipe on CPU machines), its `npm:oxjax` import pointed at the built
// package; it must print what its `// prints:` comments say and leave nothing alive.
import { memoryStats } from "../../pkg/index.js";

const root = new URL("../../", import.meta.url);

function markdownFiles(): string[] {
  const out = ["README.md", "pkg.template/README.md"];
  const walk = (dir: string) => {
    for (const e of [...Deno.readDirSync(new URL(dir, root))].sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      if (e.isDirectory) walk(`${dir}${e.name}/`);
      else if (e.name.endsWith(".md")) out.push(`${dir}${e.name}`);
    }
  };
  walk("docs/");
  return out;
}

interface Block {
  where: string;
  code: string;
}

function denoBlocks(): Block[] {
  const blocks: Block[] = [];
  for (const file of markdownFiles()) {
    const lines = Deno.readTextFileSync(new URL(file, root)).split("\n");
    let open: { line: number; code: string[]; deno: boolean } | null = null;
    lines.forEach((line, i) => {
      const fence = /^```(\S*)(.*)$/.exec(line);
      if (!fence) return void open?.code.push(line);
      if (open) {
        if (open.deno) blocks.push({ where: `${file}:${open.line}`, code: open.code.join("\n") });
        open = null;
      } else {
        open = { line: i + 1, code: [], deno: fence[1] === "js" && /^\s*deno\b/.test(fence[2]) };
      }
    });
  }
  return blocks;
}

const pkg = new URL("pkg/index.js", root).href;
const blocks = denoBlocks();

Deno.test("the documentation has Deno programs", () => {
  if (blocks.length === 0) throw new Error("no `js deno` block found");
});

for (const block of blocks) {
  Deno.test(`Deno program ${block.where}`, async () => {
    const code = block.code.replace(/(["'])npm:oxjax\1/g, JSON.stringify(pkg));
    const bytes = new TextEncoder().encode(code);
    const url = `data:text/javascript;base64,${btoa(String.fromCharCode(...bytes))}`;
    const expected = block.code
      .split("\n")
      .map((l) => /\/\/ prints: (.*)$/.exec(l)?.[1].trimEnd())
      .filter((l): l is string => l !== undefined);
    const printed: string[] = [];
    const log = console.log;
    const before = memoryStats().liveArrays;
    console.log = (...args: unknown[]) =>
      printed.push(
        ...args
          .map((a) => Deno.inspect(a))
          .join(" ")
          .split("\n"),
      );
    try {
      await import(url);
    } finally {
      console.log = log;
    }
    const same = JSON.stringify(printed) === JSON.stringify(expected);
    if (!same)
      throw new Error(
        `${block.where} printed ${JSON.stringify(printed)}, not ${JSON.stringify(expected)}`,
      );
    const leaked = memoryStats().liveArrays - before;
    if (leaked !== 0) throw new Error(`${block.where}: ${leaked} arrays leaked`);
  });
}
