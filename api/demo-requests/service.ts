/**
 * Books a demo: one transaction checks the recipient's 24-hour ceilings, the slot's capacity and the person's own
 * bookings while holding the locks that make those counts final, stores the row with its pending confirmation
 * (and the answer to its idempotency key), then the confirmation is queued.
 */
import type { Logger } from 'pino';
import { SLOT_ALREADY_BOOKED_MESSAGE, SLOT_TAKEN_MESSAGE } from '../../domain/booking.js';
import type { DemoRequestCreated, DemoRequestInput } from '../../domain/demo-request.js';
import { invitePathOf } from '../../server-shared/booking-link.js';
import { emailDomain } from '../../server-shared/email-rules.js';
import { SEND_CONFIRMATION_JOB, type QueuedJob } from '../../server-shared/jobs.js';
import { unlessDatabaseDown, type Db } from '../db.js';
import { ApiError, TooManyRequestsError } from '../errors.js';
import { enqueueStored, type EmailQueue } from '../email-queue.js';
import { storeFollowUps, type FollowUpSettings } from '../bookings/follow-ups.js';
import { claimIdempotencyKey, keepIdempotentAnswer, requestHash, type IdempotentAnswer } from '../idempotency.js';
import { countBookings, insertDemoRequest, lockBookingScope, type BookingCounts } from './repository.js';

export interface BookingLimits {
  /** Bookings a slot takes. */
  slotCapacity: number;
  /** Bookings (so confirmations) per recipient address, and per recipient domain, in 24 hours; 0: no ceiling. */
  perEmailPerDay: number;
  perDomainPerDay: number;
}

export const DEFAULT_BOOKING_LIMITS: BookingLimits = { slotCapacity: 1, perEmailPerDay: 3, perDomainPerDay: 20 };

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
}

export interface SubmitAnswer extends IdempotentAnswer {
  /** True when the answer is the one kept for the idempotency key: nothing new was stored. */
  replayed: boolean;
}

const DAY_MS = 86_400_000;

/** The 201 answer to a booking; the honeypot gives the same, so a bot cannot tell them apart. */
export function createdAnswer(id: string, createdAt: Date, timeSlot: Date, linkSecret: string): DemoRequestCreated {
  return { id, createdAt: createdAt.toISOString(), timeSlot: timeSlot.toISOString(), invitePath: invitePathOf(id, linkSecret) };
}

function retryAfterMs(counts: BookingCounts, oldest: Date | null): number {
  return oldest ? oldest.getTime() + DAY_MS - counts.now.getTime() : DAY_MS;
}

/** The first ceiling the booking would break, as the 429 to answer; undefined when it breaks none. */
function ceilingProblem(counts: BookingCounts, limits: BookingLimits): { details: string; retryInMs: number } | undefined {
  if (limits.perEmailPerDay > 0 && counts.byEmail >= limits.perEmailPerDay) {
    return {
      details: `This email address has already booked ${counts.byEmail} demos in the last 24 hours, the most we confirm to one address in a day. Please try again later.`,
      retryInMs: retryAfterMs(counts, counts.oldestByEmail),
    };
  }
  if (limits.perDomainPerDay > 0 && counts.byDomain >= limits.perDomainPerDay) {
    return {
      details: `Your company's email domain has reached the most demo bookings we take from one domain in 24 hours. Please try again later, or ask a colleague who already booked to add you to their demo.`,
      retryInMs: retryAfterMs(counts, counts.oldestByDomain),
    };
  }
  return undefined;
}

export async function submitDemoRequest(deps: DemoRequestDeps, input: DemoRequestInput, idempotencyKey?: string): Promise<SubmitAnswer> {
  const hash = idempotencyKey ? requestHash({ ...input }) : '';
  const timeSlot = new Date(input.timeSlot);
  const domain = emailDomain(input.email);
  const answer: SubmitAnswer & { stored?: string; jobs?: QueuedJob[] } = await unlessDatabaseDown(
    () =>
      deps.db.transaction(async (trx) => {
      if (idempotencyKey) {
        const earlier = await claimIdempotencyKey(trx, idempotencyKey, hash);
        if (earlier) return { ...earlier, replayed: true };
      }
      await lockBookingScope(trx, domain, timeSlot);
      const counts = await countBookings(trx, input.email, domain, timeSlot);
      const ceiling = ceilingProblem(counts, deps.bookingLimits);
      if (ceiling) throw new TooManyRequestsError(ceiling.details, ceiling.retryInMs, { email: ceiling.details });
      if (counts.mineInSlot) throw new ApiError(409, 'Already booked', SLOT_ALREADY_BOOKED_MESSAGE, { timeSlot: SLOT_ALREADY_BOOKED_MESSAGE });
      if (counts.inSlot >= deps.bookingLimits.slotCapacity) {
        throw new ApiError(409, 'Slot taken', SLOT_TAKEN_MESSAGE, { timeSlot: SLOT_TAKEN_MESSAGE });
      }
      const stored = await insertDemoRequest(trx, input);
      const followUps = await storeFollowUps(trx, { id: stored.id, timeSlot: stored.timeSlot, sequence: 0 }, 'booked', deps.followUps, deps.now());
      const body = createdAnswer(stored.id, stored.createdAt, stored.timeSlot, deps.linkSecret);
      if (idempotencyKey) await keepIdempotentAnswer(trx, idempotencyKey, { status: 201, body });
      const confirmation: QueuedJob = { name: SEND_CONFIRMATION_JOB, payload: { demoRequestId: stored.id } };
      return { status: 201, body, replayed: false, stored: stored.id, jobs: [confirmation, ...followUps] };
      }),
    deps.logger,
    'demo request not stored',
    'We could not save your request right now. Nothing was stored; please try again in a few minutes.',
  );
  if (answer.stored) {
    // Each row records its e-mail as pending: one that cannot be queued now is enqueued later by the sweep.
    await enqueueStored(deps.queue, answer.jobs ?? [], deps.logger);
    deps.logger.info({ demoRequestId: answer.stored, timeSlot: timeSlot.toISOString() }, 'demo request stored');
  } else {
    deps.logger.info('idempotency key seen before: first answer sent again');
  }
  return { status: answer.status, body: answer.body, replayed: answer.replayed };
}
