/**
 * Books a demo: one statement (`book` of db/functions/bookings.sql, so one round trip and one transaction) checks the recipient's 24-hour
 * ceilings (bookings and e-mails, by the recipient's canonical form), the slot's capacity and the person's own
 * bookings while holding the locks that make those counts final, stores the row with its e-mails in the outbox (the
 * confirmation first), its webhook event with a delivery per endpoint, and the answer to its idempotency key; after the commit the answer is sent and the e-mails
 * queued behind it, never waited for. With a team, the host is one of the prospect's route (routed-hosts.ts), the
 * account's owner first when free, and the booking keeps its answers and how its host was chosen.
 */
import type { Logger } from 'pino';
import type { DemoRequestInput } from '../../domain/demo-request.js';
import { invitePathOf, smsLinkCode, smsLinkDigest } from '../../server-shared/booking-link.js';
import { canonicalRecipient } from '../email-rules.js';
import { unlessDatabaseDown, type Db } from '../db.js';
import { enqueueAfterAnswer, type DeliveryQueue } from '../delivery-queue.js';
import { emailJobs, emailRows, type FollowUpSettings } from './emails.js';
import { routedHosts } from './routed-hosts.js';
import { meetingUrlOf } from './meeting.js';
import type { BookingOutcomeLabel } from '../metrics.js';
import type { HostCalendars } from '../hosts/calendars.js';
import type { ProspectRouting } from '../routing/prospect-route.js';
import type { Contact } from '../../domain/brand.js';
import { DEFAULT_EMAILS_PER_RECIPIENT_PER_DAY, refusalError } from './refusals.js';
import { requestHash, type IdempotentAnswer } from '../idempotency.js';
import { book } from './repository.js';
import { webhookJobs } from '../webhooks/repository.js';
import { newBookingId } from './booking-id.js';
import { smsConsentOf } from './sms-consent.js';

export interface BookingLimits {
  /** Bookings a slot takes. */
  slotCapacity: number;
  /** Bookings (so confirmations) per recipient address, and per recipient domain, in 24 hours; 0: no ceiling. */
  perEmailPerDay: number;
  perDomainPerDay: number;
  /** E-mails of every kind to one recipient in 24 hours (bookings and changes); 0: no ceiling. */
  emailsPerRecipientPerDay: number;
}

export const DEFAULT_BOOKING_LIMITS: BookingLimits = {
  slotCapacity: 1,
  perEmailPerDay: 3,
  perDomainPerDay: 20,
  emailsPerRecipientPerDay: DEFAULT_EMAILS_PER_RECIPIENT_PER_DAY,
};

export interface DemoRequestDeps {
  db: Db;
  queue: DeliveryQueue;
  logger: Logger;
  bookingLimits: BookingLimits;
  /** Signs the booking's links (the invitation's download in the answer). */
  linkSecret: string;
  /** The reminder and the sales desk's notice stored with each booking. */
  followUps: FollowUpSettings;
  now: () => Date;
  /** Told of every booking stored, once it is committed (the slots' counts kept in memory). */
  bookingsChanged?: () => void;
  /** The booking zone: the day a host's daily limit counts in, when their working hours name no zone. */
  timeZone: string;
  /** The team's calendars (TEAM_FILE): each booking then gets a host; unset, the slot's capacity alone. */
  hostCalendars?: HostCalendars;
  /** The team's routing (its questions and routes, the accounts' owners): the host is one of the prospect's route. */
  routing?: ProspectRouting;
  /** CONTACT_EMAIL: where an unrouted prospect is asked to write without SALES_NOTIFY_EMAIL. */
  contact?: Contact;
  /** Each booking's video room (MEETING_URL_TEMPLATE). */
  meetingUrlTemplate: string;
  /** Told what each booking request came to (the metrics). */
  bookingOutcome?: (outcome: BookingOutcomeLabel) => void;
}

export interface SubmitAnswer extends IdempotentAnswer {
  /** True when the answer is the one kept for the idempotency key: nothing new was stored. */
  replayed: boolean;
  /** The booking stored by this request, for its log line. */
  stored?: { bookingId: string; timeSlot: string };
}

export async function submitDemoRequest(
  deps: DemoRequestDeps,
  input: DemoRequestInput,
  idempotencyKey?: string,
): Promise<SubmitAnswer> {
  const timeSlot = new Date(input.timeSlot);
  // The row's id is made here, so that its invitation link (in the answer kept with the key) is known up front.
  const id = newBookingId();
  const invitePath = invitePathOf(id, deps.linkSecret);
  // With a team, who could give the demo: the prospect's route and owner (or the 400 or 422 of routing), their
  // calendars read again now; the database chooses among them.
  const team = await routedHosts(deps, input.email, input.answers, timeSlot);
  // The texts' consent keeps its number in E.164, which the booking's phone then shows too.
  const sms = smsConsentOf(input, deps.followUps.texts !== undefined);
  const outcome = await unlessDatabaseDown(
    () =>
      book(deps.db, {
        id,
        input: sms ? { ...input, phone: sms.phone } : input,
        ...(sms ? { sms: { ...sms, linkDigest: smsLinkDigest(smsLinkCode(id, deps.linkSecret)) } } : {}),
        recipient: canonicalRecipient(input.email),
        limits: deps.bookingLimits,
        emails: emailRows('booked', deps.followUps, deps.now(), timeSlot),
        ...(idempotencyKey ? { idempotency: { key: idempotencyKey, hash: requestHash({ ...input }) } } : {}),
        invitePath,
        meetingUrl: meetingUrlOf(deps.meetingUrlTemplate),
        ...(team
          ? {
              hosts: team.hosts,
              answers: team.answers,
              ...(team.routing ? { routing: team.routing } : {}),
              ...(team.owner ? { owner: team.owner } : {}),
            }
          : {}),
      }),
    deps.logger,
    'demo request not stored',
    'We could not save your request right now. Nothing was stored; please try again in a few minutes.',
  );
  if (outcome.outcome === 'refused') {
    deps.bookingOutcome?.(
      outcome.refusal.reason === 'slot-taken' || outcome.refusal.reason === 'already-booked' ? 'slot_taken' : 'refused',
    );
    throw refusalError(outcome.refusal);
  }
  deps.bookingOutcome?.(outcome.outcome === 'replayed' ? 'replayed' : 'created');
  if (outcome.outcome === 'replayed') {
    deps.logger.info('idempotency key seen before: first answer sent again');
    return { status: outcome.status, body: outcome.body, replayed: true };
  }
  deps.bookingsChanged?.();
  // Each row records its e-mail as pending (the outbox): the answer does not wait for Redis. The jobs are queued
  // once the answer is on its way; one that cannot be queued is logged and enqueued later by the worker's sweep.
  enqueueAfterAnswer(
    deps.queue,
    [...emailJobs(outcome.emails), ...webhookJobs(outcome.webhooks)],
    deps.logger.child({ bookingId: id }),
  );
  return {
    status: 201,
    body: outcome.answer,
    replayed: false,
    stored: { bookingId: id, timeSlot: outcome.answer.timeSlot },
  };
}
