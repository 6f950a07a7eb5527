/**
 * A booking reached through its link: GET /api/bookings/{token} (what the manage page shows),
 * GET /api/bookings/{token}/invite.ics (the calendar event to download), and POST …/reschedule and …/cancel.
 * A token that was altered, made with another secret or names no booking gets the same 404: the answer tells
 * nothing about which.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { TOKEN_PATTERN, bookingIdOf } from '../../server-shared/booking-link.js';
import type { BookingView, RescheduleInput } from '../../domain/demo-request.js';
import { timeSlotProblem } from '../../domain/booking.js';
import { bookingInvitation } from '../../server-shared/invitation.js';
import { readUnlessDatabaseDown, type Db } from '../db.js';
import type { LogFields } from '../request-log.js';
import { rateLimit, type RequestLimits } from '../rate-limit.js';
import { validateBody } from '../validation.js';
import { findBooking } from './repository.js';
import { findTrapped } from './trapped-repository.js';
import { cancelBookingAt, rescheduleBooking, viewOf, type BookingChangeDeps } from './changes.js';
import { gone, notFound } from './refusals.js';
import {
  answer,
  bodyRefusals,
  json,
  refused,
  tooMany,
  unchanged,
  unreadable,
  type OpenApiPart,
} from '../openapi-parts.js';
import { bookingViewSchema, rescheduleSchema } from './schemas.js';

export interface BookingLinkDeps extends BookingChangeDeps {
  linkSecret: string;
  /** Secrets of before a rotation, still accepted in a link (the grace period of BOOKING_LINK_PREVIOUS_SECRETS). */
  previousLinkSecrets?: readonly string[];
  mailFrom: string;
  timeZone: string;
  minNoticeMinutes: number;
  limits?: RequestLimits;
}

/** The booking id behind the path's token, in ctx.state.bookingId; a 404 for any token that opens nothing. */
function bookingLink(linkSecret: string, previousLinkSecrets: readonly string[]) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const id = bookingIdOf(String(ctx.params.token ?? ''), linkSecret, previousLinkSecrets);
    if (!id) throw notFound();
    // What a booking's link shows is the prospect's own: no cache keeps it.
    ctx.set('Cache-Control', 'no-store');
    ctx.state.bookingId = id;
    // The request's log line names the booking (never the token).
    ctx.state.logFields = { ...(ctx.state.logFields as LogFields | undefined), bookingId: id };
    await next();
  };
}

/** A booking by its id, or the request the honeypot caught under it, which opens like a booking so as not to give it away. */
function readBookingOrTrapped(db: Db, logger: Logger, id: string) {
  return readUnlessDatabaseDown(
    async () => (await findBooking(db, id)) ?? (await findTrapped(db, id)),
    logger,
    'booking',
  );
}

/**
 * The booking a link's token opens, as GET /api/bookings/{token} answers it, for the manage page the server renders
 * with it (api/web.ts): null for a token that opens nothing; a 503 ApiError when the database cannot say.
 */
export function bookingViewReader(deps: Pick<BookingLinkDeps, 'db' | 'logger' | 'linkSecret' | 'previousLinkSecrets'>) {
  return async (token: string): Promise<BookingView | null> => {
    const id = bookingIdOf(token, deps.linkSecret, deps.previousLinkSecrets ?? []);
    const booking = id ? await readBookingOrTrapped(deps.db, deps.logger, id) : undefined;
    // Its personal data gone with retention: the link opens nothing any more.
    return booking && !booking.anonymised ? viewOf(booking) : null;
  };
}

/**
 * The steps of a move and of a cancellation through a booking's link, from the token's check to the answer (the
 * booking as it now stands, or an ApiError thrown): the API's JSON body, or (`form`) a page's form posted without
 * script, its body parsed by its route (api/no-script/routes.ts). One rate limit (by its name) whichever way.
 */
export function bookingChangeSteps(deps: BookingLinkDeps, { form = false }: { form?: boolean } = {}) {
  const link = bookingLink(deps.linkSecret, deps.previousLinkSecrets ?? []);
  const idOf = (ctx: Context) => String(ctx.state.bookingId);
  // Each change e-mails the prospect: changes count against the client's hourly allowance of bookings.
  const changeLimit = rateLimit(deps.limits?.limiter, {
    name: 'booking-change',
    limit: deps.limits?.demoRequestsPerHour ?? 0,
    windowMs: 3_600_000,
    details: (minutes) =>
      `Several changes came from your network in the last hour. Please try again in about ${minutes} minutes.`,
  });
  return {
    reschedule: [
      link,
      changeLimit,
      validateBody<RescheduleInput>({
        schema: rescheduleSchema,
        messages: () => 'Please select a date and time.',
        problems: (body) => ({
          timeSlot: timeSlotProblem(body.timeSlot, deps.now(), deps.timeZone, deps.minNoticeMinutes) ?? undefined,
        }),
        summary: 'Invalid reschedule',
        form,
      }),
      async (ctx: Context) => {
        const { timeSlot } = ctx.state.body as RescheduleInput;
        ctx.body = await rescheduleBooking(deps, idOf(ctx), new Date(timeSlot));
      },
    ],
    cancel: [
      link,
      changeLimit,
      async (ctx: Context) => {
        ctx.body = await cancelBookingAt(deps, idOf(ctx));
      },
    ],
  } as const;
}

