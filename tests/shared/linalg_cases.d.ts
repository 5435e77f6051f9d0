export function linalgLabel(c: unknown, i: number): string;
export function resolve(ox: unknown, path: string): unknown;
export function runLinalgCase(
  ox: unknown,
  c: unknown,
  device: string,
  runOpts?: { jit?: boolean },
): Promise<void>;
