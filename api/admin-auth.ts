/**
 * Operations endpoints answer only to `Authorization: Bearer $ADMIN_TOKEN`; with no token configured they do not
 * exist. A client that keeps sending wrong tokens is held off for a while, the right token included.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { ApiError } from './errors.js';
import { tooManyRequests, type RateLimiter } from './rate-limit.js';
import { clientKeyOf } from './client-network.js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

const ADMIN_FAILURES_ALLOWED = 10;
const ADMIN_FAILURE_WINDOW_MS = 15 * 60_000;
const retryLater = (minutes: number) => `Too many wrong operations tokens from your network. Please try again in about ${minutes} minutes.`;

export function requireAdminToken(adminToken: string | undefined, limiter: RateLimiter) {
  const expected = adminToken ? digest(adminToken) : undefined;
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!expected) throw new ApiError(404, 'Not found', `There is no API endpoint at ${ctx.method} ${ctx.path}.`);
    // Counted per network (an IPv6 client's /64), as the other per-client limits are.
    const failuresKey = `admin-failures:${clientKeyOf(ctx)}`;
    if ((await limiter.peek(failuresKey)) >= ADMIN_FAILURES_ALLOWED) {
      // Counted as well: the hit tells when the window ends, for Retry-After.
      throw tooManyRequests((await limiter.hit(failuresKey, ADMIN_FAILURE_WINDOW_MS)).resetInMs, retryLater);
    }
    const given = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
    // Compared as digests so that neither the length nor the content leaks through timing.
    if (!given || !timingSafeEqual(digest(given), expected)) {
      await limiter.hit(failuresKey, ADMIN_FAILURE_WINDOW_MS);
      (ctx.state.log as Logger).warn({ ip: ctx.ip }, 'wrong operations token');
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new ApiError(401, 'Unauthorized', 'This endpoint needs the operations token.');
    }
    await next();
  };
}
