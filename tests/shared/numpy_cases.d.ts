// Types of numpy_cases.mjs for the Deno test (which type-checks nothing, but resolves them).
export function caseLabel(c: unknown, i: number): string;
export function runCase(
  ox: unknown,
  c: unknown,
  device: string,
  opts?: { jit?: boolean },
): Promise<void>;
