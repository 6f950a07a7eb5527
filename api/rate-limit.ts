/**
 * Per-client limits (fixed windows), so that nobody can make the site e-mail an address again and again.
 * Counted in Redis, shared by every API process; while Redis is away each process counts on its own, so the
 * limits still hold (per process) instead of falling away.
 */
import type { Context, Next } from 'koa';
import { createFailFastRedis, whenReady } from './redis.js';
import { TooManyRequestsError } from './errors.js';
import { clientKeyOf } from './client-network.js';

export interface RateLimitHit {
  count: number;
  resetInMs: number;
}

export interface RateLimiter {
  /** Counts one hit against the key's window. */
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** The key's count in its current window, without counting. */
  peek(key: string): Promise<number>;
  close(): Promise<void>;
}

/** More keys than this and the oldest windows are forgotten first: a flood of forged keys cannot exhaust memory. */
const MEMORY_MAX_KEYS = 100_000;

/** Fixed windows in this process's memory. */
export function createMemoryLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const forgetExpired = (at: number) => {
    for (const [key, window] of windows) if (window.resetAt <= at) windows.delete(key);
  };
  return {
    async hit(key, windowMs) {
      const at = now();
      let window = windows.get(key);
      if (!window || window.resetAt <= at) {
        if (windows.size >= MEMORY_MAX_KEYS) {
          forgetExpired(at);
          // Still full: drop the oldest entries (a Map iterates in insertion order).
          for (const oldest of windows.keys()) {
            if (windows.size < MEMORY_MAX_KEYS) break;
            windows.delete(oldest);
          }
        }
        windows.delete(key);
        window = { count: 0, resetAt: at + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, resetInMs: window.resetAt - at };
    },
    async peek(key) {
      const window = windows.get(key);
      return window && window.resetAt > now() ? window.count : 0;
    },
    async close() {
      windows.clear();
    },
  };
}

/** Redis first; this process's memory while Redis cannot be asked. */
export function createRateLimiter(redisUrl: string, prefix: string): RateLimiter {
  const redis = createFailFastRedis(redisUrl);
  const fallback = createMemoryLimiter();
  // A connection still being made gets a moment; one that was lost is not waited for.
  const usable = async () =>
    redis.status !== 'reconnecting' &&
    redis.status !== 'close' &&
    redis.status !== 'end' &&
    (await whenReady(redis, 1000));
  const inRedis = async (key: string, windowMs: number): Promise<RateLimitHit | null> => {
    if (!(await usable())) return null;
    const fullKey = `${prefix}:rate:${key}`;
    try {
      const results = await redis.multi().set(fullKey, 0, 'PX', windowMs, 'NX').incr(fullKey).pttl(fullKey).exec();
      const count = Number(results?.[1]?.[1]);
      const ttl = Number(results?.[2]?.[1]);
      return Number.isFinite(count) ? { count, resetInMs: ttl > 0 ? ttl : windowMs } : null;
    } catch {
      return null;
    }
  };
  return {
    async hit(key, windowMs) {
      return (await inRedis(key, windowMs)) ?? fallback.hit(key, windowMs);
    },
    async peek(key) {
      const counted = (await usable()) ? await redis.get(`${prefix}:rate:${key}`).catch(() => null) : null;
      return counted === null ? fallback.peek(key) : Number(counted);
    },
    async close() {
      redis.disconnect();
      await fallback.close();
    },
  };
}

/** The limits the API applies, with the limiter that counts them. */
export interface RequestLimits {
  limiter: RateLimiter;
  demoRequestsPerHour: number;
  emailChecksPerMinute: number;
}

export interface LimitRule {
  name: string;
  /** Hits allowed per window and client; 0 turns the rule off. */
  limit: number;
  windowMs: number;
  details: (retryInMinutes: number) => string;
}

/** The 429 for a window that resets in `resetInMs`, its message naming the minutes left. */
export function tooManyRequests(resetInMs: number, details: (retryInMinutes: number) => string): TooManyRequestsError {
  return new TooManyRequestsError(details(Math.max(1, Math.ceil(resetInMs / 60_000))), resetInMs);
}

/**
 * Counts the request against its client's window (its address, an IPv6 client's /64: clientKeyOf) and refuses it
 * past the limit; 0 or no limiter: no limit.
 */
export function rateLimit(
  limiter: RateLimiter | undefined,
  rule: LimitRule,
): (ctx: Context, next: Next) => Promise<void> {
  // Decided once, as the rule is fixed: a rule that is off costs a request no more than the call to what follows.
  if (!limiter || rule.limit <= 0) return (_ctx, next) => next();
  return async (ctx, next) => {
    const result = await limiter.hit(`${rule.name}:${clientKeyOf(ctx)}`, rule.windowMs);
    if (result.count > rule.limit) throw tooManyRequests(result.resetInMs, rule.details);
    await next();
  };
}
