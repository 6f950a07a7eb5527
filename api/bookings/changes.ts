/**
 * Moving and cancelling a booking through its link. Each change is one transaction: the booking is locked, checked
 * and changed, its sequence raised (the calendar event's SEQUENCE), and its e-mails stored in the outbox
 * (emails.ts), with its webhook event (webhooks/repository.ts); their jobs are queued after the commit. A move follows the rules of a new booking (the slot's
 * capacity under the slot's lock); a freed slot is bookable again the moment the change commits.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { BookingView } from '../../domain/demo-request.js';
import { canonicalRecipient, type CanonicalRecipient } from '../email-rules.js';
import type { QueuedJob } from '../../server-shared/jobs.js';
import { unlessDatabaseDown, type Db } from '../db.js';
import { enqueueStored, type DeliveryQueue } from '../delivery-queue.js';
import { ApiError } from '../errors.js';
import { emailCeilingError, refusalError } from './refusals.js';
import { storeEmails, type BookingChange, type FollowUpSettings } from './emails.js';
import {
  cancelBooking,
  lockBooking,
  lockRecipientDomain,
  hostFor,
  lockHosts,
  lockSlot,
  moveBooking,
  recipientEmailsPast,
  slotRefusal,
  type BookingState,
} from './repository.js';
import { hostCandidates } from './hosts.js';
import { raiseWebhookEvent } from '../webhooks/repository.js';
import type { HostCalendars } from '../hosts/calendars.js';

export interface BookingChangeDeps {
  db: Db;
  queue: DeliveryQueue;
  logger: Logger;
  now: () => Date;
  slotCapacity: number;
  /** E-mails of every kind to one recipient in 24 hours (EMAILS_PER_RECIPIENT_PER_DAY); 0: no ceiling. */
  emailsPerRecipientPerDay: number;
  followUps: FollowUpSettings;
  /** Told of every move and cancellation, once it is committed (the slots' counts kept in memory). */
  bookingsChanged?: () => void;
  /** The booking zone: the day a host's daily limit counts in, when their working hours name no zone. */
  timeZone: string;
  /** The team's calendars (TEAM_FILE): a move keeps its host when free at the new time, else takes another. */
  hostCalendars?: HostCalendars;
}

/** Past this many changes a booking is not moved through its link any more (each move e-mails the prospect); it can still be cancelled. */
export const MAX_BOOKING_CHANGES = 10;

export const notFound = () => new ApiError(404, 'Not found', 'There is no booking at this link.');
/** A booking past RETENTION_DAYS: its personal data is gone, and so is what its link showed. */
export const gone = () =>
  new ApiError(
    410,
    'Gone',
    'This demo took place long ago and its details are no longer kept. Please book a new demo from our home page.',
  );
const cancelled = () =>
  new ApiError(
    409,
    'Booking cancelled',
    'This demo was cancelled, so it cannot be moved. Please book a new demo from our home page.',
  );
const alreadyHeld = () =>
  new ApiError(409, 'Demo already started', 'This demo has already started, so it can no longer be changed here.');

export function viewOf(booking: BookingState): BookingView {
  return {
    timeSlot: booking.timeSlot.toISOString(),
    status: booking.status,
    name: booking.name,
    company: booking.company,
    ...(booking.meetingUrl ? { meetingUrl: booking.meetingUrl } : {}),
    ...(booking.host ? { host: { name: booking.host.name, title: booking.host.title } } : {}),
  };
}

type Change = (
  booking: BookingState,
  trx: Knex.Transaction,
  recipient: CanonicalRecipient,
) => Promise<{ booking: BookingState; change?: BookingChange }>;

/**
 * Locks the booking (then its recipient's domain, as a booking does), applies `change` and stores its e-mails; when
 * those pass the recipient's e-mail ceiling, the whole change is undone (429). Else commits, then queues them.
 */
