/** Waiting with deadlines, and printing figures for BENCHMARKS.md. */

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns true; fails naming `what` (and the last state `describe` gives) when the time is up. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  options: { everyMs?: number; describe?: () => Promise<string> | string } = {},
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      const state = options.describe ? ` (${await options.describe()})` : '';
      throw new Error(`${what}: not reached within ${timeoutMs} ms${state}`);
    }
    await delay(options.everyMs ?? 200);
  }
}

/** One line of figures per scenario, on stdout, in a form that can be pasted into BENCHMARKS.md. */
export function printFigures(scenario: string, figures: Record<string, string | number | boolean>): void {
  const parts = Object.entries(figures).map(([key, value]) => `${key}=${String(value)}`);
  process.stdout.write(`      [figures] ${scenario}: ${parts.join(', ')}\n`);
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
