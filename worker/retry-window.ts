/**
 * When a failed webhook delivery is tried again: the wait doubles from the first delay up to a ceiling, with up to a
 * quarter more at random (so that receivers coming back from an outage are not hit by every delivery at once), and
 * never sooner than the receiver's Retry-After. Tries go on while the run of failures is younger than the window
 * (24 hours unless told): the last try comes at or after its end, and only then is the delivery given up on, its
 * endpoint marked failing, and its events kept for a replay.
 */
export interface RetrySchedule {
  firstDelayMs: number;
  maxDelayMs: number;
  windowMs: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  firstDelayMs: 10_000,
  maxDelayMs: 3_600_000,
  windowMs: 24 * 3_600_000,
};

/** The jitter's share: a wait is its nominal length plus up to this much more. */
const JITTER = 0.25;

/** The wait after the `failures`-th failed try in a row (1 for the first), before the receiver's Retry-After. */
export function retryDelayMs(failures: number, schedule: RetrySchedule, random: () => number = Math.random): number {
  const nominal = Math.min(schedule.firstDelayMs * 2 ** Math.max(0, failures - 1), schedule.maxDelayMs);
  return Math.round(nominal * (1 + JITTER * random()));
}

export type NextTry = { at: number } | { exhausted: true };

/**
 * What follows a failed try made at `now`: the next try's time, or the end of the tries when the run of failures
 * began (`failingSince`) a whole window ago. A Retry-After longer than the backoff is honoured (up to the window).
 */
export function nextTry(
  failures: number,
  failingSince: number,
  now: number,
  schedule: RetrySchedule,
  retryAfterMs?: number,
  random: () => number = Math.random,
): NextTry {
  if (now - failingSince >= schedule.windowMs) return { exhausted: true };
  const wait = Math.max(retryDelayMs(failures, schedule, random), Math.min(retryAfterMs ?? 0, schedule.windowMs));
  return { at: now + wait };
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** How many tries (the first and its retries) a schedule makes before giving up, at the least (no jitter, no Retry-After). */
export function triesWithin(schedule: RetrySchedule): number {
  let elapsed = 0;
  let failures = 1;
  while (elapsed < schedule.windowMs)
    elapsed += Math.min(schedule.firstDelayMs * 2 ** (failures++ - 1), schedule.maxDelayMs);
  return failures;
}