async function changeBooking(deps: BookingChangeDeps, id: string, what: string, change: Change): Promise<BookingView> {
  const { booking, jobs, changed } = await unlessDatabaseDown(
    () =>
      deps.db.transaction(async (trx) => {
        const current = await lockBooking(trx, id);
        if (!current) throw notFound();
        if (current.anonymised) throw gone();
        const recipient = canonicalRecipient(current.email);
        const ceiling = deps.emailsPerRecipientPerDay;
        if (ceiling > 0) await lockRecipientDomain(trx, recipient.domain);
        const outcome = await change(current, trx, recipient);
        const jobs: QueuedJob[] = outcome.change
          ? await storeEmails(trx, outcome.booking, outcome.change, deps.followUps, deps.now(), {
              timeSlot: current.timeSlot,
              ...(current.host ? { host: current.host.email } : {}),
            })
          : [];
        // Its webhook event, in the change's own transaction: undone with it if a ceiling refuses the change.
        if (outcome.change === 'rescheduled')
          jobs.push(...(await raiseWebhookEvent(trx, id, 'booking.rescheduled', current.timeSlot)));
        if (outcome.change === 'cancelled') jobs.push(...(await raiseWebhookEvent(trx, id, 'booking.cancelled')));
        if (outcome.change && ceiling > 0) {
          const mailed = await recipientEmailsPast(trx, recipient.address, ceiling);
          if (mailed.refused) throw emailCeilingError(mailed, 'change');
        }
        return { booking: outcome.booking, jobs, changed: outcome.change !== undefined };
      }),
    deps.logger,
    `booking not ${what}`,
    'We could not change your booking right now. Nothing was changed; please try again in a few minutes.',
  );
  if (changed) deps.bookingsChanged?.();
  await enqueueStored(deps.queue, jobs, deps.logger.child({ bookingId: id }));
  if (changed)
    deps.logger.info(
      { bookingId: id, timeSlot: booking.timeSlot.toISOString(), sequence: booking.sequence },
      `booking ${what}`,
    );
  return viewOf(booking);
}

function assertNotStarted(booking: BookingState, now: Date): void {
  if (booking.timeSlot.getTime() <= now.getTime()) throw alreadyHeld();
}

function assertMovable(booking: BookingState, now: Date): void {
  assertNotStarted(booking, now);
  if (booking.sequence >= MAX_BOOKING_CHANGES) {
    throw new ApiError(
      409,
      'Too many changes',
      `This booking has been changed ${booking.sequence} times, the most we take through its link. Please reply to your confirmation e-mail and we will find a time with you.`,
    );
  }
}

/**
 * Moves the booking to `timeSlot` (already checked against the booking rules); the same slot changes nothing. With a
 * team, the move asks what a booking asks (the hosts' calendars read now, then booking_choose_host under the slot's
 * and the hosts' locks): its host is kept when free at the new time, else another free host takes it.
 */
export async function rescheduleBooking(deps: BookingChangeDeps, id: string, timeSlot: Date): Promise<BookingView> {
  const hosts = deps.hostCalendars ? await hostCandidates(deps.hostCalendars, timeSlot, deps.timeZone) : undefined;
  return changeBooking(deps, id, 'rescheduled', async (booking, trx, recipient) => {
    if (booking.status === 'cancelled') throw cancelled();
    if (booking.timeSlot.getTime() === timeSlot.getTime()) return { booking };
    assertMovable(booking, deps.now());
    await lockSlot(trx, timeSlot);
    const refusal = await slotRefusal(trx, recipient.address, timeSlot, hosts ? null : deps.slotCapacity);
    if (refusal) throw refusalError(refusal);
    if (!hosts) return { booking: await moveBooking(trx, id, timeSlot), change: 'rescheduled' };
    await lockHosts(trx, hosts);
    const host = await hostFor(trx, timeSlot, hosts, { booking: id, prefer: booking.host?.email });
    if (!host) throw refusalError({ reason: 'slot-taken' });
    return { booking: await moveBooking(trx, id, timeSlot, host), change: 'rescheduled' };
  });
}

/** Cancels the booking and frees its slot; cancelling a cancelled booking changes nothing and says so. */
export function cancelBookingAt(deps: BookingChangeDeps, id: string): Promise<BookingView> {
  return changeBooking(deps, id, 'cancelled', async (booking, trx) => {
    if (booking.status === 'cancelled') return { booking };
    assertNotStarted(booking, deps.now());
    return { booking: await cancelBooking(trx, id), change: 'cancelled' };
  });
}
