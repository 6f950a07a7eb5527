/**
 * Per-client limits in Redis (fixed windows), so that nobody can make the site e-mail an address again and again.
 * Shared by every API process; when Redis is away the limit is not enforced rather than turning prospects away.
 */
import type { Context, Next } from 'koa';
import { createFailFastRedis, whenReady } from './redis.js';
import { ApiError } from './errors.js';

export interface RateLimiter {
  /** Counts one hit; null while Redis cannot be asked. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number } | null>;
  close(): Promise<void>;
}

export function createRateLimiter(redisUrl: string, prefix: string): RateLimiter {
  const redis = createFailFastRedis(redisUrl);
  return {
    async hit(key, windowMs) {
      // A connection still being made gets a moment; one that was lost is not waited for.
      if (redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end') return null;
      if (!(await whenReady(redis, 1000))) return null;
      const fullKey = `${prefix}:rate:${key}`;
      try {
        const results = await redis.multi().set(fullKey, 0, 'PX', windowMs, 'NX').incr(fullKey).pttl(fullKey).exec();
        const count = Number(results?.[1]?.[1]);
        const ttl = Number(results?.[2]?.[1]);
        return Number.isFinite(count) ? { count, resetInMs: ttl > 0 ? ttl : windowMs } : null;
      } catch {
        return null;
      }
    },
    async close() {
      redis.disconnect();
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

/** Passes everything through when there is no limiter (tests) or the limit is 0. */
export function rateLimit(limiter: RateLimiter | undefined, rule: LimitRule) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (limiter && rule.limit > 0) {
      const result = await limiter.hit(`${rule.name}:${ctx.ip}`, rule.windowMs);
      if (result && result.count > rule.limit) {
        const seconds = Math.ceil(result.resetInMs / 1000);
        ctx.set('Retry-After', String(seconds));
        throw new ApiError(429, 'Too many requests', rule.details(Math.max(1, Math.ceil(seconds / 60))));
      }
    }
    await next();
  };
}
