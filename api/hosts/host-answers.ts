/**
 * The host's answer in their own calendar (issue 39): after every good read of a host's calendar (api/hosts/calendars.ts,
 * every HOST_CALENDAR_POLL_SECONDS and before a stale slot list), the bookings the database says that calendar holds
 * are compared with the events read. A booking counts when it is booked, not begun, has that host, and its event's
 * latest write into that calendar (the outbox's host-calendar row of its current sequence) was done before the read
 * began: so a write still on its way, the product's own removal after a move, cancel or reassignment (the booking then
 * has another host, or none, or is cancelled) and a failed write are never taken for the host's. Its event missing is
 * 'host-deleted'; the host's own ATTENDEE with PARTSTAT=DECLINED is 'host-declined'.
 *
 * Then the demo goes to another free host of its route (its routing record's, as the sales page's reassignment
 * offers; every host without routes), their calendars read now and their working hours checked, through one
 * statement (booking_host_answer, db/functions/host-answers.sql, which hands it on with booking_reassign under its
 * locks and the exclusion constraint); with nobody free, the booking needs a new time. The statement acts only on a
 * booking that still stands as read and whose row no other statement holds (SKIP LOCKED), so two API processes reading
 * the same calendar act once. Log lines name the booking and the hosts' places in the team file, never an address.
 *
 * A read that found the calendar untouched (sync-collection: nothing reported, the same token) is compared only when
 * the database may have moved since the last comparison: that one left a booking out (its write still on its way, or
 * another comparison acting on it), this process stored a booking's change since, or it is COMPARE_EVERY_MS old (a
 * change stored by another API process whose event its host removed before the next read).
 *
 * The prospect's answer can land in the host's copy too (a server that processes iMIP writes their PARTSTAT there):
 * their attendee line (compared as bookings.recipient keeps the address) ACCEPTED, TENTATIVE or DECLINED, different
 * from the answer the booking records, goes through booking_reply (db/functions/replies.sql) as a reply read from the
 * reply mailbox does, with the event's SEQUENCE and DTSTAMP. A Decline is taken before the host's own answer: a demo
 * the prospect gave up is cancelled, not handed on.
 */
import type { Logger } from 'pino';
import { slotEnd } from '../../domain/booking.js';
import { reassignableHosts, type RoutingRecord } from '../../domain/routing.js';
import { canonicalRecipient } from '../email-rules.js';
import { withinWorkingHours } from '../../server-shared/hosts/team.js';
import { bookingUid } from '../../server-shared/invitation.js';
import type { Db } from '../db.js';
import { enqueueStored, type DeliveryQueue } from '../delivery-queue.js';
import { emailJobs, emailRows, emailsParameter, type FollowUpSettings, type StoredRow } from '../bookings/emails.js';
import { candidateOf } from '../bookings/hosts.js';
import { hostsParameter } from '../bookings/repository.js';
import { webhookJobs, type StoredDelivery } from '../webhooks/repository.js';
import { HostCalendars, type CalendarRead } from './calendars.js';
import type { EventAnswers } from './event-answers.js';

export type HostAnswerReason = 'host-deleted' | 'host-declined';
export type HostAnswerOutcome = 'reassigned' | 'needs-new-time' | 'stale';
/** The prospect's answers booking_reply takes. */
export type ProspectAnswer = 'ACCEPTED' | 'TENTATIVE' | 'DECLINED';
/** What booking_reply did with one (db/functions/replies.sql). */
export type ProspectAnswerOutcome = 'declined' | 'recorded' | 'seen' | 'stale' | 'cancelled' | 'started' | 'unknown';
const PROSPECT_ANSWERS: readonly string[] = ['ACCEPTED', 'TENTATIVE', 'DECLINED'] satisfies ProspectAnswer[];

/** How long an untouched calendar goes without being compared with the database at most. */
export const COMPARE_EVERY_MS = 5 * 60_000;

export interface HostAnswersDeps {
  db: Db;
  queue: DeliveryQueue;
  logger: Logger;
  now: () => Date;
  /** The booking zone (a host's day for their daily limit). */
  timeZone: string;
  /** MAIL_FROM: the domain of the events' UIDs. */
  mailFrom: string;
  followUps: FollowUpSettings;
  calendars: HostCalendars;
  /** Told once a booking changed (the hosts' bookings kept in memory for the slot list). */
  bookingsChanged?: () => void;
}

interface Expected {
  id: string;
  /** Its event's latest write into the calendar was done before the read began; false: that write is on its way. */
  written: boolean;
  time_slot: Date;
  host_email: string;
  routing: RoutingRecord | null;
  /** The prospect's address as the ceilings count it (canonicalRecipient). */
  recipient: string;
  prospect_reply: ProspectAnswer | null;
}

