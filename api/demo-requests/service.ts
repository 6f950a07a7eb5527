/**
 * Books a demo: one statement (book_demo, so one round trip and one transaction) checks the recipient's 24-hour
 * ceilings (bookings and e-mails, by the recipient's canonical form), the slot's capacity and the person's own
 * bookings while holding the locks that make those counts final, stores the row with its pending confirmation, its
 * follow-up e-mails and the answer to its idempotency key; after the commit the answer is sent and the confirmation
 * queued behind it, never waited for.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { SLOT_ALREADY_BOOKED_MESSAGE, SLOT_TAKEN_MESSAGE } from '../../domain/booking.js';
import type { DemoRequestCreated, DemoRequestInput } from '../../domain/demo-request.js';
import { invitePathOf } from '../../server-shared/booking-link.js';
import { canonicalRecipient } from '../../server-shared/email-rules.js';
import { SEND_CONFIRMATION_JOB, type QueuedJob } from '../../server-shared/jobs.js';
import { unlessDatabaseDown, type Db } from '../db.js';
import { ApiError, TooManyRequestsError } from '../errors.js';
import { enqueueAfterAnswer, type EmailQueue } from '../email-queue.js';
import { followUpJobs, followUpRows, type FollowUpSettings } from '../bookings/follow-ups.js';
import { DEFAULT_EMAILS_PER_RECIPIENT_PER_DAY, emailCeilingError } from '../bookings/email-ceiling.js';
import { idempotencyKeyReused, requestHash, type IdempotentAnswer } from '../idempotency.js';
import { bookDemo, type BookingRefusal } from './repository.js';

export interface BookingLimits {
  /** Bookings a slot takes. */
  slotCapacity: number;
  /** Bookings (so confirmations) per recipient address, and per recipient domain, in 24 hours; 0: no ceiling. */
  perEmailPerDay: number;
  perDomainPerDay: number;
  /** E-mails of every kind to one recipient in 24 hours (bookings and changes); 0: no ceiling, unset: the default. */
  emailsPerRecipientPerDay?: number;
}

export const DEFAULT_BOOKING_LIMITS: BookingLimits = {
  slotCapacity: 1,
  perEmailPerDay: 3,
  perDomainPerDay: 20,
  emailsPerRecipientPerDay: DEFAULT_EMAILS_PER_RECIPIENT_PER_DAY,
};

export interface DemoRequestDeps {
  db: Db;
  queue: EmailQueue;
  logger: Logger;
  bookingLimits: BookingLimits;
  /** Signs the booking's links (the invitation's download in the answer). */
  linkSecret: string;
  /** The reminder and the sales desk's notice stored with each booking. */
  followUps: FollowUpSettings;
  now: () => Date;
  /** Told of every booking stored, once it is committed (the slots' counts kept in memory). */
  bookingsChanged?: () => void;
}

export interface SubmitAnswer extends IdempotentAnswer {
  /** True when the answer is the one kept for the idempotency key: nothing new was stored. */
  replayed: boolean;
  /** The booking stored by this request, for its log line. */
  stored?: { demoRequestId: string; timeSlot: string };
}

const DAY_MS = 86_400_000;

/** The 201 answer to a booking; the honeypot gives the same, so a bot cannot tell them apart. */
export function createdAnswer(id: string, createdAt: Date, timeSlot: Date, linkSecret: string): DemoRequestCreated {
  return { id, createdAt: createdAt.toISOString(), timeSlot: timeSlot.toISOString(), invitePath: invitePathOf(id, linkSecret) };
}

/** The answer to a refused booking: the ceiling's 429 with its Retry-After, or the slot's 409 (the honeypot's too). */
export function refusalError(refusal: BookingRefusal): ApiError {
  switch (refusal.reason) {
    case 'email-ceiling': {
      const details = `This email address has already booked ${refusal.count} demos in the last 24 hours, the most we confirm to one address in a day. Please try again later.`;
      return new TooManyRequestsError(details, retryAfterMs(refusal), { email: details });
    }
    case 'recipient-emails':
      return emailCeilingError(refusal, 'booking');
    case 'domain-ceiling': {
      const details = `Your company's email domain has reached the most demo bookings we take from one domain in 24 hours. Please try again later, or ask a colleague who already booked to add you to their demo.`;
      return new TooManyRequestsError(details, retryAfterMs(refusal), { email: details });
    }
    case 'already-booked':
      return new ApiError(409, 'Already booked', SLOT_ALREADY_BOOKED_MESSAGE, { timeSlot: SLOT_ALREADY_BOOKED_MESSAGE });
    case 'slot-taken':
      return new ApiError(409, 'Slot taken', SLOT_TAKEN_MESSAGE, { timeSlot: SLOT_TAKEN_MESSAGE });
    case 'key-reused':
      return idempotencyKeyReused();
  }
}

/** Until the oldest of the bookings that make the ceiling is a day old (by the database's clock). */
function retryAfterMs(ceiling: { oldest: number | null; now: number }): number {
  return ceiling.oldest === null ? DAY_MS : ceiling.oldest + DAY_MS - ceiling.now;
}

export async function submitDemoRequest(deps: DemoRequestDeps, input: DemoRequestInput, idempotencyKey?: string): Promise<SubmitAnswer> {
  const timeSlot = new Date(input.timeSlot);
  // The row's id is made here, so that its invitation link (in the answer kept with the key) is known up front.
  const id = randomUUID();
  const invitePath = invitePathOf(id, deps.linkSecret);
  const outcome = await unlessDatabaseDown(
    () =>
      bookDemo(deps.db, {
        id,
        input,
        recipient: canonicalRecipient(input.email),
        limits: { ...deps.bookingLimits, emailsPerRecipientPerDay: deps.bookingLimits.emailsPerRecipientPerDay ?? DEFAULT_EMAILS_PER_RECIPIENT_PER_DAY },
        followUps: followUpRows({ id, timeSlot, sequence: 0 }, 'booked', deps.followUps, deps.now()),
        ...(idempotencyKey ? { idempotency: { key: idempotencyKey, hash: requestHash({ ...input }) } } : {}),
        invitePath,
      }),
    deps.logger,
    'demo request not stored',
    'We could not save your request right now. Nothing was stored; please try again in a few minutes.',
  );
  if (outcome.outcome === 'refused') throw refusalError(outcome.refusal);
  if (outcome.outcome === 'replayed') {
    deps.logger.info('idempotency key seen before: first answer sent again');
    return { status: outcome.status, body: outcome.body, replayed: true };
  }
  deps.bookingsChanged?.();
  // Each row records its e-mail as pending (the outbox): the answer does not wait for Redis. The jobs are queued
  // once the answer is on its way; one that cannot be queued is logged and enqueued later by the worker's sweep.
  const confirmation: QueuedJob = { name: SEND_CONFIRMATION_JOB, payload: { demoRequestId: id } };
  enqueueAfterAnswer(deps.queue, [confirmation, ...followUpJobs(outcome.emails)], deps.logger);
  const slot = timeSlot.toISOString();
  return { status: 201, body: { id, createdAt: outcome.createdAt.toISOString(), timeSlot: slot, invitePath }, replayed: false, stored: { demoRequestId: id, timeSlot: slot } };
}
