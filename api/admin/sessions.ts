/**
 * The sales page's sign-in. The operations token (ADMIN_TOKEN) is exchanged, through the same check and the same count
 * of wrong tokens as the Bearer header, for a session: a random token in a cookie that scripts cannot read
 * (HttpOnly), sent to the API alone (Path=/api), never from another site (SameSite=Strict), only over HTTPS when the
 * request came over HTTPS (directly or through a trusted proxy: Koa's ctx.secure), and expiring after a working day.
 * Only its SHA-256 is stored (admin_sessions), with a CSRF token: every change made with the cookie must carry it in
 * the X-CSRF-Token header, compared in constant time, or it is refused with 403. Every change made with the cookie,
 * signing in and out included, must also come from the site itself (sameSiteOnly), or it is refused with 403 too.
 */
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { JSONSchemaType } from 'ajv';
import type * as oas from 'openapi3-ts/oas31';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { adminTokenCheck, checkBearer, digest, noAdminEndpoint, sameSecret, type AdminTokenCheck } from './auth.js';
import { readUnlessDatabaseDown, unlessDatabaseDown, type Db } from '../db.js';
import { ApiError } from '../errors.js';
import { fromAnotherSite } from '../same-site.js';
import type { RateLimiter } from '../rate-limit.js';
import { validateBody } from '../validation.js';
import { answer, bodyRefusals, json, refused, tooMany, unreadable, type OpenApiPart } from '../openapi-parts.js';

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
  properties: {
    token: { type: 'string', minLength: 1, maxLength: 500, description: 'The operations token (ADMIN_TOKEN).' },
  },
};