interface AnswerResult {
  outcome: HostAnswerOutcome;
  emails: StoredRow[];
  webhooks: StoredDelivery[];
  booking: { host_email: string | null } | null;
}

/**
 * The bookings `hostEmail`'s calendar holds by the database, as of a read that began at `began` (written), and those
 * whose write into it is still to be done or was done since (not written: compared at a later read).
 */
async function expectedIn(db: Db, hostEmail: string, began: Date, now: Date): Promise<Expected[]> {
  const write = `d.booking_id = b.id AND d.kind = 'host-calendar' AND d.recipient = b.host_email AND d.sequence = b.sequence`;
  const { rows } = (await db.raw(
    `SELECT b.id, b.time_slot, b.host_email, b.routing, b.recipient, b.prospect_reply,
            EXISTS (SELECT 1 FROM deliveries d WHERE ${write} AND d.sent_at IS NOT NULL AND d.sent_at < ?) AS written
       FROM bookings b
      WHERE b.host_email = ? AND b.status = 'booked' AND b.time_slot > ? AND b.anonymised_at IS NULL
        AND EXISTS (SELECT 1 FROM deliveries d
          WHERE ${write} AND (d.sent_at IS NOT NULL OR (d.failed_at IS NULL AND d.dropped_at IS NULL)))`,
    [began, hostEmail, now],
  )) as { rows: Expected[] };
  return rows;
}

/** The prospect's answer in an event, when it is one booking_reply takes; another attendee's line is not theirs. */
function prospectAnswer(event: EventAnswers, recipient: string, hostEmail: string): ProspectAnswer | undefined {
  for (const [address, partstat] of Object.entries(event.partstats)) {
    if (address === hostEmail || !address.includes('@')) continue;
    if (canonicalRecipient(address).address !== recipient) continue;
    if (PROSPECT_ANSWERS.includes(partstat)) return partstat as ProspectAnswer;
  }
  return undefined;
}

export interface HostAnswersWatch {
  /** This process stored a booking's change: every host's calendar is compared at its next read, however quiet. */
  bookingsChanged(): void;
  /** The prospects' answers kept from asking again (tests): of the bookings each host's last comparison held. */
  remembered(): number;
}

interface HostState {
  /**
   * The answer and stamp last given to booking_reply that changed nothing (an older DTSTAMP, a stale SEQUENCE), by
   * booking: not asked again at every read while the host's copy says the same. Kept for the bookings of the last
   * comparison alone.
   */
  unchanged: Map<string, string>;
  /** Comparisons started (and changes stored since), counted: a comparison settles only while it is the latest. */
  started: number;
  /** The latest comparison, once it compared every booking of the calendar; and when its read began. */
  settled: { compare: number; began: number } | undefined;
}

