/**
 * The sales page's sign-in. The operations token (ADMIN_TOKEN) is exchanged, through the same check and the same count
 * of wrong tokens as the Bearer header, for a session: a random token in a cookie that scripts cannot read
 * (HttpOnly), sent to the API alone (Path=/api), never from another site (SameSite=Strict), only over HTTPS when the
 * request came over HTTPS (directly or through a trusted proxy: Koa's ctx.secure), and expiring after a working day.
 * Only its SHA-256 is stored (admin_sessions), with a CSRF token: every change made with the cookie must carry it in
 * the X-CSRF-Token header, compared in constant time, or it is refused with 403.
 */
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { JSONSchemaType } from 'ajv';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { adminTokenCheck, checkBearer, digest, noAdminEndpoint, sameSecret, type AdminTokenCheck } from '../admin-auth.js';
import { readUnlessDatabaseDown, unlessDatabaseDown, type Db } from '../db.js';
import { ApiError } from '../errors.js';
import type { RateLimiter } from '../rate-limit.js';
import { validateBody } from '../validation.js';

export const SESSION_COOKIE = 'converge_admin';
export const CSRF_HEADER = 'X-CSRF-Token';
export const SESSION_HOURS = 8;

export interface SessionAnswer {
  csrfToken: string;
  expiresAt: string;
}

export interface SignIn {
  token: string;
}

export const signInSchema: JSONSchemaType<SignIn> = {
  type: 'object',
  additionalProperties: false,
  required: ['token'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 500, description: 'The operations token (ADMIN_TOKEN).' } },
};

interface SessionRow {
  csrf_token: string;
  expires_at: Date;
}

const hex = (value: string) => digest(value).toString('hex');
/** Ties a session to the operations token it was given for: a new ADMIN_TOKEN ends every session. */
const tokenDigest = (adminToken: string) => hex(`admin-session:${adminToken}`);

const SIGN_IN_REFUSAL = 'That is not the operations token.';
const signedOut = () => new ApiError(401, 'Unauthorized', 'Please sign in with the operations token.');
const csrfRefused = () => new ApiError(403, 'Forbidden', 'This change lacks the page\'s CSRF token. Reload the page and try again.');

export interface AdminSessionDeps {
  db: Db;
  logger: Logger;
  adminToken: string | undefined;
  adminLimiter: RateLimiter;
  now: () => Date;
}

export interface AdminAccess {
  /** The Bearer token (operators' scripts) or the session cookie (the sales page; changes need its CSRF token). */
  requireAdmin: (ctx: Context, next: Next) => Promise<void>;
  routes: Router;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function adminAccess(deps: AdminSessionDeps): AdminAccess {
  const check: AdminTokenCheck = adminTokenCheck(deps.adminToken, deps.adminLimiter);
  const currentDigest = deps.adminToken ? tokenDigest(deps.adminToken) : undefined;

  const sessionOf = async (ctx: Context): Promise<SessionRow | undefined> => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (!token || !currentDigest) return undefined;
    return readUnlessDatabaseDown(
      () =>
        deps.db('admin_sessions')
          .where({ id: hex(token), admin_token_digest: currentDigest })
          .where('expires_at', '>', deps.now())
          .first('csrf_token', 'expires_at') as Promise<SessionRow | undefined>,
      deps.logger,
      'admin session',
    );
  };

  const setCookie = (ctx: Context, value: string | null, expires?: Date) => {
    ctx.cookies.set(SESSION_COOKIE, value, {
      httpOnly: true,
      secure: ctx.secure,
      sameSite: 'strict',
      path: '/api',
      overwrite: true,
      ...(expires ? { expires } : {}),
    });
  };

  const requireAdmin = async (ctx: Context, next: Next): Promise<void> => {
    if (!deps.adminToken) throw noAdminEndpoint(ctx);
    if (ctx.get('Authorization') !== '' || !ctx.cookies.get(SESSION_COOKIE)) {
      await checkBearer(check, ctx);
      return next();
    }
    const session = await sessionOf(ctx);
    if (!session) {
      setCookie(ctx, null);
      throw signedOut();
    }
    if (!SAFE_METHODS.has(ctx.method)) {
      const given = ctx.get(CSRF_HEADER);
      if (given === '' || !sameSecret(given, session.csrf_token)) {
        (ctx.state.log as Logger).warn({ ip: ctx.ip }, 'admin change without its CSRF token');
        throw csrfRefused();
      }
    }
    await next();
  };

  const routes = new Router({ prefix: '/api/admin/session' });
  routes.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  routes.post('/', validateBody<SignIn>({ schema: signInSchema, messages: () => 'token must be text.', summary: 'Invalid sign-in' }), async (ctx) => {
    await check(ctx, ctx.state.body.token, SIGN_IN_REFUSAL);
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const now = deps.now();
    const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
    await unlessDatabaseDown(
      async () => {
        await deps.db('admin_sessions').where('expires_at', '<=', now).delete();
        await deps.db('admin_sessions').insert({ id: hex(token), csrf_token: csrfToken, admin_token_digest: currentDigest, expires_at: expiresAt });
      },
      deps.logger,
      'admin session not stored',
      'We could not sign you in right now. Please try again in a few minutes.',
    );
    setCookie(ctx, token, expiresAt);
    deps.logger.info({ ip: ctx.ip }, 'sales page signed in');
    ctx.status = 201;
    ctx.body = { csrfToken, expiresAt: expiresAt.toISOString() } satisfies SessionAnswer;
  });
  routes.get('/', async (ctx) => {
    const session = await sessionOf(ctx);
    if (!session) throw signedOut();
    ctx.body = { csrfToken: session.csrf_token, expiresAt: session.expires_at.toISOString() } satisfies SessionAnswer;
  });
  routes.delete('/', async (ctx) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const session = await sessionOf(ctx);
    if (!token || !session) throw signedOut();
    const given = ctx.get(CSRF_HEADER);
    if (given === '' || !sameSecret(given, session.csrf_token)) throw csrfRefused();
    await unlessDatabaseDown(() => deps.db('admin_sessions').where({ id: hex(token) }).delete(), deps.logger, 'admin session not removed', 'We could not sign you out right now. Please try again.');
    setCookie(ctx, null);
    ctx.status = 204;
  });
  return { requireAdmin, routes };
}
