/** What a program's settings loader reads, for the tests of the files that configure it (compose, Kubernetes). */
import type { Env } from '../server-shared/settings.js';

/** The settings the programs refuse to start without, with a value each accepts. */
export const REQUIRED_SETTINGS: Env = { BOOKING_LINK_SECRET: 'x'.repeat(64) };

/**
 * The names a config loader reads, found by handing it an environment that records every look-up. It answers the
 * required settings (so that the loader goes on to read the rest) and nothing else.
 */
export function variablesRead(load: (env: Env) => unknown): string[] {
  const read = new Set<string>();
  load(
    new Proxy({} as Env, {
      get(_target, name) {
        if (typeof name !== 'string') return undefined;
        read.add(name);
        return REQUIRED_SETTINGS[name];
      },
    }),
  );
  return [...read].sort();
}
