/**
 * Per-client limits (fixed windows), so that nobody can make the site e-mail an address again and again. Counted by
 * rate-limiter-flexible in Redis, shared by every API process; while Redis cannot be asked each process counts in its
 * own memory (the library's insurance limiter), so the limits still hold (per process) instead of falling away.
 */
import type { Context, Next } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createFailFastRedis, whenReady } from './redis.js';
import { TooManyRequestsError } from './errors.js';
import { clientKeyOf } from './client-network.js';

export interface LimitRule {
  /** The counter's name: rules of one name share their counts. */
  name: string;
  /** Hits allowed per window and client; 0 turns the rule off. */
  limit: number;
  windowMs: number;
  details: (retryInMinutes: number) => string;
}

/** What a rule's counter is made of. */
type CountedRule = Pick<LimitRule, 'name' | 'limit' | 'windowMs'>;

/** A rule's counts per client key, as rate-limiter-flexible keeps them. */
export type RuleCounter = Pick<RateLimiterAbstract, 'consume' | 'get'>;

/** The API's rate limiter: one counter per rule name. */
export interface RateLimiter {
  of(rule: CountedRule): RuleCounter;
  close(): Promise<void>;
}

const inMemory = (rule: CountedRule) =>
  new RateLimiterMemory({ keyPrefix: rule.name, points: rule.limit, duration: rule.windowMs / 1000 });

function limiterOf(counterOf: (rule: CountedRule) => RuleCounter, close: () => Promise<void>): RateLimiter {
  // One counter per name, so that a name's counts in memory are kept in one place, as they are in Redis.
  const counters = new Map<string, RuleCounter>();
  return {
    of(rule) {
      let counter = counters.get(rule.name);
      if (!counter) {
        counter = counterOf(rule);
        counters.set(rule.name, counter);
      }
      return counter;
    },
    close,
  };
}

/** Counts in this process's memory (each key forgotten when its window ends). */
export function createMemoryLimiter(): RateLimiter {
  return limiterOf(inMemory, async () => {});
}

/** Counts in Redis under `${prefix}:rate:`; in this process's memory while Redis cannot be asked. */
export async function createRateLimiter(redisUrl: string, prefix: string): Promise<RateLimiter> {
  const redis = createFailFastRedis(redisUrl);
  // A connection still being made gets a moment, so that the first requests are counted where the next ones are.
  await whenReady(redis, 1000);
  return limiterOf(
    (rule) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:rate:${rule.name}`,
        points: rule.limit,
        duration: rule.windowMs / 1000,
        // A connection that was lost is not waited for: the insurance counts at once.
        rejectIfRedisNotReady: true,
        insuranceLimiter: inMemory(rule),
      }),
    async () => {
      redis.disconnect();
    },
  );
}

/** The limits the API applies, with the limiter that counts them. */
export interface RequestLimits {
  limiter: RateLimiter;
  demoRequestsPerHour: number;
  emailChecksPerMinute: number;
}

/**
 * Counts one hit of `key` against the rule; past the limit (the hit counted too) throws the 429, its message naming
 * the minutes left and its Retry-After the seconds. The library refuses with a RateLimiterRes; anything else it throws
 * is an error.
 */
export async function countOrRefuse(counter: RuleCounter, key: string, rule: LimitRule): Promise<void> {
  try {
    await counter.consume(key);
  } catch (refused) {
    if (!(refused instanceof RateLimiterRes)) throw refused;
    const resetInMs = refused.msBeforeNext;
    throw new TooManyRequestsError(rule.details(Math.max(1, Math.ceil(resetInMs / 60_000))), resetInMs);
  }
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
  const counter = limiter.of(rule);
  return async (ctx, next) => {
    await countOrRefuse(counter, clientKeyOf(ctx), rule);
    await next();
  };
}