export function bookingRoutes(deps: BookingLinkDeps): Router {
  const router = new Router();
  const link = bookingLink(deps.linkSecret, deps.previousLinkSecrets ?? []);
  const idOf = (ctx: Context) => String(ctx.state.bookingId);
  const changes = bookingChangeSteps(deps);

  // A request the honeypot caught opens like a booking, so that its link does not give the honeypot away.
  const read = async (ctx: Context) => {
    const booking = await readBookingOrTrapped(deps.db, deps.logger, idOf(ctx));
    if (booking?.anonymised) throw gone();
    return booking;
  };
  router.get('/api/bookings/:token', link, async (ctx) => {
    const booking = await read(ctx);
    if (!booking) throw notFound();
    ctx.body = viewOf(booking);
  });
  router.get('/api/bookings/:token/invite.ics', link, async (ctx) => {
    const booking = await read(ctx);
    if (!booking) throw notFound();
    ctx.type = 'text/calendar; charset=utf-8; method=PUBLISH';
    ctx.attachment('invite.ics');
    ctx.body = bookingInvitation(booking, {
      mailFrom: deps.mailFrom,
      now: deps.now(),
      method: 'PUBLISH',
      sequence: booking.sequence,
      cancelled: booking.status === 'cancelled',
    });
  });
  router.post('/api/bookings/:token/reschedule', ...changes.reschedule);
  router.post('/api/bookings/:token/cancel', ...changes.cancel);
  return router;
}

const tokenParameter = {
  name: 'token',
  in: 'path',
  required: true,
  description: 'The token of the booking link in the e-mails: opaque, signed with BOOKING_LINK_SECRET.',
  schema: { type: 'string', pattern: TOKEN_PATTERN.source },
} as const;
const noBooking = refused('No booking at this link (an altered or unknown token).');
const anonymised = refused(
  'The booking is older than RETENTION_DAYS: its personal data was removed, so the link shows nothing any more.',
);

export const bookingLinkOpenApi: OpenApiPart = {
  paths: {
    '/api/bookings/{token}': {
      get: {
        operationId: 'booking',
        summary: 'A booking, reached through the signed token of the link in its e-mails.',
        parameters: [tokenParameter],
        responses: { '200': answer('The booking.', 'Booking'), '404': noBooking, '410': anonymised, '503': unreadable },
      },
    },
    '/api/bookings/{token}/reschedule': {
      post: {
        operationId: 'rescheduleBooking',
        summary:
          'Move the booking to another slot, under the rules of a new booking; the prospect gets an updated invitation (same UID, higher SEQUENCE).',
        parameters: [tokenParameter],
        requestBody: { required: true, content: json('Reschedule') },
        responses: {
          '200': answer('The booking as it now stands (the same slot changes nothing).', 'Booking'),
          ...bodyRefusals,
          '404': noBooking,
          '410': anonymised,
          '409': refused(
            "The slot is full or already this person's, the booking is cancelled or has begun, or it was moved too often.",
          ),
          '429': tooMany,
          '503': unchanged,
        },
      },
    },
    '/api/bookings/{token}/cancel': {
      post: {
        operationId: 'cancelBooking',
        summary:
          'Cancel the booking and free its slot; the prospect gets the cancellation (METHOD:CANCEL). Cancelling twice changes nothing.',
        parameters: [tokenParameter],
        responses: {
          '200': answer('The booking, cancelled.', 'Booking'),
          '404': noBooking,
          '410': anonymised,
          '409': refused('The demo has already begun.'),
          '429': tooMany,
          '503': unchanged,
        },
      },
    },
    '/api/bookings/{token}/invite.ics': {
      get: {
        operationId: 'bookingInvitation',
        summary: "The booking's calendar event (the same UID as in its e-mails), to download.",
        parameters: [tokenParameter],
        responses: {
          '200': {
            description: 'iCalendar, METHOD:PUBLISH (a file to import; the e-mail carries the REQUEST).',
            content: { 'text/calendar': { schema: { type: 'string' } } },
          },
          '404': noBooking,
          '410': anonymised,
          '503': unreadable,
        },
      },
    },
  },
  components: { schemas: { Booking: bookingViewSchema, Reschedule: rescheduleSchema } },
};
