/**
 * The e-mails a prospect receives about one booking are one calendar event told change by change: the confirmation
 * (SEQUENCE 0, on the booking's bookings row), then an update or the cancellation per change (booking_emails,
 * each with the sequence of its change), and reminders. What the prospect's calendar ends with must be what the
 * booking is, so an e-mail overtaken by a later change is never sent once that change exists, and none goes out while
 * an earlier one is still in flight. The API settles a booking's earlier e-mails in the change's own transaction; the
 * worker settles them again, and waits for the ones in flight, before it sends a later one. Both use this file.
 */
import type { Knex } from 'knex';
import type { BookingEmailKind } from './jobs.js';

/** The confirmation announces the booking itself, the first version of its event. */
export const CONFIRMATION_SEQUENCE = 0;

/** The booking_emails kinds that go to the prospect; the sales desk's notice is not part of the prospect's calendar. */
export const PROSPECT_EMAIL_KINDS: readonly BookingEmailKind[] = ['update', 'cancellation', 'reminder'];

/**
 * Drops the booking's prospect e-mails of a lower sequence than `sequence` that are still to send and under no live
 * claim: a change of that sequence has been made, so they no longer tell the truth (the confirmation of a booking
 * moved or cancelled, an update overtaken, a reminder of a slot given up). One held by a live claim is being sent
 * right now and is left to its worker, which drops it if its send fails (the later e-mail waits for it meanwhile).
 * The two tables are changed by two statements, each locking one table's rows, so that a caller outside a
 * transaction never holds one table's lock while waiting for the other's (a change locks the booking row first).
 */
export async function settleEarlierProspectEmails(db: Knex | Knex.Transaction, bookingId: string, sequence: number): Promise<void> {
  if (sequence > CONFIRMATION_SEQUENCE) {
    await db('bookings')
      .where({ id: bookingId })
      .whereNull('confirmation_sent_at')
      .whereNull('confirmation_failed_at')
      .whereNull('confirmation_dropped_at')
      .where((unclaimed) => unclaimed.whereNull('confirmation_claimed_until').orWhere('confirmation_claimed_until', '<', db.fn.now()))
      .update({ confirmation_dropped_at: db.fn.now() });
  }
  await db('booking_emails')
    .where({ booking_id: bookingId })
    .whereIn('kind', PROSPECT_EMAIL_KINDS)
    .where('sequence', '<', sequence)
    .whereNull('sent_at')
    .whereNull('failed_at')
    .whereNull('dropped_at')
    .where((unclaimed) => unclaimed.whereNull('claimed_until').orWhere('claimed_until', '<', db.fn.now()))
    .update({ dropped_at: db.fn.now() });
}

/**
 * How many of the booking's prospect e-mails of a lower sequence are still unsettled (neither sent, refused for good
 * nor dropped). Once it is 0 it stays 0: an e-mail is never stored below a sequence already reached, and a settled
 * one never becomes unsettled again.
 */
export async function unsettledEarlierProspectEmails(db: Knex, bookingId: string, sequence: number): Promise<number> {
  const emails = await db('booking_emails')
    .where({ booking_id: bookingId })
    .whereIn('kind', PROSPECT_EMAIL_KINDS)
    .where('sequence', '<', sequence)
    .whereNull('sent_at')
    .whereNull('failed_at')
    .whereNull('dropped_at')
    .first(db.raw('count(*)::int AS unsettled'));
  let unsettled: number = emails?.unsettled ?? 0;
  if (sequence > CONFIRMATION_SEQUENCE) {
    const confirmation = await db('bookings')
      .where({ id: bookingId })
      .whereNull('confirmation_sent_at')
      .whereNull('confirmation_failed_at')
      .whereNull('confirmation_dropped_at')
      .first('id');
    if (confirmation) unsettled += 1;
  }
  return unsettled;
}
