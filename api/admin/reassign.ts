/**
 * Handing a booking to another host from the sales page (POST /api/admin/bookings/{id}/reassign), CSRF as the marks:
 * only to a host of its route (or any host without routes), checked against the new host's working hours and their
 * calendar read now, then one statement (booking_reassign, db/functions/reassign.sql) under the booking's lock and
 * the hosts' locks: their daily limit and the demos they give already, the exclusion constraint behind it. The event
 * moves from one host's calendar to the other, the prospect gets an update of the same event naming the new host,
 * both hosts and the sales desk hear of it, and a booking.reassigned webhook names the previous host.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { JSONSchemaType } from 'ajv';
import { slotEnd } from '../../domain/booking.js';
import {
  reassignableHosts,
  type Reassignment,
  type RoutingQuestion,
  type RoutingRecord,
} from '../../domain/routing.js';
import { withinWorkingHours } from '../../server-shared/hosts/team.js';
import { readUnlessDatabaseDown, unlessDatabaseDown, type Db } from '../db.js';
import { enqueueStored, type DeliveryQueue } from '../delivery-queue.js';
import { ApiError } from '../errors.js';
import { validateBody } from '../validation.js';
import { emailJobs, emailRows, emailsParameter, type FollowUpSettings, type StoredRow } from '../bookings/emails.js';
import { candidateOf } from '../bookings/hosts.js';
import { hostsParameter, refusalOf } from '../bookings/repository.js';
import { emailCeilingError } from '../bookings/refusals.js';
import { HostCalendars } from '../hosts/calendars.js';
import { webhookJobs, type StoredDelivery } from '../webhooks/repository.js';
import {
  adminOrSession,
  answer,
  bodyRefusals,
  json,
  refused,
  sessionRefusals,
  unchanged,
  uuidParameter,
  type OpenApiPart,
} from '../openapi-parts.js';
import { readBookingDetail } from './repository.js';
import { csrfParameter, csrfRefusal, SESSION_COOKIE } from './sessions.js';

export interface ReassignRequest {
  host: string;
}

export const reassignSchema: JSONSchemaType<ReassignRequest> = {
  type: 'object',
  additionalProperties: false,
  required: ['host'],
  properties: {
    host: {
      type: 'string',
      minLength: 3,
      maxLength: 320,
      description: "The new host's e-mail, as the team file has it.",
    },
  },
};

export interface ReassignDeps {
  db: Db;
  queue: DeliveryQueue;
  logger: Logger;
  now: () => Date;
  timeZone: string;
  followUps: FollowUpSettings;
  /** EMAILS_PER_RECIPIENT_PER_DAY; 0: no ceiling. */
  emailsPerRecipientPerDay: number;
  /** The team's calendars (TEAM_FILE); without a team there is nobody to hand a booking to. */
  hostCalendars?: HostCalendars;
  /** Told once a reassignment is committed (the hosts' bookings kept in memory for the slot list). */
  bookingsChanged?: () => void;
  requireAdmin: (ctx: Context, next: Next) => Promise<void>;
  /** The team file's questions, whose labels the booking's answers are shown with; none without them. */
  questions?: readonly RoutingQuestion[];
}

/** Why booking_reassign refused; nothing was changed. */
type ReassignRefusal =
  | { reason: 'not-found' | 'gone' | 'cancelled' | 'started' | 'moved' | 'host-busy' | 'slot-taken' }
  | { reason: 'recipient-emails'; count: number; freeAt: number; now: number };

interface Reassigned {
  changed: boolean;
  emails: StoredRow[];
  webhooks: StoredDelivery[];
}

const noBooking = () => new ApiError(404, 'Not found', 'There is no booking with this id.');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function refusalError(refusal: ReassignRefusal, hostName: string): ApiError {
  switch (refusal.reason) {
    case 'not-found':
      return noBooking();
    case 'gone':
      return new ApiError(410, 'Gone', 'This demo took place long ago and its details are no longer kept.');
    case 'cancelled':
      return new ApiError(409, 'Booking cancelled', 'This demo was cancelled, so it cannot be handed to another host.');
    case 'started':
      return new ApiError(409, 'Demo already started', 'This demo has already started, so its host stays.');
    case 'moved':
      return new ApiError(
        409,
        'Booking changed',
        'The prospect moved this demo meanwhile. Reload the booking and choose the host again.',
      );
    case 'host-busy':
    case 'slot-taken':
      return hostNotFree(hostName, 'gives another demo then or has reached their daily limit');
    case 'recipient-emails':
      return emailCeilingError(refusal, 'change');
  }
}

const hostNotFree = (name: string, why: string) =>
  new ApiError(409, 'Host not free', `${name} is not free at this demo's time: they ${why}. Nothing was changed.`, {
    host: `${name} is not free at this time.`,
  });

async function reassignInDb(
  db: Db,
  values: {
    id: string;
    timeSlot: Date;
    hosts: string;
    by: Reassignment['by'];
    now: Date;
    ceiling: number;
    emails: string;
  },
): Promise<Reassigned | { refusal: ReassignRefusal }> {
  try {
    const { rows } = (await db.raw('SELECT * FROM booking_reassign(?, ?, ?::jsonb, ?, ?, ?, ?::jsonb)', [
      values.id,
      values.timeSlot,
      values.hosts,
      values.by,
      values.now,
      values.ceiling,
      values.emails,
    ])) as { rows: Reassigned[] };
    const row = rows[0];
    if (!row) throw new Error('booking_reassign gave no row');
    return row;
  } catch (err) {
    const refusal = refusalOf<ReassignRefusal>(err);
    if (refusal) return { refusal };
    throw err;
  }
}

