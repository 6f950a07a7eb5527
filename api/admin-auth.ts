/** Operations endpoints answer only to `Authorization: Bearer $ADMIN_TOKEN`; with no token configured they do not exist. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { ApiError } from './errors.js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export function requireAdminToken(adminToken: string | undefined) {
  const expected = adminToken ? digest(adminToken) : undefined;
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!expected) throw new ApiError(404, 'Not found', `There is no API endpoint at ${ctx.method} ${ctx.path}.`);
    const given = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
    // Compared as digests so that neither the length nor the content leaks through timing.
    if (!given || !timingSafeEqual(digest(given), expected)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new ApiError(401, 'Unauthorized', 'This endpoint needs the operations token.');
    }
    await next();
  };
}