/** Watches every host's reads from now on; `answered` is for tests and the bench (each booking acted on). */
export function watchHostAnswers(
  deps: HostAnswersDeps,
  answered?: (bookingId: string, reason: HostAnswerReason, outcome: HostAnswerOutcome) => void,
): HostAnswersWatch {
  const acting = new Set<string>();
  const team = deps.calendars.hosts;
  const hosts: HostState[] = team.map(() => ({ unchanged: new Map(), started: 0, settled: undefined }));

  const act = async (booking: Expected, hostIndex: number, reason: HostAnswerReason): Promise<void> => {
    const log = deps.logger.child({ bookingId: booking.id });
    const timeSlot = booking.time_slot;
    const end = slotEnd(timeSlot);
    // The route's other hosts inside their working hours, each calendar read now; the database decides among them.
    const free = [];
    for (const host of reassignableHosts(booking.routing, team, booking.host_email)) {
      const index = team.indexOf(host);
      if (!withinWorkingHours(host, timeSlot, end)) continue;
      const busy = await deps.calendars.freshBusyTimes(index);
      if (busy !== undefined && HostCalendars.isFree(busy, timeSlot, end))
        free.push(candidateOf(host, timeSlot, deps.timeZone));
    }
    const now = deps.now();
    const { rows } = (await deps.db.raw(
      'SELECT * FROM booking_host_answer(?, ?, ?, ?, ?::jsonb, ?, ?::jsonb, ?::jsonb)',
      [
        booking.id,
        booking.host_email,
        timeSlot,
        reason,
        hostsParameter(free),
        now,
        emailsParameter(emailRows('reassigned', deps.followUps, now, timeSlot)),
        emailsParameter(emailRows('needs-new-time', deps.followUps, now, timeSlot)),
      ],
    )) as { rows: AnswerResult[] };
    const result = rows[0];
    if (!result) throw new Error('booking_host_answer gave no row');
    if (result.outcome !== 'stale') {
      deps.bookingsChanged?.();
      await enqueueStored(deps.queue, [...emailJobs(result.emails), ...webhookJobs(result.webhooks)], log);
      const to = result.booking?.host_email ?? null;
      log.info(
        {
          hostIndex,
          reason,
          outcome: result.outcome,
          ...(to ? { toHostIndex: team.findIndex((host) => host.email.toLowerCase() === to) } : {}),
          freeHosts: free.length,
        },
        result.outcome === 'reassigned'
          ? 'host withdrew from a demo: handed to another host'
          : 'host withdrew from a demo: no other host free, the prospect is asked for a new time',
      );
    }
    answered?.(booking.id, reason, result.outcome);
  };

  const reply = async (
    unchanged: Map<string, string>,
    booking: Expected,
    hostIndex: number,
    answer: ProspectAnswer,
    event: EventAnswers,
    read: CalendarRead,
  ): Promise<boolean> => {
    const stamp = event.stamp ?? read.began;
    const key = `${answer} ${event.sequence} ${stamp.getTime()}`;
    if (unchanged.get(booking.id) === key) return false;
    const log = deps.logger.child({ bookingId: booking.id });
    const now = deps.now();
    const { rows } = (await deps.db.raw('SELECT * FROM booking_reply(?, ?, ?, ?, ?, ?::jsonb)', [
      booking.id,
      answer,
      event.sequence,
      stamp,
      now,
      // The rows the prospect's own cancel stores, as the reply mailbox's Decline does.
      emailsParameter(emailRows('cancelled', deps.followUps, now)),
    ])) as { rows: { outcome: ProspectAnswerOutcome; emails: StoredRow[]; webhooks: StoredDelivery[] }[] };
    const result = rows[0];
    if (!result) throw new Error('booking_reply gave no row');
    if (result.outcome === 'declined' || result.outcome === 'recorded') {
      unchanged.delete(booking.id);
      if (result.outcome === 'declined') deps.bookingsChanged?.();
      await enqueueStored(deps.queue, [...emailJobs(result.emails), ...webhookJobs(result.webhooks)], log);
    } else unchanged.set(booking.id, key);
    log.info({ hostIndex, partstat: answer, outcome: result.outcome }, "prospect's answer read in the host's calendar");
    return result.outcome === 'declined' || result.outcome === 'recorded';
  };

  const onRead = async (index: number, read: CalendarRead): Promise<void> => {
    const state = hosts[index]!;
    const { settled } = state;
    if (!read.changed && settled?.compare === state.started && read.began.getTime() - settled.began < COMPARE_EVERY_MS)
      return;
    const compare = ++state.started;
    const host = team[index]!;
    const hostEmail = host.email.toLowerCase();
    const bookings = await expectedIn(deps.db, hostEmail, read.began, deps.now());
    const expected = bookings.filter((booking) => booking.written);
    // A booking left for a later read keeps this comparison from settling: the next read compares again.
    let complete = expected.length === bookings.length;
    const held = new Set(expected.map((booking) => booking.id));
    for (const id of state.unchanged.keys()) if (!held.has(id)) state.unchanged.delete(id);
    for (const booking of expected) {
      const event = read.events.get(bookingUid(booking.id, deps.mailFrom));
      const answer = event && prospectAnswer(event, booking.recipient, hostEmail);
      const replied = answer !== undefined && answer !== booking.prospect_reply;
      const reason: HostAnswerReason | undefined = !event
        ? 'host-deleted'
        : event.partstats[hostEmail] === 'DECLINED'
          ? 'host-declined'
          : undefined;
      if (!reason && !replied) continue;
      if (acting.has(booking.id)) {
        complete = false;
        continue;
      }
      acting.add(booking.id);
      try {
        // A Decline that changed nothing (stale, already begun) leaves the host's own answer to be acted on.
        const cancelled =
          event &&
          replied &&
          (answer === 'DECLINED' || !reason) &&
          (await reply(state.unchanged, booking, index, answer, event, read));
        if (reason && !cancelled) await act(booking, index, reason);
      } finally {
        acting.delete(booking.id);
      }
    }
    if (complete && compare === state.started) state.settled = { compare, began: read.began.getTime() };
  };

  deps.calendars.onRead((index, read) =>
    onRead(index, read).catch((err: unknown) =>
      deps.logger.error(
        { hostIndex: index, error: (err as Error).message },
        "host calendar's answers not compared: tried again at the next read",
      ),
    ),
  );

  return {
    bookingsChanged() {
      for (const state of hosts) state.started += 1;
    },
    remembered: () => hosts.reduce((sum, state) => sum + state.unchanged.size, 0),
  };
}