interface BookingNow {
  status: 'booked' | 'cancelled';
  time_slot: Date;
  host_email: string | null;
  routing: RoutingRecord | null;
  anonymised_at: Date | null;
}

export function reassignRoutes(deps: ReassignDeps): Router {
  const router = new Router();
  router.post(
    '/api/admin/bookings/:id/reassign',
    deps.requireAdmin,
    async (ctx, next) => {
      ctx.set('Cache-Control', 'no-store');
      await next();
    },
    validateBody<ReassignRequest>({
      schema: reassignSchema,
      messages: () => "host must be a host's e-mail address.",
      summary: 'Invalid host',
    }),
    async (ctx) => {
      const id = ctx.params.id ?? '';
      if (!UUID.test(id)) throw noBooking();
      const wanted = ctx.state.body.host.trim().toLowerCase();
      const calendars = deps.hostCalendars;
      const team = calendars?.hosts ?? [];
      const booking = await readUnlessDatabaseDown(
        () =>
          deps
            .db('bookings')
            .where({ id })
            .first('status', 'time_slot', 'host_email', 'routing', 'anonymised_at') as Promise<BookingNow | undefined>,
        deps.logger,
        'booking',
      );
      if (!booking) throw noBooking();
      if (booking.anonymised_at) throw refusalError({ reason: 'gone' }, '');
      if (booking.status === 'cancelled') throw refusalError({ reason: 'cancelled' }, '');
      // Asked again under the lock; said here before any calendar is read.
      if (booking.time_slot <= deps.now()) throw refusalError({ reason: 'started' }, '');
      const index = team.findIndex((host) => host.email.toLowerCase() === wanted);
      const host = team[index];
      const sameHost = booking.host_email?.toLowerCase() === wanted;
      if (!calendars || !host || (!sameHost && !reassignableHosts(booking.routing, [host], booking.host_email).length))
        throw new ApiError(422, 'Not a host of this route', 'This host cannot take this demo.', {
          host: team.length
            ? "Choose one of the hosts of this booking's route."
            : 'There is no team (TEAM_FILE) to hand the demo to.',
        });
      const timeSlot = booking.time_slot;
      const end = slotEnd(timeSlot);
      if (!sameHost) {
        if (!withinWorkingHours(host, timeSlot, end)) throw hostNotFree(host.name, 'are outside their working hours');
        const busy = await calendars.freshBusyTimes(index);
        if (busy === undefined) throw hostNotFree(host.name, 'have a calendar that cannot be read right now');
        if (!HostCalendars.isFree(busy, timeSlot, end)) throw hostNotFree(host.name, 'are busy in their calendar');
      }
      const now = deps.now();
      const by: Reassignment['by'] =
        ctx.get('Authorization') !== '' || !ctx.cookies.get(SESSION_COOKIE) ? 'operations token' : 'sales page';
      const result = await unlessDatabaseDown(
        () =>
          reassignInDb(deps.db, {
            id,
            timeSlot,
            hosts: hostsParameter([candidateOf(host, timeSlot, deps.timeZone)]),
            by,
            now,
            ceiling: deps.emailsPerRecipientPerDay,
            emails: emailsParameter(emailRows('reassigned', deps.followUps, now, timeSlot)),
          }),
        deps.logger,
        'booking not reassigned',
        'We could not reach our records right now. Nothing was changed; please try again in a few minutes.',
      );
      if ('refusal' in result) throw refusalError(result.refusal, host.name);
      if (result.changed) deps.bookingsChanged?.();
      const log = deps.logger.child({ bookingId: id });
      await enqueueStored(deps.queue, [...emailJobs(result.emails), ...webhookJobs(result.webhooks)], log);
      // The hosts' places in the team file, never their addresses, in the log.
      if (result.changed) log.info({ hostIndex: index, by }, 'booking reassigned');
      ctx.body = await readUnlessDatabaseDown(
        () =>
          readBookingDetail(
            deps.db,
            id,
            team.map((member) => ({ email: member.email.toLowerCase(), name: member.name })),
            deps.questions,
          ),
        deps.logger,
        'booking',
      );
    },
  );
  return router;
}

export const reassignOpenApi: OpenApiPart = {
  paths: {
    '/api/admin/bookings/{id}/reassign': {
      post: {
        operationId: 'reassignBooking',
        summary:
          "Hand the demo to another host of its route (every host without routes), at the same time: checked against the new host's working hours, their calendar read now, their daily limit and the demos they give already. The event moves from one host's calendar to the other; the prospect gets an update of the same event naming the new host; both hosts and the sales desk are told; booking.reassigned names the previous host. The booking's own host again changes nothing. A 429 also when the prospect's e-mails of 24 hours would pass EMAILS_PER_RECIPIENT_PER_DAY.",
        ...adminOrSession,
        parameters: [uuidParameter('id', "The booking's id."), csrfParameter],
        requestBody: { required: true, content: json('Reassignment') },
        responses: {
          '200': answer('The booking as it now stands.', 'BookingDetail'),
          ...bodyRefusals,
          ...csrfRefusal,
          '404': refused('No such booking.'),
          '409': refused(
            'The new host is not free at its time (outside their working hours, busy in their calendar or unreadable, another demo, their daily limit), or the booking is cancelled, begun or was moved meanwhile. Nothing was changed.',
          ),
          '410': refused('Its details are gone with retention.'),
          '422': refused("The host is not one of the booking's route (or there is no team); `fields.host` says so."),
          ...sessionRefusals,
          '503': unchanged,
        },
      },
    },
  },
  components: { schemas: { Reassignment: reassignSchema } },
};
