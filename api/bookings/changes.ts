/**
 * Moving and cancelling a booking through its link. Each change is one statement (booking_move, booking_cancel of
 * db/functions/booking-changes.sql): the booking locked, checked and changed under the locks a booking takes, its sequence
 * raised (the calendar event's SEQUENCE), its e-mails stored in the outbox with its webhook event. Here: the hosts'
 * calendars read before, the statement, and its jobs queued after the commit. A freed slot is bookable again the
 * moment the change commits.
 */
import type { Logger } from 'pino';
import type { BookingView } from '../../domain/demo-request.js';
import { readUnlessDatabaseDown, unlessDatabaseDown, type Db } from '../db.js';
import { enqueueStored, type DeliveryQueue } from '../delivery-queue.js';
import { changeRefusalError } from './refusals.js';
import { emailJobs, emailRows, type FollowUpSettings } from './emails.js';
import { cancelBooking, moveBooking, type ChangeResult } from './change-statements.js';
import { routingInputOf, type BookingState } from './repository.js';
import { hostsAtSlot } from './hosts.js';
import { everyHost, routedHosts, type RoutedHosts } from './routed-hosts.js';
import type { ProspectRouting } from '../routing/prospect-route.js';
import type { Contact } from '../../domain/brand.js';
import { ApiError } from '../errors.js';
import { webhookJobs } from '../webhooks/repository.js';
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
  /** The team's routing: a move stays within the booking's route, routed again from its answers and e-mail. */
  routing?: ProspectRouting;
  /** CONTACT_EMAIL (routing's words for an unrouted prospect; a move never shows them). */
  contact?: Contact;
}

/**
 * With a team, the hosts a move may give the booking to: those of its route again, from its stored answers and
 * e-mail, and its account's owner, with a new routing record. A booking made without routing (no answers kept) may
 * go to any host, as before; one the routes no longer take (the team file changed) keeps its host or is refused.
 */
async function hostsForMove(deps: BookingChangeDeps, id: string, timeSlot: Date): Promise<RoutedHosts | undefined> {
  const calendars = deps.hostCalendars;
  if (!calendars) return undefined;
  const stored = await readUnlessDatabaseDown(() => routingInputOf(deps.db, id), deps.logger, 'booking');
  if (!stored?.answers) return everyHost(calendars, timeSlot, deps.timeZone);
  try {
    return await routedHosts(deps, stored.email, stored.answers, timeSlot);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    deps.logger.warn({ bookingId: id, status: err.status }, 'booking no longer routed: a move keeps its host or none');
    const own = stored.hostEmail ? [stored.hostEmail] : [];
    const { free } = await hostsAtSlot(calendars, timeSlot, deps.timeZone, own);
    return { hosts: free, owner: undefined, answers: stored.answers, routing: undefined };
  }
}

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

/** Runs the change's statement; a refusal becomes its answer, else the jobs of what it stored are queued. */
async function changeBooking(
  deps: BookingChangeDeps,
  id: string,
  what: 'rescheduled' | 'cancelled',
  change: () => Promise<ChangeResult>,
): Promise<BookingView> {
  const result = await unlessDatabaseDown(
    change,
    deps.logger,
    `booking not ${what}`,
    'We could not change your booking right now. Nothing was changed; please try again in a few minutes.',
  );
  if (result.outcome === 'refused') throw changeRefusalError(result.refusal);
  const { booking } = result;
  if (result.outcome === 'changed') deps.bookingsChanged?.();
  await enqueueStored(
    deps.queue,
    [...emailJobs(result.emails), ...webhookJobs(result.webhooks)],
    deps.logger.child({ bookingId: id }),
  );
  if (result.outcome === 'changed')
    deps.logger.info(
      { bookingId: id, timeSlot: booking.timeSlot.toISOString(), sequence: booking.sequence },
      `booking ${what}`,
    );
  return viewOf(booking);
}

/**
 * Moves the booking to `timeSlot` (its notice and grid already checked, domain/booking.ts); the same slot changes
 * nothing. With a team, the hosts' calendars are read now, before the statement chooses among them: its host is kept
 * when free at the new time, else the account's owner, else the fairest free host of the booking's route.
 */
export async function rescheduleBooking(deps: BookingChangeDeps, id: string, timeSlot: Date): Promise<BookingView> {
  const team = await hostsForMove(deps, id, timeSlot);
  const now = deps.now();
  return changeBooking(deps, id, 'rescheduled', () =>
    moveBooking(deps.db, {
      id,
      timeSlot,
      now,
      slotCapacity: deps.slotCapacity,
      ...(team
        ? {
            hosts: team.hosts,
            ...(team.owner ? { owner: team.owner } : {}),
            ...(team.routing ? { routing: team.routing } : {}),
          }
        : {}),
      emailsPerRecipientPerDay: deps.emailsPerRecipientPerDay,
      emails: emailRows('rescheduled', deps.followUps, now, timeSlot),
    }),
  );
}

/** Cancels the booking and frees its slot; cancelling a cancelled booking changes nothing and says so. */
export function cancelBookingAt(deps: BookingChangeDeps, id: string): Promise<BookingView> {
  const now = deps.now();
  return changeBooking(deps, id, 'cancelled', () =>
    cancelBooking(deps.db, {
      id,
      now,
      emailsPerRecipientPerDay: deps.emailsPerRecipientPerDay,
      emails: emailRows('cancelled', deps.followUps, now),
    }),
  );
}
