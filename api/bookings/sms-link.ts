/**
 * A text's short link (issue 40): GET /m/{code} answers with a redirect to the booking's manage page, whose long link
 * would take half a text. The code is a MAC of the booking's id under the link secret (server-shared/booking-link.ts);
 * the database knows it by its digest alone (sms_links, looked up by its key), made with the booking (book()) and
 * erased with its personal data (worker/retention.ts). A code that opens nothing is the booking page's "This link does
 * not open a booking", a 404; wrong codes are counted per network as wrong operations tokens are (admin/auth.ts).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { SMS_LINK_CODE_PATTERN, managePathOf, smsLinkDigest } from '../../server-shared/booking-link.js';
import { readUnlessDatabaseDown, type Db } from '../db.js';
import type { LogFields } from '../request-log.js';
import { countOrRefuse, type LimitRule, type RateLimiter } from '../rate-limit.js';
import { clientKeyOf } from '../client-network.js';
import { tooMany, unreadable, type OpenApiPart } from '../openapi-parts.js';

export const SMS_LINK_PATH = '/m/:code';

const SMS_LINK_FAILURES: LimitRule = {
  name: 'sms-link-failures',
  limit: 10,
  windowMs: 15 * 60_000,
  details: (minutes) =>
    `Too many links that open no booking came from your network. Please try again in about ${minutes} minutes.`,
};

export interface SmsLinkDeps {
  db: Db;
  logger: Logger;
  linkSecret: string;
  /** Counts the wrong codes per network. */
  limiter: RateLimiter;
  /** The answer to a code that opens nothing: the booking page's own "does not open a booking" (web.ts). */
  noBooking: (ctx: Context) => Promise<void>;
}

/** The booking a code opens: its id, unless its personal data is gone with retention (its codes then with it). */
async function bookingOfCode(db: Db, code: string): Promise<string | undefined> {
  const row = (await db('sms_links as l')
    .join('bookings as b', 'b.id', 'l.booking_id')
    .where('l.digest', smsLinkDigest(code))
    .whereNull('b.anonymised_at')
    .first('l.booking_id')) as { booking_id: string } | undefined;
  return row?.booking_id;
}

export function smsLinkRoutes(deps: SmsLinkDeps): Router {
  const router = new Router();
  const failures = deps.limiter.of(SMS_LINK_FAILURES);
  router.get(SMS_LINK_PATH, async (ctx) => {
    const code = String(ctx.params.code ?? '');
    // The address opens a booking: kept from caches, referrers and indexes as its page is.
    ctx.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex' });
    const id = SMS_LINK_CODE_PATTERN.test(code)
      ? await readUnlessDatabaseDown(() => bookingOfCode(deps.db, code), deps.logger, 'short link')
      : undefined;
    if (!id) {
      // The right code always passes; the count keeps guessing cheap (a count, no page) rather than guarding the
      // code, which no amount of guessing finds.
      await countOrRefuse(failures, clientKeyOf(ctx), SMS_LINK_FAILURES);
      return deps.noBooking(ctx);
    }
    // The request's log line names the booking (never the code).
    ctx.state.logFields = { ...(ctx.state.logFields as LogFields | undefined), bookingId: id };
    ctx.status = 303;
    ctx.redirect(managePathOf(id, deps.linkSecret));
  });
  return router;
}

export const smsLinkOpenApi: OpenApiPart = {
  paths: {
    '/m/{code}': {
      get: {
        operationId: 'smsLink',
        summary:
          "A text's short link: a redirect to the booking's manage page (/booking/{token}). Not JSON: a page address for the prospect's phone.",
        parameters: [
          {
            name: 'code',
            in: 'path',
            required: true,
            description:
              "The code in the booking's texts: opaque, a MAC of the booking under BOOKING_LINK_SECRET; the database keeps its digest alone.",
            schema: { type: 'string', pattern: SMS_LINK_CODE_PATTERN.source },
          },
        ],
        responses: {
          '303': {
            description: "To the booking's manage page, cancelled or not.",
            headers: { Location: { schema: { type: 'string' }, description: '/booking/{token}' } },
          },
          '404': {
            description:
              'An HTML page: "This link does not open a booking" (an altered or unknown code, or a booking whose personal data retention removed).',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '429': tooMany,
          '503': unreadable,
        },
      },
    },
  },
};
