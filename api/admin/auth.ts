/**
 * Operations endpoints answer only to `Authorization: Bearer $ADMIN_TOKEN`; with no token configured they do not
 * exist. A client that keeps sending wrong tokens is held off for a while, but the right token always passes. The sales
 * page signs in with the same token (sessions.ts), through the same check and the same count of wrong tokens.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { ApiError } from '../errors.js';
import { countOrRefuse, type LimitRule, type RateLimiter } from '../rate-limit.js';
import { clientKeyOf } from '../client-network.js';

export const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Whether two secrets are equal, compared as digests so that neither the length nor the content leaks through timing. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

const ADMIN_FAILURES: LimitRule = {
  name: 'admin-failures',
  limit: 10,
  windowMs: 15 * 60_000,
  details: (minutes) =>
    `Too many wrong operations tokens from your network. Please try again in about ${minutes} minutes.`,
};

export const noAdminEndpoint = (ctx: Context) =>
  new ApiError(404, 'Not found', `There is no API endpoint at ${ctx.method} ${ctx.path}.`);

/**
 * Checks a token given for the operations token: passes, or throws 404 (no token configured), 429 (a wrong one, after
 * too many from the client's network: an IPv4 address or an IPv6 /64) or 401 (wrong, and counted).
 */
export type AdminTokenCheck = (ctx: Context, given: string | undefined, refusal: string) => Promise<void>;

export function adminTokenCheck(adminToken: string | undefined, limiter: RateLimiter): AdminTokenCheck {
  const expected = adminToken ? digest(adminToken) : undefined;
  const failures = limiter.of(ADMIN_FAILURES);
  return async (ctx, given, refusal) => {
    if (!expected) throw noAdminEndpoint(ctx);
    // The right token passes first, whatever its network sent before: the operator behind an office's shared address
    // is not locked out by a colleague's typos or a stranger's guesses. The count does not guard the token (a long
    // random secret, config.ts: no amount of guessing finds it); it keeps guessing cheap for us: a held-off guess costs
    // a count and no log line, besides the digest compared first. The right token resets nothing, so signing in does
    // not open a new run of guesses.
    if (given && timingSafeEqual(digest(given), expected)) return;
    // Counted per network (an IPv6 client's /64), as the other per-client limits are; past the limit, a 429.
    await countOrRefuse(failures, clientKeyOf(ctx), ADMIN_FAILURES);
    (ctx.state.log as Logger).warn({ ip: ctx.ip }, 'wrong operations token');
    throw new ApiError(401, 'Unauthorized', refusal);
  };
}

/** The token of an `Authorization: Bearer …` header, or undefined. */
export const bearerOf = (ctx: Context): string | undefined => /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];

export const BEARER_REFUSAL = 'This endpoint needs the operations token.';

/** Checks the request's bearer token; a wrong one is answered 401 with `WWW-Authenticate: Bearer`. */
export async function checkBearer(check: AdminTokenCheck, ctx: Context): Promise<void> {
  try {
    await check(ctx, bearerOf(ctx), BEARER_REFUSAL);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) ctx.set('WWW-Authenticate', 'Bearer');
    throw err;
  }
}

export function requireAdminToken(adminToken: string | undefined, limiter: RateLimiter) {
  const check = adminTokenCheck(adminToken, limiter);
  return async (ctx: Context, next: Next): Promise<void> => {
    await checkBearer(check, ctx);
    await next();
  };
}