/** The answer to a sign-in and to a read of the session. */
const sessionSchema: JSONSchemaType<SessionAnswer> = {
  type: 'object',
  additionalProperties: false,
  required: ['csrfToken', 'expiresAt'],
  properties: {
    csrfToken: {
      type: 'string',
      description: `Send it as ${CSRF_HEADER} with every change made with the session cookie.`,
    },
    expiresAt: {
      type: 'string',
      format: 'date-time',
      description: `When the session ends (${SESSION_HOURS} hours after signing in).`,
    },
  },
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
const csrfRefused = () =>
  new ApiError(403, 'Forbidden', "This change lacks the page's CSRF token. Reload the page and try again.");
const crossSiteRefused = () =>
  new ApiError(
    403,
    'Forbidden',
    'This request came from another site, so it was refused. Open the sales page at its own address and try again.',
  );

/**
 * Refuses (403) a request that a page of another site made the browser send (fromAnotherSite): a second lock behind
 * SameSite=Strict and the CSRF token, for a browser that sends the cookie anyway or a token that got out.
 */
function sameSiteOnly(ctx: Context, publicOrigin: string): void {
  const elsewhere = fromAnotherSite(ctx, publicOrigin);
  if (!elsewhere) return;
  (ctx.state.log as Logger).warn({ ip: ctx.ip, ...elsewhere }, 'admin change from another site refused');
  throw crossSiteRefused();
}

export interface AdminSessionDeps {
  db: Db;
  logger: Logger;
  adminToken: string | undefined;
  adminLimiter: RateLimiter;
  /** PUBLIC_URL: its origin is the site's own, besides the one a request reached the API by. */
  publicUrl: string;
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
  const publicOrigin = new URL(deps.publicUrl).origin;

  const sessionOf = async (ctx: Context): Promise<SessionRow | undefined> => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (!token || !currentDigest) return undefined;
    return readUnlessDatabaseDown(
      () =>
        deps
          .db('admin_sessions')
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
    // Before the session is read: a request from another site costs no database read.
    if (!SAFE_METHODS.has(ctx.method)) sameSiteOnly(ctx, publicOrigin);
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
  // Signing in or out from another site is refused first: a token sent so is neither looked at nor counted as wrong.
  const fromThisSite = (ctx: Context, next: Next) => {
    sameSiteOnly(ctx, publicOrigin);
    return next();
  };
  routes.post(
    '/',
    fromThisSite,
    validateBody<SignIn>({ schema: signInSchema, messages: () => 'token must be text.', summary: 'Invalid sign-in' }),
    async (ctx) => {
      await check(ctx, ctx.state.body.token, SIGN_IN_REFUSAL);
      const token = randomBytes(32).toString('base64url');
      const csrfToken = randomBytes(32).toString('base64url');
      const now = deps.now();
      const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
      await unlessDatabaseDown(
        async () => {
          await deps.db('admin_sessions').where('expires_at', '<=', now).delete();
          await deps.db('admin_sessions').insert({
            id: hex(token),
            csrf_token: csrfToken,
            admin_token_digest: currentDigest,
            expires_at: expiresAt,
          });
        },
        deps.logger,
        'admin session not stored',
        'We could not sign you in right now. Please try again in a few minutes.',
      );
      setCookie(ctx, token, expiresAt);
      deps.logger.info({ ip: ctx.ip }, 'sales page signed in');
      ctx.status = 201;
      ctx.body = { csrfToken, expiresAt: expiresAt.toISOString() } satisfies SessionAnswer;
    },
  );
  routes.get('/', async (ctx) => {
    const session = await sessionOf(ctx);
    if (!session) throw signedOut();
    ctx.body = { csrfToken: session.csrf_token, expiresAt: session.expires_at.toISOString() } satisfies SessionAnswer;
  });
  routes.delete('/', fromThisSite, async (ctx) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const session = await sessionOf(ctx);
    if (!token || !session) throw signedOut();
    const given = ctx.get(CSRF_HEADER);
    if (given === '' || !sameSecret(given, session.csrf_token)) throw csrfRefused();
    await unlessDatabaseDown(
      () =>
        deps
          .db('admin_sessions')
          .where({ id: hex(token) })
          .delete(),
      deps.logger,
      'admin session not removed',
      'We could not sign you out right now. Please try again.',
    );
    setCookie(ctx, null);
    ctx.status = 204;
  });
  return { requireAdmin, routes };
}

/** The CSRF token every change made with the session cookie carries, as the document tells it (booking-routes.ts too). */
export const csrfParameter: oas.ParameterObject = {
  name: CSRF_HEADER,
  in: 'header',
  required: false,
  description:
    'With the session cookie: the csrfToken of the session (a change without it, or with another, is refused with 403). Not needed with the Bearer token.',
  schema: { type: 'string' },
};
export const csrfRefusal: oas.ResponsesObject = {
  '403': refused(
    "Made with the session cookie but without its CSRF token, or with another; or sent from another site (an Origin not the site's own, or Sec-Fetch-Site other than same-origin or none).",
  ),
};

export const adminSessionOpenApi: OpenApiPart = {
  paths: {
    '/api/admin/session': {
      post: {
        operationId: 'signIn',
        summary: `The sales page's sign-in: the operations token exchanged for a session cookie (${SESSION_COOKIE}: HttpOnly, SameSite=Strict, Path=/api, Secure over HTTPS, ${SESSION_HOURS} hours). Wrong tokens count against the same per-network allowance as the Bearer header; the right one always signs in.`,
        requestBody: { required: true, content: json('SignIn') },
        responses: {
          '201': answer('Signed in; the cookie is set.', 'AdminSession'),
          ...bodyRefusals,
          '401': refused('Not the operations token.'),
          '403': refused(
            "Sent from another site (an Origin not the site's own, or Sec-Fetch-Site other than same-origin or none), whatever the token.",
          ),
          '429': tooMany,
          '503': refused('The database does not answer; not signed in.'),
        },
      },
      get: {
        operationId: 'adminSession',
        summary: 'The session of the cookie, with its CSRF token (the page reads it after a reload).',
        security: [{ adminSession: [] }],
        responses: {
          '200': answer('Signed in.', 'AdminSession'),
          '401': refused('No session, or it has ended.'),
          '503': unreadable,
        },
      },
      delete: {
        operationId: 'signOut',
        summary: 'Sign out: the session ends and the cookie is cleared.',
        security: [{ adminSession: [] }],
        parameters: [{ ...csrfParameter, required: true }],
        responses: {
          '204': { description: 'Signed out.' },
          '401': refused('No session, or it has ended.'),
          ...csrfRefusal,
          '503': refused('The database does not answer; still signed in.'),
        },
      },
    },
  },
  components: {
    schemas: { SignIn: signInSchema, AdminSession: sessionSchema },
    securitySchemes: {
      adminSession: {
        type: 'apiKey',
        in: 'cookie',
        name: SESSION_COOKIE,
        description: "The sales page's session (POST /api/admin/session); changes also need the X-CSRF-Token header.",
      },
    },
  },
};
